"""Headless replay of a ``*.replay.jsonl`` memory stream (see ``../shared/bench/README.md``).

The clock follows each event's ``at`` (a ``SimulatedClock``); each user gets a ``UserMemory``
under ``settings.home``. ``say`` events are stored from their structured ``fact`` (extract=
"fact") or extracted from ``text`` alone (extract="text"); ``ask`` events are answered from that
user's memory and written as contract result lines with ``user``, ``session``, ``at``,
``expect``. The whole file is validated before anything is stored.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError, model_validator

from engine.config import Settings
from engine.result import Result, Status
from memory.asks import AskScorer
from memory.cache import Embed
from memory.clock import SimulatedClock, parse_instant
from memory.service import UserMemory
from memory.subjects import Linker

Progress = Callable[[int, int], None]


class ReplayFormatError(ValueError):
    """A malformed replay file; ``errors`` holds (line number, message) pairs."""

    def __init__(self, path: Path, errors: list[tuple[int, str]]) -> None:
        self.errors = errors
        shown = "; ".join(f"line {n}: {msg}" for n, msg in errors[:5])
        more = f" (+{len(errors) - 5} more)" if len(errors) > 5 else ""
        super().__init__(f"{path}: {len(errors)} malformed line(s): {shown}{more}")


class Event(BaseModel):
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


@dataclass
class Tally:
    n: int = 0
    hits: int = 0

    @property
    def recall(self) -> float:
        return self.hits / self.n if self.n else 0.0


@dataclass
class ReplayReport:
    extract: str
    events: int = 0
    says: int = 0
    asks: int = 0
    stored: int = 0
    current: Tally = field(default_factory=Tally)
    previous: Tally = field(default_factory=Tally)
    null_probes: int = 0
    null_answered: int = 0
    leaks: int = 0
    by_relation: dict[str, Tally] = field(default_factory=dict)
    wall_s: float = 0.0
    say_ms: list[float] = field(default_factory=list)
    ask_ms: list[float] = field(default_factory=list)
    misses: list[dict[str, Any]] = field(default_factory=list)

    @property
    def recall(self) -> float:
        n = self.current.n + self.previous.n
        return (self.current.hits + self.previous.hits) / n if n else 0.0

    def summary(self) -> dict[str, Any]:
        return {
            "extract": self.extract,
            "events": self.events,
            "asks": self.asks,
            "recall_at_1": round(self.recall, 4),
            "recall_current": round(self.current.recall, 4),
            "n_current": self.current.n,
            "recall_previous": round(self.previous.recall, 4),
            "n_previous": self.previous.n,
            "leaks": self.leaks,
            "null_probes": self.null_probes,
            "null_answered": self.null_answered,
            "stored": self.stored,
            "wall_s": round(self.wall_s, 2),
            "say_ms_mean": round(statistics.fmean(self.say_ms), 3) if self.say_ms else 0.0,
            "ask_ms_median": round(statistics.median(self.ask_ms), 3) if self.ask_ms else 0.0,
            "ask_ms_p95": round(_p95(self.ask_ms), 3),
        }


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


def run_replay(
    path: Path,
    settings: Settings,
    *,
    linker: Linker | None,
    out_path: Path | None = None,
    extract: Literal["fact", "text"] = "fact",
    progress: Progress | None = None,
    embed: Embed | None = None,
) -> ReplayReport:
    """Replay a memory stream headlessly and score it (Memory Recall@1, leaks, timings).

    ``embed`` lets memory read questions by meaning (one exemplar bank shared by all users)."""
    events = load_events(path)
    asks = AskScorer(embed) if embed is not None else None
    clock = SimulatedClock(events[0].instant if events else None)
    report = ReplayReport(extract=extract, events=len(events))
    owners: dict[str, set[str]] = {}
    memories: dict[str, UserMemory] = {}
    started = time.perf_counter()
    with ExitStack() as stack:
        if out_path is not None:
            out_path.parent.mkdir(parents=True, exist_ok=True)
        out = stack.enter_context(out_path.open("w", encoding="utf-8")) if out_path else None

        def memory_of(user: str) -> UserMemory:
            if user not in memories:
                mem = stack.enter_context(
                    UserMemory(settings, user, clock=clock, linker=linker, asks=asks)
                )
                stack.enter_context(mem.hold())
                memories[user] = mem
            return memories[user]

        for i, event in enumerate(events):
            clock.set(event.instant)
            mem = memory_of(event.user)
            if event.type == "say":
                _say(mem, event, extract, report)
                for value in event.fact or ():
                    owners.setdefault(value, set()).add(event.user)
            else:
                result = _ask(mem, event, report)
                _score(event, result, owners, report)
                if out is not None:
                    out.write(json.dumps(_line(event, result, i)) + "\n")
            if progress is not None:
                progress(i + 1, len(events))
    report.wall_s = time.perf_counter() - started
    return report


def _say(mem: UserMemory, event: Event, extract: str, report: ReplayReport) -> None:
    t0 = time.perf_counter()
    report.says += 1
    if extract == "fact" and event.fact is not None:
        fact = mem.store_fact(
            *event.fact, supersedes=event.supersedes, evidence=event.text, session=event.session
        )
    else:
        fact = mem.state(event.text, session=event.session)
    report.stored += fact is not None
    report.say_ms.append((time.perf_counter() - t0) * 1000)


def _ask(mem: UserMemory, event: Event, report: ReplayReport) -> Result:
    t0 = time.perf_counter()
    report.asks += 1
    result = mem.answer(event.text, [], session=event.session)
    if result is None:
        result = Result(
            question=event.text, status=Status.NOT_ANSWERED, stop_reason="not-a-memory-question"
        )
    elapsed = (time.perf_counter() - t0) * 1000
    report.ask_ms.append(elapsed)
    result.latency_ms = round(elapsed, 3)
    return result


def _score(event: Event, result: Result, owners: dict[str, set[str]], report: ReplayReport) -> None:
    top = result.answers[0].id if result.status == Status.ANSWERED and result.answers else None
    if event.expect is None:
        report.null_probes += 1
        if top is not None:
            report.null_answered += 1
            stated_by = owners.get(top, set())
            if event.user not in stated_by and stated_by:
                report.leaks += 1  # not this user's value, but someone else's
        return
    hit = top == event.expect
    tally = report.previous if event.temporal else report.current
    tally.n += 1
    tally.hits += hit
    rel = (
        (result.intent or "none").split(":")[1]
        if result.intent and ":" in result.intent
        else "unanswered"
    )
    per = report.by_relation.setdefault(rel, Tally())
    per.n += 1
    per.hits += hit
    if not hit:
        report.misses.append(
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


def _line(event: Event, result: Result, index: int) -> dict[str, Any]:
    data = result.model_copy(update={"id": result.id or f"replay-{index + 1}"}).to_contract()
    data.update(user=event.user, session=event.session, at=event.at, expect=event.expect)
    if event.temporal:
        data["temporal"] = event.temporal
    return data


def _p95(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def format_report(report: ReplayReport) -> str:
    """A plain-text table of the replay scores."""
    s = report.summary()
    rows = [
        ("extraction path", s["extract"]),
        ("events / asks", f"{s['events']} / {s['asks']}"),
        ("facts stored", str(s["stored"])),
        ("Memory Recall@1", f"{s['recall_at_1']:.3f}"),
        ("  current probes", f"{s['recall_current']:.3f}  (n={s['n_current']})"),
        ("  previous-value probes", f"{s['recall_previous']:.3f}  (n={s['n_previous']})"),
        ("null probes answered", f"{s['null_answered']} / {s['null_probes']}"),
        ("cross-user leaks", str(s["leaks"])),
        ("wall time", f"{s['wall_s']:.1f} s"),
        ("say mean", f"{s['say_ms_mean']:.2f} ms"),
        ("ask median / p95", f"{s['ask_ms_median']:.2f} / {s['ask_ms_p95']:.2f} ms"),
    ]
    width = max(len(k) for k, _ in rows)
    lines = [f"{k.ljust(width)}  {v}" for k, v in rows]
    if report.by_relation:
        lines.append("by relation (non-null probes):")
        for rel, t in sorted(report.by_relation.items()):
            lines.append(f"  {rel.ljust(width - 2)}  {t.recall:.3f}  (n={t.n})")
    return "\n".join(lines)
