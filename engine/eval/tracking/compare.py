"""Two tracked runs side by side: each metric's value in both and the difference (pure
functions from ``TrackedRun`` to rich renderables)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rich.table import Table
from rich.text import Text

from engine.eval.metrics import KIND_METRICS
from engine.eval.report import METRIC_ORDER
from engine.eval.tracking.record import TrackedRun, metric_key
from engine.events import STEPS

LOWER_IS_BETTER = ("_ms", "negative_supported", "missing", "errors", "leaks", "null_answered")
"""Key endings of the metrics where less is better (latencies, mistakes, leaks)."""
NEUTRAL = ("questions", "probes", "events", "asks", "stored", "n_current", "n_previous", "wall_s")
"""Counts: a difference is shown but is neither better nor worse."""

_ORDER = [
    "hybrid", "graph", "dense", "overall", "kind", "bench", "stage", "memory",
    *KIND_METRICS, *(metric_key(m) for m in METRIC_ORDER), "questions", "negative_supported",
    "missing", "errors", "latency_p50_ms", "latency_p95_ms", *STEPS, "p50_ms", "p95_ms",
]  # fmt: skip
_RANK = {name: i for i, name in enumerate(_ORDER)}


@dataclass(frozen=True)
class MetricDiff:
    key: str
    a: float | None
    b: float | None

    @property
    def delta(self) -> float | None:
        """``b - a`` when both runs have the metric."""
        return None if self.a is None or self.b is None else self.b - self.a


def _sort_key(key: str) -> tuple[tuple[int, str], ...]:
    return tuple((_RANK.get(part, len(_RANK)), part) for part in key.split("/"))


def diff_metrics(a: Mapping[str, float], b: Mapping[str, float]) -> list[MetricDiff]:
    """Every metric of either run, in table order (overall, kinds, benches, stages, memory)."""
    keys = sorted(set(a) | set(b), key=_sort_key)
    return [MetricDiff(k, a.get(k), b.get(k)) for k in keys]


def param_changes(a: Mapping[str, str], b: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """``(name, a's value, b's value)`` of the parameters the runs do not share."""
    names = sorted(set(a) | set(b))
    return [(n, a.get(n, "-"), b.get(n, "-")) for n in names if a.get(n) != b.get(n)]


def direction(key: str) -> int:
    """+1 when a larger value is better, -1 when smaller is, 0 for a count."""
    if key.endswith(NEUTRAL):
        return 0
    return -1 if key.endswith(LOWER_IS_BETTER) else 1


def _fmt(key: str, value: float | None, *, sign: bool = False) -> str:
    if value is None:
        return "-"
    plus = "+" if sign else ""
    if key.endswith("_ms"):
        return f"{value:{plus}.1f}"
    if value.is_integer() and (direction(key) <= 0 or abs(value) > 1):
        return f"{value:{plus}.0f}"
    return f"{value:{plus}.3f}"


def _delta_cell(diff: MetricDiff) -> Text:
    delta = diff.delta
    if delta is None or abs(delta) < 1e-12:
        return Text("")
    way = direction(diff.key) * (1 if delta > 0 else -1)
    style = "green" if way > 0 else "red" if way < 0 else ""
    return Text(_fmt(diff.key, delta, sign=True), style=style)


def compare_table(a: TrackedRun, b: TrackedRun, *, only_changed: bool = False) -> Table:
    """Metric | run A | run B | B - A, better differences green and worse red."""
    table = Table(title=f"A = {a.label}\nB = {b.label}", title_justify="left")
    table.add_column("Metric", style="cyan", no_wrap=True)
    table.add_column("A", justify="right")
    table.add_column("B", justify="right")
    table.add_column("B - A", justify="right")
    for diff in diff_metrics(a.metrics, b.metrics):
        if only_changed and diff.a == diff.b:
            continue
        table.add_row(diff.key, _fmt(diff.key, diff.a), _fmt(diff.key, diff.b), _delta_cell(diff))
    return table


def params_table(a: TrackedRun, b: TrackedRun) -> Table | None:
    """The parameters that differ between the runs (None when they are the same)."""
    changes = param_changes(a.params, b.params)
    if not changes:
        return None
    table = Table(title="Parameters that differ", title_justify="left")
    table.add_column("Parameter", style="cyan", no_wrap=True)
    table.add_column("A")
    table.add_column("B")
    for name, va, vb in changes:
        table.add_row(name, va, vb)
    return table
