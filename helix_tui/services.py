"""What the chat app needs from the rest of Helix, as ports, and their default wiring.

The engine and memory ports are ``engine.ports``'; the default factories open them through
``wiring.open`` (as every front end does) and import it when called, so the first paint does
not wait for the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from engine.config import Settings
from engine.ports import Clock, EngineFactory, EnginePort, UserMemoryPort
from engine.result import Result

if TYPE_CHECKING:
    from sessions.hits import TurnHit


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
    def search_turns(self, query: str, limit: int = 20) -> Sequence[TurnHit]: ...
    def recent_turns(self, limit: int = 500) -> Sequence[TurnHit]: ...
    def close(self) -> None: ...


SessionsFactory = Callable[[Settings, str, Clock | None], SessionStorePort]
MemoryFactory = Callable[[Settings, str, EnginePort, Clock | None], UserMemoryPort]


@dataclass(frozen=True)
class Services:
    """Factories for the engine, the per-user session store and the per-user memory."""

    open_engine: EngineFactory
    """Called once, off the UI thread; may take seconds."""
    open_sessions: SessionsFactory
    """Called on the UI thread; must be quick."""
    open_memory: MemoryFactory
    """Called off the UI thread once the engine is open (memory links entities through it),
    before the first question when none waits: what that question needs is done then."""
    clock: Clock | None = None
    """The clock memory and sessions read: the wall clock when None (a simulated one during
    a replay)."""


def default_services() -> Services:
    """The real Helix engine, ``sessions.store.SessionStore`` and ``memory.service.UserMemory``,
    opened by ``wiring.open``."""
    return Services(
        open_engine=_open_engine, open_sessions=_open_sessions, open_memory=_open_memory
    )


def _open_engine(settings: Settings) -> EnginePort:
    from wiring.open import open_engine

    return open_engine(settings)


def _open_sessions(settings: Settings, user: str, clock: Clock | None) -> SessionStorePort:
    from sessions.store import SessionStore

    store: SessionStorePort = SessionStore(settings, user, clock=clock)
    return store


def _open_memory(
    settings: Settings, user: str, engine: EnginePort, clock: Clock | None
) -> UserMemoryPort:
    from wiring.open import open_memory

    return open_memory(settings, user, engine, clock, warm=True)
