"""Replay events: the line model, loading with validation, and what a ``say`` event stores."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ValidationError, model_validator

from engine.ports import StatementPort
from memory.clock import parse_instant

Extract = Literal["fact", "text"]
"""How ``say`` events are stored: their structured ``fact``, or extracted from ``text`` alone."""


class ReplayFormatError(ValueError):
    """A malformed replay file; ``errors`` holds (line number, message) pairs."""

    def __init__(self, path: Path, errors: list[tuple[int, str]]) -> None:
        self.errors = errors
        shown = "; ".join(f"line {n}: {msg}" for n, msg in errors[:5])
        more = f" (+{len(errors) - 5} more)" if len(errors) > 5 else ""
        super().__init__(f"{path}: {len(errors)} malformed line(s): {shown}{more}")


class Event(BaseModel):
    """One line of a replay stream. Every ``ask`` event is a probe; ``expect: null`` (or no
    ``expect``) means the user has no such memory."""

    at: str
    user: str
    session: str
    type: Literal["say", "ask"]
    text: str
    fact: tuple[str, str, str] | None = None
    supersedes: tuple[str, str, str] | None = None
    expect: str | None = None
    temporal: str | None = None

    @model_validator(mode="after")
    def _check(self) -> Event:
        parse_instant(self.at)
        if not self.user or not self.text.strip():
            raise ValueError("empty user or text")
        return self

    @property
    def instant(self) -> datetime:
        return parse_instant(self.at)


def load_events(path: Path) -> list[Event]:
    """Parse and validate every line; raises ``ReplayFormatError`` naming bad lines."""
    events: list[Event] = []
    errors: list[tuple[int, str]] = []
    last: datetime | None = None
    for n, raw in enumerate(path.read_bytes().split(b"\n"), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            errors.append((n, f"not valid UTF-8 (byte {exc.start + 1}); save the file as UTF-8"))
            continue
        if not line.strip():
            continue
        try:
            event = Event.model_validate_json(line)
        except ValidationError as exc:
            errors.append((n, exc.errors()[0]["msg"] if exc.errors() else str(exc)))
            continue
        if last is not None and event.instant < last:
            errors.append((n, f"time goes backwards ({event.at})"))
        last = event.instant
        events.append(event)
    if errors:
        raise ReplayFormatError(path, errors)
    return events


def say(memory: StatementPort, event: Event, extract: Extract) -> object | None:
    """Store what a ``say`` event states: its given ``fact`` (``extract="fact"``, when the line
    has one), else the fact extracted from its text. Returns the stored fact, or None."""
    if extract == "fact" and event.fact is not None:
        return memory.store_fact(
            *event.fact, supersedes=event.supersedes, evidence=event.text, session=event.session
        )
    return memory.state(event.text, session=event.session)
