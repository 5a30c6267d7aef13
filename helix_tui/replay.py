"""Replay streams (``*.replay.jsonl``): events on a simulated clock, played in the app."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from engine.result import Result, Status

Triple = tuple[str, str, str]


@dataclass(frozen=True)
class ReplayEvent:
    at: datetime
    user: str
    session: str
    type: Literal["say", "ask"]
    text: str
    fact: Triple | None = None
    supersedes: Triple | None = None
    expect: str | None = None
    has_expect: bool = False

    @property
    def stamp(self) -> str:
        return self.at.strftime("%Y-%m-%d %H:%M")


def parse_instant(text: str) -> datetime:
    instant = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if instant.tzinfo is None:
        raise ValueError(f"replay time without a zone: {text!r}")
    return instant.astimezone(UTC)


def load_replay(path: Path) -> list[ReplayEvent]:
    events = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            kind = raw["type"]
            if kind not in ("say", "ask"):
                raise ValueError(f"unknown event type {kind!r}")
            events.append(
                ReplayEvent(
                    at=parse_instant(raw["at"]),
                    user=str(raw["user"]),
                    session=str(raw["session"]),
                    type=kind,
                    text=str(raw["text"]),
                    fact=_triple(raw.get("fact")),
                    supersedes=_triple(raw.get("supersedes")),
                    expect=raw.get("expect"),
                    has_expect="expect" in raw,
                )
            )
        except (KeyError, ValueError, TypeError) as exc:
            raise ValueError(f"{path}:{n}: {exc}") from exc
    return events


def _triple(value: object) -> Triple | None:
    if isinstance(value, list | tuple) and len(value) == 3:
        return (str(value[0]), str(value[1]), str(value[2]))
    return None


class ReplayClock:
    """The clock memory and sessions read during a replay: set to each event's ``at``."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def set(self, instant: datetime) -> None:
        self._now = instant


@dataclass
class ReplayScore:
    probes: int = 0
    hits: int = 0
    null_probes: int = 0
    leaks: int = 0

    def check(self, event: ReplayEvent, result: Result) -> str:
        """Score one probe and say how it went."""
        answered = result.status is Status.ANSWERED and bool(result.answers)
        top = result.answers[0].id if answered else None
        if event.expect is None:
            self.null_probes += 1
            if top is None:
                return "✓ expected no answer: none given"
            if result.answers[0].source == "memory":
                self.leaks += 1
                return f"✗ leak: expected no answer, got {top} from memory"
            return f"✗ expected no answer, got {top}"
        self.probes += 1
        if top == event.expect:
            self.hits += 1
            return f"✓ top answer is {event.expect}"
        return f"✗ expected {event.expect}, top answer {top or 'none'}"

    def summary(self) -> str:
        recall = f"{self.hits}/{self.probes}" if self.probes else "n/a"
        return f"Replay finished: Memory Recall@1 {recall} · leaks {self.leaks}/{self.null_probes}"
