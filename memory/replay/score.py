"""Scoring a replay: Memory Recall@1 over probes and cross-user leaks, one event at a time.

A **leak** is a null probe (an ``ask`` event with ``expect: null``) whose top-1 answer equals a
value that another user stated earlier in the stream (a member of some ``say`` event's
``fact``) and that the asking user never stated. This is the benchmark contract's "returning
another user's fact" (``../shared/bench/README.md``, replay format); an answer from the user's
own memory, or one nobody stated, is a wrong answer to a null probe but not a leak.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.result import Result, Status
from memory.replay.events import Event


@dataclass
class Tally:
    n: int = 0
    hits: int = 0

    @property
    def recall(self) -> float:
        return self.hits / self.n if self.n else 0.0


@dataclass(frozen=True)
class Verdict:
    """How one probe went: ``text`` is a one-line, human-readable account."""

    hit: bool
    leak: bool
    text: str


@dataclass
class ReplayScore:
    """The running score of one replay; feed it every event in order (``said`` / ``check``)."""

    current: Tally = field(default_factory=Tally)
    previous: Tally = field(default_factory=Tally)
    null_probes: int = 0
    null_answered: int = 0
    leaks: int = 0
    by_relation: dict[str, Tally] = field(default_factory=dict)
    misses: list[dict[str, Any]] = field(default_factory=list)
    owners: dict[str, set[str]] = field(default_factory=dict)
    """Every value stated in a ``fact`` so far, with the users who stated it."""

    @property
    def probes(self) -> int:
        """Probes with a non-null ``expect``."""
        return self.current.n + self.previous.n

    @property
    def hits(self) -> int:
        return self.current.hits + self.previous.hits

    @property
    def recall(self) -> float:
        """Memory Recall@1: share of non-null probes whose top-1 answer equals ``expect``."""
        return self.hits / self.probes if self.probes else 0.0

    def said(self, event: Event) -> None:
        """Record who stated the values of a ``say`` event's fact."""
        for value in event.fact or ():
            self.owners.setdefault(value, set()).add(event.user)

    def is_leak(self, user: str, top: str) -> bool:
        """Whether answering ``top`` to ``user``'s null probe returns another user's fact."""
        stated_by = self.owners.get(top, set())
        return bool(stated_by) and user not in stated_by

    def check(self, event: Event, result: Result) -> Verdict:
        """Score the answer ``result`` to the probe ``event``."""
        top = result.answers[0].id if result.status == Status.ANSWERED and result.answers else None
        if event.expect is None:
            self.null_probes += 1
            if top is None:
                return Verdict(True, False, "✓ expected no answer: none given")
            self.null_answered += 1
            if self.is_leak(event.user, top):
                self.leaks += 1
                text = f"✗ leak: expected no answer, got {top}, stated by another user"
                return Verdict(False, True, text)
            return Verdict(False, False, f"✗ expected no answer, got {top}")
        hit = top == event.expect
        tally = self.previous if event.temporal else self.current
        tally.n += 1
        tally.hits += hit
        rel = _relation(result)
        per = self.by_relation.setdefault(rel, Tally())
        per.n += 1
        per.hits += hit
        if hit:
            return Verdict(True, False, f"✓ top answer is {event.expect}")
        self.misses.append(
            {
                "user": event.user,
                "text": event.text,
                "expect": event.expect,
                "got": top,
                "status": str(result.status),
                "temporal": event.temporal,
                "why": result.text,
            }
        )
        return Verdict(False, False, f"✗ expected {event.expect}, top answer {top or 'none'}")

    def summary(self) -> str:
        """One line for the end of an on-screen replay."""
        recall = f"{self.hits}/{self.probes}" if self.probes else "n/a"
        return f"Replay finished: Memory Recall@1 {recall} · leaks {self.leaks}/{self.null_probes}"


def _relation(result: Result) -> str:
    """The relation a memory answer was about (``memory:takes:current`` → ``takes``)."""
    if result.intent and ":" in result.intent:
        return result.intent.split(":")[1]
    return "unanswered"
