"""The eval report's charts as PNG files (matplotlib's Agg backend, no display needed).

Deterministic: fixed sizes and DPI, no dates or software tags in the files, sorted inputs, so
the same numbers always give the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.eval.metrics import METRIC_LABELS, Metric
from engine.eval.render import _ordered_stages
from engine.eval.report import EvalReport
from engine.eval.report_data import (
    DayRecall,
    RelationRecall,
    Reliability,
    reliability_bins,
    stage_values,
)

DPI = 100
COLORS = {"hybrid": "#4c72b0", "graph": "#55a868", "dense": "#c44e52"}
PNG_METADATA: dict[str, Any] = {"Software": None}


def _figure(width: float, height: float) -> Any:
    import matplotlib

    matplotlib.use("Agg", force=True)
    matplotlib.rcParams.update({"font.size": 9, "axes.spines.top": False, "svg.hashsalt": "helix"})
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


def _save(fig: Any, path: Path) -> Path:
    fig.savefig(path, format="png", dpi=DPI, metadata=PNG_METADATA)
    return path


def _color(mode: str, i: int) -> str:
    return COLORS.get(mode, f"C{i}")


def relation_recall_png(rows: Sequence[RelationRecall], modes: Sequence[str], path: Path) -> Path:
    """Horizontal bars: Evidence Recall@5 of one-hop questions per gold relation, per mode."""
    height = max(2.5, 0.32 * len(rows) * max(1, len(modes)) + 1.2)
    fig = _figure(8.0, min(height, 24.0))
    ax = fig.add_subplot()
    bar = 0.8 / max(1, len(modes))
    labels = [f"{r.relation} (n={max(n for _, n in r.by_mode.values())})" for r in rows]
    for i, mode in enumerate(modes):
        ys = [k + i * bar for k in range(len(rows))]
        xs = [r.by_mode.get(mode, (0.0, 0))[0] for r in rows]
        ax.barh(ys, xs, height=bar, label=mode, color=_color(mode, i))
    ax.set_yticks([k + bar * (len(modes) - 1) / 2 for k in range(len(rows))], labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("Evidence Recall@5")
    ax.set_title("One-hop questions: Evidence Recall@5 by gold relation")
    if len(modes) > 1:
        ax.legend(loc="lower right")
    if not rows:
        ax.text(0.5, 0.5, "no one-hop questions", ha="center", transform=ax.transAxes)
    return _save(fig, path)


def modes_png(reports: Mapping[str, EvalReport], path: Path) -> Path:
    """Grouped bars: every overall metric, one bar per mode (hybrid vs graph vs dense)."""
    metrics = [str(m) for m in Metric if any(str(m) in r.overall.means for r in reports.values())]
    fig = _figure(9.0, 3.8)
    ax = fig.add_subplot()
    bar = 0.8 / max(1, len(reports))
    for i, (mode, report) in enumerate(reports.items()):
        xs = [k + i * bar for k in range(len(metrics))]
        ys = [report.overall.means.get(m, 0.0) for m in metrics]
        bars = ax.bar(xs, ys, width=bar, label=mode, color=_color(mode, i))
        ax.bar_label(bars, fmt="%.2f", fontsize=7, padding=1)
    ax.set_xticks(
        [k + bar * (len(reports) - 1) / 2 for k in range(len(metrics))],
        [METRIC_LABELS.get(Metric(m), m) for m in metrics],
    )
    ax.set_ylim(0, 1.1)
    ax.set_title("Retrieval modes side by side (overall means)")
    ax.legend(loc="upper right", ncols=len(reports))
    return _save(fig, path)


def latency_png(report: EvalReport, mode: str, path: Path) -> Path:
    """One histogram of latency (ms) per pipeline stage, plus the total."""
    values_of = stage_values(report)
    stages = {s: values_of[s] for s in _ordered_stages(values_of)}
    totals = [q.latency_ms for q in report.questions if q.latency_ms is not None]
    panels = [*stages.items(), ("total", totals)]
    cols = 4
    rows = (len(panels) + cols - 1) // cols
    fig = _figure(10.0, 2.2 * rows + 0.5)
    fig.suptitle(f"Latency per stage ({mode}, ms; median dashed)")
    for k, (stage, values) in enumerate(panels):
        ax = fig.add_subplot(rows, cols, k + 1)
        if values:
            ax.hist(values, bins=20, color=_color(mode, 0) if stage != "total" else "#8172b2")
            med = sorted(values)[len(values) // 2]
            ax.axvline(med, color="black", linestyle="--", linewidth=1)
        ax.set_title(f"{stage} (n={len(values)})", fontsize=9)
        ax.tick_params(labelsize=7)
    return _save(fig, path)


def reliability_png(rel: Reliability, path: Path) -> Path:
    """Reliability diagram of the edge predictor's top relation, before and after scaling by
    the temperature (accuracy against mean confidence per bin; the diagonal is perfect)."""
    fig = _figure(8.0, 4.0)
    axes = [fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)]
    panels = [
        (f"before (ECE {rel.ece_before:.3f})", rel.probs),
        (f"after, T = {rel.temperature:.2f} (ECE {rel.ece_after:.3f})", rel.calibrated),
    ]
    for ax, (title, probs) in zip(axes, panels, strict=True):
        bins = reliability_bins(probs, rel.labels)
        ax.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1)
        ax.bar(
            [b.lo for b in bins],
            [b.accuracy for b in bins],
            width=[b.hi - b.lo for b in bins],
            align="edge",
            color="#4c72b0",
            edgecolor="white",
            alpha=0.8,
            label="accuracy",
        )
        ax.plot([b.confidence for b in bins], [b.accuracy for b in bins], "o-", color="#dd8452")
        for b in bins:
            ax.text(b.lo + 0.05, 0.02, str(b.n), ha="center", fontsize=6, color="white")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_xlabel("confidence of the top relation")
        ax.set_title(title)
    axes[0].set_ylabel("share whose top relation is gold")
    fig.suptitle(f"Edge predictor reliability ({len(rel.probs)} questions)")
    return _save(fig, path)


def memory_days_png(days: Sequence[DayRecall], path: Path) -> Path:
    """Memory Recall@1 of the replay's probes, by day."""
    fig = _figure(8.0, 3.2)
    ax = fig.add_subplot()
    bars = ax.bar([d.day[5:] for d in days], [d.recall for d in days], color="#55a868")
    ax.bar_label(bars, labels=[f"{d.recall:.2f}\nn={d.probes}" for d in days], fontsize=7)
    ax.set_ylim(0, 1.25)
    ax.set_ylabel("Memory Recall@1")
    ax.set_title("Memory replay: Recall@1 by day")
    return _save(fig, path)
