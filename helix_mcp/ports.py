"""What the MCP server needs from the engine and from one user's memory, and default wiring."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from engine.agent.ports import EnginePort, MemoryPort
from engine.config import Settings
from engine.result import Triple


class MemoryToolsPort(MemoryPort, Protocol):
    """``memory.service.UserMemory`` for the server's user."""

    def state(self, text: str, session: str | None = None) -> object | None: ...

    def store_fact(
        self,
        subj: str,
        rel: str,
        obj: str,
        supersedes: Triple | None = None,
        evidence: str | None = None,
        *,
        session: str | None = None,
    ) -> object | None: ...

    def search(self, query: str, limit: int = 50) -> Sequence[object]: ...

    def forget(self, target: Triple | str) -> int: ...

    def close(self) -> None: ...


EngineFactory = Callable[[Settings], EnginePort]
MemoryFactory = Callable[[Settings, str, EnginePort], MemoryToolsPort]


class StoresNotBuilt(RuntimeError):
    """The data home has no stores yet; building them takes minutes, so a tool call never
    does it: it names the command instead."""


def open_helix(settings: Settings) -> EnginePort:
    """The real engine over the stores of ``settings.home`` (never builds them)."""
    from engine.api import Helix
    from engine.ingest.build import stores_ready

    if not stores_ready(settings):
        raise StoresNotBuilt(
            f"the stores under {settings.stores_dir} are not built yet; build them once with "
            f"`HELIX_HOME={settings.home} helix-chat ingest` (a few minutes), then call again"
        )
    return Helix.open(settings, auto_ingest=False)


def open_user_memory(settings: Settings, user: str, engine: EnginePort) -> MemoryToolsPort:
    """``memory.service.UserMemory`` for ``user`` on the wall clock, linking statements and
    questions through the engine's alias table (``memory.linking.engine_linker``)."""
    from memory.clock import SystemClock
    from memory.linking import engine_linker
    from memory.service import UserMemory
    from sessions.store import mention_scrubber

    clock = SystemClock()
    embed = getattr(engine, "embed", None)
    memory: MemoryToolsPort = UserMemory(
        settings,
        user,
        clock=clock,
        linker=engine_linker(engine),
        embed=embed() if callable(embed) else None,
        forget_elsewhere=mention_scrubber(settings, user, clock),
    )
    return memory
