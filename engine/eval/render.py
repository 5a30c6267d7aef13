"""Rich tables of eval reports: modes side by side, per-stage latency, and ablations.

Everything here is a pure function from reports to renderables; printing is the caller's job.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from rich.console import Group
from rich.table import Table
from rich.text import Text

from engine.eval.metrics import KIND_METRICS, METRIC_LABELS, Metric
from engine.eval.report import METRIC_ORDER, Aggregate, EvalReport
from engine.events import STEPS

Getter = Callable[[Aggregate], float | None]

HEADLINE: dict[str, tuple[Metric, ...]] = {
    "one_hop": (Metric.EVIDENCE_RECALL, Metric.HIT1, Metric.MRR),
    "multi_hop": (Metric.PATH_F1, Metric.HIT5),
    "mechanism": (Metric.PATH_F1,),
    "passage": (Metric.PASSAGE_RECALL, Metric.MRR),
    "ambiguous": (Metric.STATUS_ACC,),
    "not_found": (Metric.STATUS_ACC,),
    "negative": (Metric.STATUS_ACC,),
}
"""The README's headline metrics per question kind (the ablation table's columns)."""

SHORT: dict[str, str] = {
    Metric.EVIDENCE_RECALL: "Ev R@5",
    Metric.PASSAGE_RECALL: "Psg R@5",
    Metric.MRR: "MRR",
    Metric.HIT1: "Hit@1",
    Metric.HIT5: "Hit@5",
    Metric.PATH_F1: "Path-F1@5",
    Metric.STATUS_ACC: "Status acc",
}

NEG_SUPPORTED = "negative_supported"
LATENCY_P50 = "latency_p50"
LATENCY_P95 = "latency_p95"
LOWER_IS_BETTER = frozenset({NEG_SUPPORTED, LATENCY_P50, LATENCY_P95, "missing", "errors"})


def _fmt(key: str, value: float | None) -> str:
    if value is None:
        return "-"
    if key in {LATENCY_P50, LATENCY_P95}:
        return f"{value:.1f} ms"
    if key in {NEG_SUPPORTED, "missing", "errors"}:
        return str(int(value))
    return f"{value:.3f}"


def _best(key: str, values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    if len(present) < 2 or len(set(present)) < 2:
        return None
    return min(present) if key in LOWER_IS_BETTER else max(present)


def _cells(key: str, values: list[float | None]) -> list[Text]:
    best = _best(key, values)
    return [
        Text(_fmt(key, v), style="bold" if best is not None and v == best else "") for v in values
    ]


def _ordered_kinds(names: Iterable[str]) -> list[str]:
    known = list(KIND_METRICS)
    unique = dict.fromkeys(names)
    return sorted(unique, key=lambda k: (known.index(k) if k in known else len(known), k))


def _metric_getter(name: str) -> Getter:
    return lambda agg: agg.means.get(name)


def _group_rows(groups: list[Aggregate | None]) -> list[tuple[str, str, Getter]]:
    present = [g for g in groups if g is not None]
    names = {m for g in present for m in g.means}
    rows: list[tuple[str, str, Getter]] = [
        (m, METRIC_LABELS.get(Metric(m), m) if m in METRIC_ORDER else m, _metric_getter(m))
        for m in METRIC_ORDER
        if m in names
    ]
    if any(g.negative_supported is not None for g in present):
        label = "Negative claims w/ supporting evidence"
        rows.append((NEG_SUPPORTED, label, lambda a: a.negative_supported))
    return rows


def metrics_table(
    reports: Mapping[str, EvalReport],
    *,
    by: Literal["kind", "bench"] = "kind",
    title: str = "Helix eval",
) -> Table:
    """One row per (group, metric), one column per report label (e.g. hybrid | graph | dense).

    The best value of a row is bold when the columns differ."""
    labels = list(reports)
    table = Table(title=title, title_justify="left")
    table.add_column("Group", style="cyan", no_wrap=True)
    table.add_column("Metric")
    for label in labels:
        table.add_column(label, justify="right")
    group_maps = [r.by_kind if by == "kind" else r.by_bench for r in reports.values()]
    names = [n for m in group_maps for n in m]
    ordered = _ordered_kinds(names) if by == "kind" else list(dict.fromkeys(names))
    for name in ordered:
        aggs = [m.get(name) for m in group_maps]
        n = next((a.n for a in aggs if a is not None), 0)
        for i, (key, label, get) in enumerate(_group_rows(aggs)):
            values = [get(a) if a is not None else None for a in aggs]
            table.add_row(f"{name} ({n})" if i == 0 else "", label, *_cells(key, values))
        table.add_section()
    overall = [r.overall for r in reports.values()]
    footer: list[tuple[str, str, Getter]] = [
        (LATENCY_P50, "Latency p50", lambda a: a.latency_p50),
        (LATENCY_P95, "Latency p95", lambda a: a.latency_p95),
    ]
    if any(a.missing for a in overall):
        footer.append(("missing", "Missing results", lambda a: a.missing))
    if any(a.errors for a in overall):
        footer.append(("errors", "Errors", lambda a: a.errors))
    n_all = overall[0].n if overall else 0
    for i, (key, label, get) in enumerate(footer):
        cells = _cells(key, [get(a) for a in overall])
        table.add_row(f"all ({n_all})" if i == 0 else "", label, *cells)
    return table


def _ordered_stages(names: Iterable[str]) -> list[str]:
    unique = dict.fromkeys(names)
    return sorted(unique, key=lambda s: (STEPS.index(s) if s in STEPS else len(STEPS), s))


def stage_table(reports: Mapping[str, EvalReport], *, title: str = "Latency by stage") -> Table:
    """Per-stage p50/p95 (ms) from the results' ``timings``, one column pair per label."""
    table = Table(title=title, title_justify="left")
    table.add_column("Stage", style="cyan", no_wrap=True)
    for label in reports:
        table.add_column(f"{label} p50", justify="right")
        table.add_column(f"{label} p95", justify="right")
    stages = _ordered_stages(s for r in reports.values() for s in r.overall.stages)
    for stage in stages:
        cells: list[str] = []
        for report in reports.values():
            lat = report.overall.stages.get(stage)
            cells += ["-", "-"] if lat is None else [f"{lat.p50:.1f}", f"{lat.p95:.1f}"]
        table.add_row(stage, *cells)
    return table


def render_report(
    reports: Mapping[str, EvalReport], *, by: Literal["kind", "bench"] = "kind"
) -> Group:
    """The metrics table (labels side by side) and, when results carry timings, the stage table."""
    parts: list[Table] = [metrics_table(reports, by=by)]
    if any(r.overall.stages for r in reports.values()):
        parts.append(stage_table(reports))
    return Group(*parts)


# --- ablation -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class AblationRow:
    label: str
    values: dict[str, float | None]
    deltas: dict[str, float | None]
    """value - baseline value per column (empty without a baseline)."""


def ablation_columns(reports: Mapping[str, EvalReport]) -> list[tuple[str, str]]:
    """(key, header) of the ablation columns: each kind's headline metrics, then safety/latency."""
    kinds = _ordered_kinds(k for r in reports.values() for k in r.by_kind)
    cols = [
        (f"{kind}:{m}", f"{kind}\n{SHORT[m]}")
        for kind in kinds
        for m in HEADLINE.get(kind, ())
        if any(m in r.by_kind.get(kind, Aggregate(n=0)).means for r in reports.values())
    ]
    if any(r.overall.negative_supported is not None for r in reports.values()):
        cols.append((NEG_SUPPORTED, "neg. claims\nsupported"))
    cols += [(LATENCY_P50, "latency\np50"), (LATENCY_P95, "latency\np95")]
    return cols


def _column_value(report: EvalReport, key: str) -> float | None:
    if key == NEG_SUPPORTED:
        return report.overall.negative_supported
    if key == LATENCY_P50:
        return report.overall.latency_p50
    if key == LATENCY_P95:
        return report.overall.latency_p95
    kind, metric = key.split(":", 1)
    agg = report.by_kind.get(kind)
    return None if agg is None else agg.means.get(metric)


def ablation_rows(
    reports: Mapping[str, EvalReport], *, baseline: str | None = None
) -> list[AblationRow]:
    """One row per label with its headline values and, given a baseline label, deltas to it."""
    if baseline is not None and baseline not in reports:
        raise KeyError(f"baseline {baseline!r} is not among {list(reports)}")
    keys = [k for k, _ in ablation_columns(reports)]
    base = {k: _column_value(reports[baseline], k) for k in keys} if baseline is not None else {}
    rows: list[AblationRow] = []
    for label, report in reports.items():
        values = {k: _column_value(report, k) for k in keys}
        deltas: dict[str, float | None] = {}
        if baseline is not None:
            for k in keys:
                v, b = values[k], base[k]
                deltas[k] = None if v is None or b is None else v - b
        rows.append(AblationRow(label, values, deltas))
    return rows


def _delta_text(key: str, delta: float | None) -> Text:
    if delta is None or abs(delta) < 1e-12:
        return Text("")
    better = (delta < 0) if key in LOWER_IS_BETTER else (delta > 0)
    if key == NEG_SUPPORTED:
        body = f"{delta:+.0f}"
    elif key in {LATENCY_P50, LATENCY_P95}:
        body = f"{delta:+.1f}"
    else:
        body = f"{delta:+.3f}"
    return Text(f" ({body})", style="green" if better else "red")


def ablation_table(
    reports: Mapping[str, EvalReport],
    *,
    baseline: str | None = None,
    title: str = "Ablation",
) -> Table:
    """Configurations as rows, headline metrics as columns; deltas to ``baseline`` when given."""
    columns = ablation_columns(reports)
    table = Table(title=title, title_justify="left")
    table.add_column("Configuration", style="cyan", no_wrap=True)
    for _, header in columns:
        table.add_column(header, justify="right")
    rows = ablation_rows(reports, baseline=baseline)
    for row in rows:
        cells: list[Text] = []
        for key, _ in columns:
            cell = Text(_fmt(key, row.values[key]))
            if row.label != baseline:
                cell.append_text(_delta_text(key, row.deltas.get(key)))
            cells.append(cell)
        table.add_row(row.label, *cells)
    return table
