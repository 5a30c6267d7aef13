"""The team server: one MCP endpoint over streamable HTTP for many users.

Each request carries ``Authorization: Bearer <token>``; the token (made by ``helix-chat users
add``, stored only as a hash) names the user, never the client: requests without a valid token
get 401 before any tool runs. Every user's memory lives in PostgreSQL
(``HELIX_DATABASE_URL``) under row-level security, so several server processes, on one host or
many, can share one database. Each process opens the knowledge graph and passage stores
(read-only local files) once and lets one call at a time use them; more processes serve more
calls at once.

When the database stops answering, memory tools fail as tool errors within
``HELIX_DATABASE_TIMEOUT_S`` (at once while it stays down), graph tools keep working for tokens
this process checked within ``HELIX_TEAM_TOKEN_GRACE_MINUTES``, and a request whose token
cannot be checked gets a JSON-RPC error (HTTP 503) saying so, not a plain-text 500.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import anyio.to_thread
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from engine.config import Settings
from helix_mcp.engines import Engines
from helix_mcp.ports import (
    EngineFactory,
    MemoryFactory,
    open_helix,
    open_user_memory,
    shared_parts,
)
from helix_mcp.server import make_server
from helix_mcp.strict import TEAM_USER_HINT
from helix_mcp.tools import HelixTools

log = logging.getLogger(__name__)


class TokenUsers:
    """The MCP SDK's ``TokenVerifier``: a bearer token -> its user, from the database.

    While the database cannot be reached, a token the database confirmed less than
    ``settings.team_token_grace_minutes`` ago is still taken (graph tools go on; memory tools
    say the database is down); any other token raises ``DatabaseUnreachable``, which
    ``SaysDatabaseDown`` answers. A token the database no longer knows is forgotten at once."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self._settings = settings
        self._grace_s = settings.team_token_grace_minutes * 60
        self._clock = clock
        self._confirmed: dict[str, tuple[str, float]] = {}
        """sha256 of a token -> its user and when the database last confirmed it."""

    async def verify_token(self, token: str) -> AccessToken | None:
        from memory.store.pg import DatabaseUnreachable, pg_backend
        from memory.store.pg_admin import token_hash, user_of_token

        key = token_hash(token)
        try:  # the backend opens on the first request the database answers
            backend = await anyio.to_thread.run_sync(pg_backend, self._settings)
            user = await anyio.to_thread.run_sync(user_of_token, backend, token)
        except DatabaseUnreachable:
            user = self._remembered(key)
            if user is None:
                raise
        else:
            if user is None:
                self._confirmed.pop(key, None)
                return None
            self._confirmed[key] = (user, self._clock())
        return AccessToken(token=token, client_id=user, scopes=[], subject=user)

    def _remembered(self, key: str) -> str | None:
        user, when = self._confirmed.get(key, (None, 0.0))
        return user if user is not None and self._clock() - when <= self._grace_s else None


class SaysDatabaseDown:
    """ASGI middleware (outside authentication): a request whose token could not be checked
    because the database is down is answered with a JSON-RPC error naming that cause, HTTP 503
    with ``Retry-After``, instead of a plain-text 500 and a traceback in the log."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        from memory.store.pg import DatabaseUnreachable

        try:
            await self.app(scope, receive, send)
        except DatabaseUnreachable as exc:
            if scope["type"] != "http":
                raise
            log.warning("a request's token could not be checked: %s", exc)
            message = f"this request's bearer token could not be checked: {exc}"
            body = {"jsonrpc": "2.0", "id": None, "error": {"code": -32000, "message": message}}
            reply = JSONResponse(body, status_code=503, headers={"Retry-After": "5"})
            await reply(scope, receive, send)


class TeamTools:
    """The tools of each authenticated user, over the engines shared by the process."""

    def __init__(
        self,
        settings: Settings,
        engine_factory: EngineFactory = open_helix,
        memory_factory: MemoryFactory = open_user_memory,
    ) -> None:
        self.settings = settings
        self._memory_factory = (
            shared_parts() if memory_factory is open_user_memory else memory_factory
        )
        self.engines = Engines(settings, engine_factory)
        """The server's engine and those of other layer sets, shared by every user."""
        self.lock = threading.RLock()
        """Guards the table of users; each user's calls hold that user's own lock, and the
        engines answer several users at once."""
        self._users: dict[str, HelixTools] = {}
        self.slots = threading.BoundedSemaphore(settings.team_workers)
        """Held by each tool call while it runs: at most ``team_workers`` at once."""

    def current(self) -> HelixTools:
        """The tools of the user whose token authenticated this request."""
        token = get_access_token()
        if token is None:  # the auth middleware answers 401 before a tool can run
            raise ToolError("not authenticated")
        return self.tools_of(token.client_id)

    def tools_of(self, user: str) -> HelixTools:
        with self.lock:
            tools = self._users.get(user)
            if tools is None:
                settings = self.settings.model_copy(update={"user": user})
                tools = HelixTools(
                    settings,
                    user,
                    open_helix,
                    self._memory_factory,
                    engines=self.engines,
                    slots=self.slots,
                )
                self._users[user] = tools
            return tools

    def close(self) -> None:
        with self.lock:
            for tools in self._users.values():
                tools.close_memory()
            self._users.clear()
            self.engines.close()


def build_team_server(
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    engine_factory: EngineFactory = open_helix,
    memory_factory: MemoryFactory = open_user_memory,
) -> MCPServer[Any]:
    """The multi-user server; needs ``settings.database_url`` (memory in PostgreSQL)."""
    if not settings.database_url:
        raise ValueError(
            "a team server keeps every user's memory in PostgreSQL: set HELIX_DATABASE_URL "
            "(README, 'Team server')"
        )
    from memory.store.pg import DatabaseUnreachable, pg_backend

    try:  # a wrong role or missing migrations stop the server here; a database down does not
        pg_backend(settings)
    except DatabaseUnreachable as exc:
        log.warning("%s; serving anyway, each request says so until it answers", exc)
    team = TeamTools(settings, engine_factory, memory_factory)
    url = f"http://{host}:{port}/mcp"
    return make_server(
        settings,
        team.current,
        team.close,
        user_hint=TEAM_USER_HINT,
        token_verifier=TokenUsers(settings),
        auth=AuthSettings(
            issuer_url=url,  # type: ignore[arg-type]
            resource_server_url=url,  # type: ignore[arg-type]
            validate_token_resource=False,
        ),
    )


def serve_team(
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    engine_factory: EngineFactory = open_helix,
) -> None:
    """Serve the team endpoint at ``http://host:port/mcp`` (stateless JSON requests, so any
    process behind a balancer can take any request)."""
    import uvicorn

    server = build_team_server(settings, host=host, port=port, engine_factory=engine_factory)
    app = server.streamable_http_app(stateless_http=True, json_response=True, host=host)
    app.add_middleware(SaysDatabaseDown)
    log.warning("Helix team MCP on http://%s:%d/mcp (bearer tokens)", host, port)
    uvicorn.run(app, host=host, port=port, log_level="warning")
