"""The headless replay (``helix-chat --replay FILE``): a stream played against ``UserMemory``.

The clock follows each event's ``at`` (a ``SimulatedClock``); each user gets a ``UserMemory``
under ``settings.home``, opened by the caller's ``open_memory`` (``wiring.open.memory_opener``
in the product). ``say`` events are stored by ``events.say``; ``ask`` events are
answered from that user's memory alone, scored by ``score.ReplayScore`` and written as contract
result lines with ``user``, ``session``, ``at``, ``expect``. The whole file is validated before
anything is stored.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.config import Settings
from engine.result import Result, Status
from memory.clock import Clock, SimulatedClock
from memory.replay.events import Event, Extract, load_events, say
from memory.replay.score import ReplayScore
from memory.service import UserMemory

Progress = Callable[[int, int], None]
OpenMemory = Callable[[Settings, str, Clock], UserMemory]
"""Opens one user's memory on the replay's clock."""


@dataclass
class ReplayReport:
    extract: str
    events: int = 0
    says: int = 0
    asks: int = 0
    stored: int = 0
    score: ReplayScore = field(default_factory=ReplayScore)
    wall_s: float = 0.0
    say_ms: list[float] = field(default_factory=list)
    ask_ms: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        s = self.score
        return {
            "extract": self.extract,
            "events": self.events,
            "asks": self.asks,
            "recall_at_1": round(s.recall, 4),
            "recall_current": round(s.current.recall, 4),
            "n_current": s.current.n,
            "recall_previous": round(s.previous.recall, 4),
            "n_previous": s.previous.n,
            "leaks": s.leaks,
            "null_probes": s.null_probes,
            "null_answered": s.null_answered,
            "stored": self.stored,
            "wall_s": round(self.wall_s, 2),
            "say_ms_mean": round(statistics.fmean(self.say_ms), 3) if self.say_ms else 0.0,
            "ask_ms_median": round(statistics.median(self.ask_ms), 3) if self.ask_ms else 0.0,
            "ask_ms_p95": round(_p95(self.ask_ms), 3),
        }


def run_replay(
    path: Path,
    settings: Settings,
    *,
    open_memory: OpenMemory,
    out_path: Path | None = None,
    extract: Extract = "fact",
    progress: Progress | None = None,
) -> ReplayReport:
    """Replay a memory stream headlessly and score it (Memory Recall@1, leaks, timings).

    ``open_memory(settings, user, clock)`` opens each user's memory on the replay's clock."""
    events = load_events(path)
    clock = SimulatedClock(events[0].instant if events else None)
    report = ReplayReport(extract=extract, events=len(events))
    memories: dict[str, UserMemory] = {}
    started = time.perf_counter()
    with ExitStack() as stack:
        if out_path is not None:
            out_path.parent.mkdir(parents=True, exist_ok=True)
        out = stack.enter_context(out_path.open("w", encoding="utf-8")) if out_path else None

        def memory_of(user: str) -> UserMemory:
            if user not in memories:
                mem = stack.enter_context(open_memory(settings, user, clock))
                stack.enter_context(mem.hold())
                memories[user] = mem
            return memories[user]

        for i, event in enumerate(events):
            clock.set(event.instant)
            mem = memory_of(event.user)
            if event.type == "say":
                _say(mem, event, extract, report)
                report.score.said(event)
            else:
                result = _ask(mem, event, report)
                report.score.check(event, result)
                if out is not None:
                    out.write(json.dumps(_line(event, result, i)) + "\n")
            if progress is not None:
                progress(i + 1, len(events))
    report.wall_s = time.perf_counter() - started
    return report


def _say(mem: UserMemory, event: Event, extract: Extract, report: ReplayReport) -> None:
    t0 = time.perf_counter()
    report.says += 1
    report.stored += say(mem, event, extract) is not None
    report.say_ms.append((time.perf_counter() - t0) * 1000)


NOT_ASKED_OF_MEMORY = (
    "Not a question about what this user told Helix: a headless replay answers from memory "
    "alone (play it with --tui to ask the knowledge graph too)."
)


def _ask(mem: UserMemory, event: Event, report: ReplayReport) -> Result:
    t0 = time.perf_counter()
    report.asks += 1
    result = mem.answer(event.text, [], session=event.session)
    if result is None:
        result = Result(
            question=event.text,
            status=Status.NOT_ANSWERED,
            stop_reason="not-a-memory-question",
            text=NOT_ASKED_OF_MEMORY,
        )
    elapsed = (time.perf_counter() - t0) * 1000
    report.ask_ms.append(elapsed)
    result.latency_ms = round(elapsed, 3)
    return result


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
    if report.score.by_relation:
        lines.append("by relation (non-null probes):")
        for rel, t in sorted(report.score.by_relation.items()):
            lines.append(f"  {rel.ljust(width - 2)}  {t.recall:.3f}  (n={t.n})")
    return "\n".join(lines)
