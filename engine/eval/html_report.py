"""``report.html`` and its PNGs: the eval as a page that opens from disk (no server, no
scripts; the images sit beside the page and are referenced by file name)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from pathlib import Path

from engine.eval import figures
from engine.eval.metrics import METRIC_LABELS, Metric
from engine.eval.report import EvalReport
from engine.eval.report_data import ReportData, relation_recall

REPORT_FILE = "report.html"

CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 64rem;
       padding: 0 1rem; color: #1d2330; }
h1 { margin-bottom: .2rem; } .meta { color: #667; }
figure { margin: 1rem 0 2rem; } figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { color: #556; font-size: .9rem; }
table { border-collapse: collapse; margin: .5rem 0 1.5rem; font-size: .9rem; }
th, td { border-bottom: 1px solid #e4e4ea; padding: .2rem .6rem; text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
"""


def _table(head: Sequence[str], rows: Iterable[Sequence[object]], numeric_from: int = 1) -> str:
    def cell(tag: str, i: int, value: object) -> str:
        cls = ' class="num"' if i >= numeric_from else ""
        text = f"{value:.3f}" if isinstance(value, float) else str(value)
        return f"<{tag}{cls}>{escape(text)}</{tag}>"

    out = ["<table><tr>", *(cell("th", i, h) for i, h in enumerate(head)), "</tr>"]
    for row in rows:
        out += ["<tr>", *(cell("td", i, v) for i, v in enumerate(row)), "</tr>"]
    out.append("</table>")
    return "".join(out)


def _figure(name: str, caption: str) -> str:
    return (
        f'<figure><img src="{escape(name)}" alt="{escape(caption)}">'
        f"<figcaption>{escape(caption)}</figcaption></figure>"
    )


def _metric_rows(reports: dict[str, EvalReport]) -> list[list[object]]:
    rows: list[list[object]] = []
    for metric in Metric:
        key = str(metric)
        if any(key in r.overall.means for r in reports.values()):
            values = [r.overall.means.get(key) for r in reports.values()]
            support = max(r.overall.support.get(key, 0) for r in reports.values())
            rows.append(
                [METRIC_LABELS[metric], *("-" if v is None else v for v in values), support]
            )
    for label, attr in (("Latency p50 (ms)", "latency_p50"), ("Latency p95 (ms)", "latency_p95")):
        values = [getattr(r.overall, attr) for r in reports.values()]
        rows.append([label, *("-" if v is None else v for v in values), ""])
    rows.append(["Questions", *(r.overall.n for r in reports.values()), ""])
    return rows


def build_report(directory: Path, data: ReportData) -> list[Path]:
    """Write the PNGs and ``report.html`` into ``directory``; returns the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    reports = dict(data.reports)
    modes = list(reports)
    written: list[Path] = []
    body = [
        f"<h1>{escape(data.title)}</h1>",
        f'<p class="meta">Inputs: {escape(", ".join(data.inputs) or "-")} · modes: '
        f"{escape(', '.join(modes))} · {len(data.gold)} questions</p>",
        "<h2>Retrieval modes</h2>",
        _table(["metric", *modes, "n"], _metric_rows(reports)),
    ]
    if len(modes) > 1:
        written.append(figures.modes_png(reports, directory / "modes.png"))
        body.append(_figure("modes.png", "Every overall metric, hybrid vs graph vs dense."))

    relations = relation_recall(data.gold, reports)
    written.append(
        figures.relation_recall_png(relations, modes, directory / "recall_by_relation.png")
    )
    body += [
        "<h2>Evidence Recall@5 by relation</h2>",
        _figure("recall_by_relation.png", "One-hop questions grouped by their gold relation."),
        _table(
            ["relation", *(f"{m} R@5" for m in modes), "n"],
            [
                [
                    r.relation,
                    *(r.by_mode[m][0] if m in r.by_mode else "-" for m in modes),
                    max(n for _, n in r.by_mode.values()),
                ]
                for r in relations
            ],
        ),
    ]

    body.append("<h2>Latency per stage</h2>")
    for mode, report in reports.items():
        name = f"latency_{mode}.png"
        written.append(figures.latency_png(report, mode, directory / name))
        body.append(_figure(name, f"Histogram of each stage's latency, {mode} mode."))
        stages = report.overall.stages
        body.append(
            _table(
                ["stage", "p50 ms", "p95 ms", "n"],
                [[s, v.p50, v.p95, v.n] for s, v in stages.items()],
            )
        )

    rel = data.reliability
    body.append("<h2>Edge predictor calibration</h2>")
    if rel is None or not rel.probs:
        body.append("<p>No calibration samples (the engine's planner was not available).</p>")
    else:
        written.append(figures.reliability_png(rel, directory / "reliability.png"))
        body += [
            _figure("reliability.png", "Reliability diagram before and after temperature."),
            _table(
                ["samples", "temperature", "source", "ECE before", "ECE after"],
                [[len(rel.probs), rel.temperature, rel.source, rel.ece_before, rel.ece_after]],
                numeric_from=0,
            ),
        ]

    body.append("<h2>Memory replay: Memory Recall@1 by day</h2>")
    if not data.memory_days:
        body.append("<p>No memory replay in this run (<code>--replay FILE</code>).</p>")
    else:
        written.append(figures.memory_days_png(data.memory_days, directory / "memory_by_day.png"))
        body += [
            _figure("memory_by_day.png", "Share of probes whose top-1 answer is the expected one."),
            _table(
                ["day", "probes", "hits", "Recall@1"],
                [[d.day, d.probes, d.hits, d.recall] for d in data.memory_days],
            ),
        ]
    page = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(data.title)}</title><style>{CSS}</style></head><body>",
        *body,
        "</body></html>",
    ]
    html = directory / REPORT_FILE
    html.write_text("\n".join(page) + "\n", encoding="utf-8")
    return [*written, html]
