"""The current session of the current user, on the UI thread; one store per user.

A session store that cannot be used (damaged, on a full disk, a database that does not
answer) does not stop the chat: the conversation goes on in an unsaved session, and
``problem`` says why it is not saved (shown once by the chat)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from engine.config import Settings
from engine.result import Result
from engine.util.faults import StoreFault
from helix_tui.services import Services, SessionInfoLike, SessionStorePort, TurnLike


@dataclass(frozen=True)
class Unsaved:
    """A session kept only on screen, its store being unusable (``SessionInfoLike``)."""

    user: str
    title: str
    created_at: datetime
    id: str = field(default_factory=lambda: f"unsaved-{uuid.uuid4().hex[:12]}")
    n_turns: int = 0

    @property
    def updated_at(self) -> datetime:
        return self.created_at


def title_from(question: str, width: int = 60) -> str:
    text = " ".join(question.split())
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


class SessionKeeper:
    def __init__(self, settings: Settings, services: Services, user: str) -> None:
        self._settings = settings
        self._services = services
        self._stores: dict[str, SessionStorePort] = {}
        self.user = user
        self.current: SessionInfoLike | None = None
        self.problem: str | None = None
        """Why the session store could not be used (the current session is then unsaved)."""

    @property
    def store(self) -> SessionStorePort:
        if self.user not in self._stores:
            self._stores[self.user] = self._services.open_sessions(
                self._settings, self.user, self._services.clock
            )
        return self._stores[self.user]

    @property
    def session_id(self) -> str | None:
        return self.current.id if self.current else None

    @property
    def title(self) -> str:
        if self.current is None:
            return "new session"
        return self.current.title or self.current.id

    def switch_user(self, user: str) -> None:
        if user != self.user:
            self.user = user
            self.current = None

    def new(self) -> None:
        self.current = None

    def find(self, session_id: str) -> SessionInfoLike | None:
        try:
            return self.store.get(session_id)
        except KeyError:
            return None

    def use(self, session_id: str, *, create: bool = True) -> SessionInfoLike | None:
        """Make ``session_id`` current; create it (with that id) when missing and asked to."""
        info = self.find(session_id)
        if info is None and create:
            info = self.store.create(session_id=session_id)
        if info is not None:
            self.current = info
        return info

    def resume_latest(self) -> SessionInfoLike | None:
        info = self.store.latest()
        if info is not None:
            self.current = info
        return info

    def ensure(self, first_question: str) -> SessionInfoLike:
        """The current session, made for ``first_question`` when there is none: an unsaved
        one (``problem`` says why) when the store cannot be used."""
        if self.current is None:
            title = title_from(first_question)
            try:
                self.current = self.store.create(title=title)
            except StoreFault as exc:
                self.problem = str(exc)
                clock = self._services.clock
                now = clock.now() if clock is not None else datetime.now(UTC)
                self.current = Unsaved(self.user, title, now)
        return self.current

    def save(self, question: str, result: Result) -> None:
        if self.current is None:
            self.ensure(question)
        assert self.current is not None
        if isinstance(self.current, Unsaved):
            return  # its store could not be used: said once, when it was made
        self.store.add_turn(self.current.id, question, result)
        self.reload()

    def reload(self) -> None:
        if self.current is not None and not isinstance(self.current, Unsaved):
            self.current = self.find(self.current.id) or self.current

    def turns(self) -> Sequence[TurnLike]:
        if self.current is None or isinstance(self.current, Unsaved):
            return []
        return self.store.turns(self.current.id)

    def forget_deleted(self, deleted: Sequence[str]) -> bool:
        """Drop the current session if it was deleted; True when it was."""
        if self.current is not None and self.current.id in deleted:
            self.current = None
            return True
        return False

    def close(self) -> None:
        for store in self._stores.values():
            store.close()
        self._stores.clear()
