"""The team server: one MCP endpoint over streamable HTTP for many users.

Each request carries ``Authorization: Bearer <token>``; the token (made by ``helix-chat users
add``, stored only as a hash) names the user, never the client: requests without a valid token
get 401 before any tool runs. Every user's memory lives in PostgreSQL
(``HELIX_DATABASE_URL``) under row-level security, so several server processes, on one host or
many, can share one database. Each process opens the knowledge graph and passage stores
(read-only local files) once and lets one call at a time use them; more processes serve more
calls at once.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

import anyio.to_thread
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from engine.config import Settings
from engine.ports import EnginePort
from helix_mcp.ports import EngineFactory, MemoryFactory, open_helix, open_user_memory
from helix_mcp.server import make_server
from helix_mcp.strict import TEAM_USER_HINT
from helix_mcp.tools import HelixTools

log = logging.getLogger(__name__)


class TokenUsers:
    """The MCP SDK's ``TokenVerifier``: a bearer token -> its user, from the database."""

    def __init__(self, settings: Settings) -> None:
        from memory.store.pg import pg_backend

        self._backend = pg_backend(settings)

    async def verify_token(self, token: str) -> AccessToken | None:
        from memory.store.pg_admin import user_of_token

        user = await anyio.to_thread.run_sync(user_of_token, self._backend, token)
        if user is None:
            return None
        return AccessToken(token=token, client_id=user, scopes=[], subject=user)


class TeamTools:
    """The tools of each authenticated user, over one engine shared by the process."""

    def __init__(
        self,
        settings: Settings,
        engine_factory: EngineFactory = open_helix,
        memory_factory: MemoryFactory = open_user_memory,
    ) -> None:
        self.settings = settings
        self._engine_factory = engine_factory
        self._memory_factory = memory_factory
        self._engine: EnginePort | None = None
        self.lock = threading.RLock()
        """One call at a time uses the engine (DuckDB and FAISS are not shared by threads)."""
        self._users: dict[str, HelixTools] = {}

    def engine(self, settings: Settings) -> EnginePort:
        with self.lock:
            if settings.layers != self.settings.layers:
                return self._engine_factory(settings)  # a user asked for other layers
            if self._engine is None:
                self._engine = self._engine_factory(settings)
            return self._engine

    def current(self) -> HelixTools:
        """The tools of the user whose token authenticated this request."""
        token = get_access_token()
        if token is None:  # the auth middleware answers 401 before a tool can run
            raise ToolError("not authenticated")
        user = token.client_id
        with self.lock:
            tools = self._users.get(user)
            if tools is None:
                settings = self.settings.model_copy(update={"user": user})
                tools = HelixTools(settings, user, self.engine, self._memory_factory)
                tools.lock = self.lock
                self._users[user] = tools
            return tools

    def close(self) -> None:
        with self.lock:
            for tools in self._users.values():
                tools.close_memory()
                tools.close_layered()
            self._users.clear()
            if self._engine is not None:
                self._engine.close()
                self._engine = None


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
    server = build_team_server(settings, host=host, port=port, engine_factory=engine_factory)
    log.warning("Helix team MCP on http://%s:%d/mcp (bearer tokens)", host, port)
    server.run("streamable-http", host=host, port=port, stateless_http=True, json_response=True)
