"""Serving over stdio so that every request gets a reply.

The SDK's stdio transport hands a line it cannot parse (broken JSON, or a lone surrogate such as
``\\ud800`` that its strict JSON parser refuses) to the session as an exception, which drops it:
the client then waits forever for the reply to that request. ``AnsweringStream`` turns such a
line into a JSON-RPC error for the request's id (read with Python's lenient parser), so the
client hears at once what was wrong.
"""

from __future__ import annotations

import json
from types import TracebackType
from typing import Any, Self

import mcp_types as types
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from engine.util.text import has_lone_surrogate

SURROGATE = (
    "the request holds text that is not valid Unicode (a lone surrogate such as \\ud800); "
    "send every argument as valid UTF-8 text"
)


def _raw_line(exc: Exception) -> str | None:
    if isinstance(exc, ValidationError):
        for err in exc.errors():
            if isinstance(err.get("input"), str):
                return str(err["input"])
    return None


def _has_surrogate(value: object) -> bool:
    if isinstance(value, str):
        return has_lone_surrogate(value)
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_surrogate(v) for v in value)
    return False


def error_reply(exc: Exception) -> types.JSONRPCError | None:
    """The JSON-RPC error answering the unparsable line behind ``exc`` (None for a
    notification, which gets no reply)."""
    raw = _raw_line(exc)
    try:
        message = json.loads(raw) if raw is not None else None
    except (ValueError, RecursionError) as err:
        return types.JSONRPCError(
            jsonrpc="2.0",
            id=None,
            error=types.ErrorData(
                code=types.PARSE_ERROR,
                message=f"the request is not valid JSON ({err}); send one JSON-RPC message a line",
            ),
        )
    if not isinstance(message, dict):
        return types.JSONRPCError(
            jsonrpc="2.0",
            id=None,
            error=types.ErrorData(
                code=types.INVALID_REQUEST,
                message="the request is not a JSON-RPC message object; send one object a line",
            ),
        )
    rid = message.get("id")
    if "method" in message and rid is None:
        return None
    if not isinstance(rid, int | str) or isinstance(rid, bool) or _has_surrogate(rid):
        rid = None
    if _has_surrogate(message):
        code, text = types.INVALID_PARAMS, SURROGATE
    else:
        code, text = types.INVALID_REQUEST, f"the request is not a valid JSON-RPC message ({exc})"
    return types.JSONRPCError(
        jsonrpc="2.0", id=rid, error=types.ErrorData(code=code, message=text.splitlines()[0])
    )


class AnsweringStream:
    """The transport's read stream, with unparsable lines answered on ``write`` instead of
    being passed on."""

    def __init__(self, inner: Any, write: Any) -> None:
        self._inner = inner
        self._write = write

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def _answered(self, item: Any) -> bool:
        """True when ``item`` was an unparsable line (answered here, not passed on)."""
        if not isinstance(item, Exception):
            return False
        reply = error_reply(item)
        if reply is not None:
            await self._write.send(SessionMessage(reply))
        return True

    async def receive(self) -> Any:
        while True:
            item = await self._inner.receive()
            if not await self._answered(item):
                return item

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> Any:
        while True:
            item = await self._inner.__anext__()
            if not await self._answered(item):
                return item

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None:
        await self.aclose()
        return None


async def run_stdio(server: MCPServer[Any]) -> None:
    """``server.run_stdio_async()`` with every request answered (see the module docstring)."""
    lowlevel = server._lowlevel_server
    async with stdio_server() as (read_stream, write_stream):
        await lowlevel.run(
            AnsweringStream(read_stream, write_stream),
            write_stream,
            lowlevel.create_initialization_options(),
        )
