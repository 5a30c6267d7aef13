"""What the chat app needs from the rest of Helix, as Protocols, and their default wiring.

The app never imports ``engine.api``, ``sessions`` or ``memory`` at start-up: the default
factories import them when called, so the first paint does not wait for the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from engine.agent.ports import EnginePort, MemoryPort
from engine.config import Settings
from engine.result import Result, Triple


class Clock(Protocol):
    def now(self) -> datetime: ...


class WallClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class SessionInfoLike(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def user(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def updated_at(self) -> datetime: ...
    @property
    def n_turns(self) -> int: ...


class TurnLike(Protocol):
    @property
    def question(self) -> str: ...
    @property
    def result(self) -> Result: ...


class SessionStorePort(Protocol):
    """``sessions.store.SessionStore`` for one user."""

    def create(
        self, title: str | None = None, session_id: str | None = None
    ) -> SessionInfoLike: ...
    def list(self) -> Sequence[SessionInfoLike]: ...
    def get(self, id: str) -> SessionInfoLike | None: ...
    def latest(self) -> SessionInfoLike | None: ...
    def rename(self, id: str, title: str) -> object: ...
    def delete(self, id: str) -> object: ...
    def add_turn(self, session_id: str, question: str, result: Result) -> object: ...
    def turns(self, session_id: str) -> Sequence[TurnLike]: ...
    def export_markdown(self, session_id: str) -> str: ...
    def close(self) -> None: ...


class UserMemoryPort(MemoryPort, Protocol):
    """``memory.service.UserMemory`` for one user."""

    def state(self, text: str, session: str | None) -> object: ...
    def store_fact(
        self,
        subj: str,
        rel: str,
        obj: str,
        supersedes: Triple | None = None,
        evidence: str | None = None,
        *,
        session: str | None = None,
    ) -> object: ...
    def facts(self, include_superseded: bool = True) -> Sequence[object]: ...
    def forget(self, fact_or_subject: Any) -> int: ...


EngineFactory = Callable[[Settings], EnginePort]
SessionsFactory = Callable[[Settings, str, Clock], SessionStorePort]
MemoryFactory = Callable[[Settings, str, Clock, EnginePort], UserMemoryPort]


@dataclass(frozen=True)
class Services:
    """Factories for the engine, the per-user session store and the per-user memory."""

    open_engine: EngineFactory
    """Called once, off the UI thread; may take seconds."""
    open_sessions: SessionsFactory
    """Called on the UI thread; must be quick."""
    open_memory: MemoryFactory
    """Called off the UI thread once the engine is open (memory links entities through it)."""
    clock: Clock = field(default_factory=WallClock)
    """The clock memory and sessions read (a simulated one during a replay)."""


def default_services() -> Services:
    """The real Helix engine, ``sessions.store.SessionStore`` and ``memory.service.UserMemory``."""
    return Services(open_engine=_open_helix, open_sessions=_open_sessions, open_memory=_open_memory)


def _open_helix(settings: Settings) -> EnginePort:
    from engine.api import Helix

    helix = Helix.open(settings)
    helix.warm()
    return helix


def _open_sessions(settings: Settings, user: str, clock: Clock) -> SessionStorePort:
    from sessions.store import SessionStore

    store: SessionStorePort = SessionStore(settings, user, clock=clock)
    return store


def _open_memory(settings: Settings, user: str, clock: Clock, engine: EnginePort) -> UserMemoryPort:
    from memory.linking import engine_linker
    from memory.service import UserMemory
    from sessions.store import mention_scrubber

    embed = getattr(engine, "embed", None)
    memory: UserMemoryPort = UserMemory(
        settings,
        user,
        clock=clock,
        linker=engine_linker(engine),
        embed=embed() if callable(embed) else None,
        forget_elsewhere=mention_scrubber(settings, user, clock),
    )
    return memory
