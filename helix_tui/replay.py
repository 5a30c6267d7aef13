"""The on-screen replay player: the events, clock and score of ``memory.replay``, shown in the app.

Loading, the simulated clock, what a ``say`` event stores and how a probe is scored all come
from the core (``memory.replay.events``, ``memory.replay.score``, ``memory.clock``); this module
only decides how the chat screen shows them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from engine.ports import StatementPort
from engine.result import Result
from memory.clock import SimulatedClock
from memory.replay.events import Event, Extract, load_events, say
from memory.replay.score import ReplayScore


@dataclass
class ReplayPlayer:
    """A stream being played: ``delay`` seconds of wall time pass between events."""

    events: list[Event]
    clock: SimulatedClock
    extract: Extract = "fact"
    delay: float = 0.8
    score: ReplayScore = field(default_factory=ReplayScore)

    @classmethod
    def load(cls, path: Path, *, extract: Extract = "fact", delay: float = 0.8) -> ReplayPlayer:
        """Raises ``memory.replay.events.ReplayFormatError`` for a malformed stream."""
        events = load_events(path)
        clock = SimulatedClock(events[0].instant if events else None)
        return cls(events, clock, extract, delay)

    def begin(self, event: Event) -> None:
        """Move the clock to ``event`` (and note who states what, for the leak check)."""
        self.clock.set(event.instant)
        if event.type == "say":
            self.score.said(event)

    def storer(self, event: Event) -> Callable[[StatementPort], object] | None:
        """For a ``say`` event, what stores it in a user's memory (it is never asked)."""
        if event.type != "say":
            return None
        return partial(say, event=event, extract=self.extract)

    def verdict(self, event: Event, result: Result) -> str | None:
        """The probe's verdict line for an ``ask`` event's answer."""
        return self.score.check(event, result).text if event.type == "ask" else None


def title(event: Event) -> str:
    """The heading of the event's turn: who, in which session, when (simulated time)."""
    return f"{event.user} · {event.session} · {event.instant.strftime('%Y-%m-%d %H:%M')}"
