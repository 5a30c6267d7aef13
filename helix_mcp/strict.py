"""Tools that check their arguments strictly and fail in one sentence.

The SDK's argument models ignore unknown names (``"user": "bob"`` would be dropped silently)
and coerce types (``use_memory: "yes"`` becomes true). ``StrictTool`` refuses both, and
every failure it reports reads as one sentence with what to do, instead of a pydantic dump or
the bare "Error executing tool ..." the SDK gives for an unexpected exception.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.mcpserver.tools.base import Tool
from mcp.types import ToolAnnotations
from pydantic import BaseModel, ConfigDict, ValidationError

from engine.util.faults import StoreFault
from helix_mcp.stdio import SURROGATE, _has_surrogate

USER_HINT = "the user is fixed when the server starts (helix-chat mcp --user ID)"
TEAM_USER_HINT = (
    "on a team server every call acts for the user its bearer token names "
    "(a token comes from `helix-chat users add NAME`)"
)
UNEXPECTED_FIX = (
    "run `helix-chat doctor` to check the data home; if it is healthy, this is a bug to report"
)


def _got(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _describe(err: dict[str, Any], fields: list[str], user_hint: str = USER_HINT) -> str:
    where = ".".join(str(x) for x in err["loc"]) or "arguments"
    kind = err["type"]
    if kind == "extra_forbidden":
        hint = f"; {user_hint}" if where == "user" else ""
        return f"unknown argument {where!r} (this tool takes {', '.join(fields)}){hint}"
    if kind == "missing":
        return f"missing argument {where!r}"
    msg = str(err["msg"]).rstrip(".")
    return f"argument {where!r}: {msg[0].lower() + msg[1:]} (got {_got(err.get('input'))})"


def _strict_model(model: type[BaseModel]) -> type[BaseModel]:
    config = ConfigDict(**{**model.model_config, "extra": "forbid", "strict": True})
    return type(f"{model.__name__}Strict", (model,), {"model_config": config})


class StrictTool(Tool):
    """A tool that refuses unknown arguments and wrong JSON types, and whose every error is
    one sentence naming the cause and the fix."""

    user_hint: str = USER_HINT
    """Who the tool acts for, said when a call passes a ``user`` argument."""

    def model_post_init(self, context: Any, /) -> None:
        self.parameters = {**self.parameters, "additionalProperties": False}

    def problem(self, arguments: dict[str, Any]) -> str | None:
        """Why ``arguments`` cannot be used, or None."""
        if _has_surrogate(arguments):
            return f"{self.name}: {SURROGATE}"
        model = self.fn_metadata.arg_model
        fields = sorted(f.alias or n for n, f in model.model_fields.items())
        try:
            _strict_model(model).model_validate(self.fn_metadata.pre_parse_json(arguments))
        except ValidationError as exc:
            parts = [
                _describe(e, fields, self.user_hint)  # type: ignore[arg-type]
                for e in exc.errors()
            ]
            return f"invalid arguments for {self.name}: {'; '.join(parts)}"
        return None

    async def run(
        self, arguments: dict[str, Any], context: Any, convert_result: bool = False
    ) -> Any:
        problem = self.problem(arguments)
        if problem:
            raise ToolError(problem)
        try:
            return await super().run(arguments, context, convert_result=convert_result)
        except UnexpectedToolError as exc:
            cause = exc.__cause__ or exc
            if isinstance(cause, StoreFault):  # the store's own sentence: its file and fix
                raise ToolError(f"{self.name}: {cause}") from cause
            reason = (str(cause).strip().splitlines() or [type(cause).__name__])[0][:200]
            raise ToolError(
                f"{self.name} failed ({type(cause).__name__}: {reason}); {UNEXPECTED_FIX}"
            ) from cause


class StrictTools:
    """Tools collected with ``@tools.tool(...)`` (the arguments of ``@server.tool``), handed to
    ``MCPServer(tools=...)``."""

    def __init__(self, user_hint: str = USER_HINT) -> None:
        self.tools: list[Tool] = []
        self.user_hint = user_hint

    def tool(
        self,
        *,
        title: str,
        description: str,
        annotations: ToolAnnotations | None = None,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            base = Tool.from_function(
                fn, title=title, description=description, annotations=annotations
            )
            self.tools.append(StrictTool(**{**dict(base), "fn": fn, "user_hint": self.user_hint}))
            return fn

        return register
