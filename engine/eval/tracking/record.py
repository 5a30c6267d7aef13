"""What one tracked run holds, computed from scored reports and settings (no MLflow here).

Metric keys are paths: ``overall/hit_at_1``, ``kind/one_hop/evidence_recall_at_5``,
``bench/kgqa_dev/latency_p95_ms``, ``stage/walk/p50_ms``, ``memory/recall_at_1``. An eval of
several modes (``--compare``, ``--report``) puts each mode's keys under its name
(``dense/overall/hit_at_1``); an eval of one mode does not, so a hybrid run and a dense run
line up key by key.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.config import Settings
from engine.eval.report import Aggregate, EvalReport
from engine.eval.report_data import DayRecall
from engine.eval.tracking.provenance import git_state
from engine.graph.edges import Calibration
from engine.util.artefact import file_sha256

_UNSAFE = re.compile(r"[^\w.\- :]")


@dataclass
class RunRecord:
    """One run to log: MLflow parameters and metrics, texts saved as artifact files (name ->
    content) and directories copied whole (artifact folder -> directory)."""

    name: str
    params: dict[str, str] = field(default_factory=dict)
    metrics: dict[str, float] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    dirs: dict[str, Path] = field(default_factory=dict)


@dataclass(frozen=True)
class TrackedRun:
    """A run read back from the tracking store."""

    run_id: str
    name: str
    params: Mapping[str, str]
    metrics: Mapping[str, float]

    @property
    def label(self) -> str:
        return f"{self.name} ({self.run_id[:8]})" if self.name else self.run_id[:8]


def metric_key(*parts: str) -> str:
    """A metric key MLflow accepts: parts joined by ``/``, ``@`` spelled ``_at_``, any other
    character outside letters, digits, ``_ - . :`` and space replaced by ``_``."""
    return "/".join(_UNSAFE.sub("_", p.replace("@", "_at_")) for p in parts)


# --- metrics ------------------------------------------------------------------------------------


def aggregate_metrics(prefix: Sequence[str], agg: Aggregate) -> dict[str, float]:
    """A group's row of the metrics table: each metric's mean, its question count, negative
    claims with supporting evidence, missing results, errors and latency p50/p95."""
    out = {metric_key(*prefix, name): value for name, value in agg.means.items()}
    out[metric_key(*prefix, "questions")] = float(agg.n)
    if agg.negative_supported is not None:
        out[metric_key(*prefix, "negative_supported")] = float(agg.negative_supported)
    out[metric_key(*prefix, "missing")] = float(agg.missing)
    out[metric_key(*prefix, "errors")] = float(agg.errors)
    if agg.latency_p50 is not None and agg.latency_p95 is not None:
        out[metric_key(*prefix, "latency_p50_ms")] = agg.latency_p50
        out[metric_key(*prefix, "latency_p95_ms")] = agg.latency_p95
    return out


def report_metrics(report: EvalReport, prefix: Sequence[str] = ()) -> dict[str, float]:
    """Every figure of one mode's eval tables: overall, by question kind, by bench file, and
    latency p50/p95 by stage."""
    out = aggregate_metrics([*prefix, "overall"], report.overall)
    for kind, agg in report.by_kind.items():
        out.update(aggregate_metrics([*prefix, "kind", kind], agg))
    for bench, agg in report.by_bench.items():
        out.update(aggregate_metrics([*prefix, "bench", bench], agg))
    for stage, lat in report.overall.stages.items():
        out[metric_key(*prefix, "stage", stage, "p50_ms")] = lat.p50
        out[metric_key(*prefix, "stage", stage, "p95_ms")] = lat.p95
    return out


def eval_metrics(reports: Mapping[str, EvalReport]) -> dict[str, float]:
    """The metrics of an eval: one mode's keys bare, several modes' under each mode's name."""
    if len(reports) == 1:
        return report_metrics(next(iter(reports.values())))
    out: dict[str, float] = {}
    for mode, report in reports.items():
        out.update(report_metrics(report, (mode,)))
    return out


def memory_metrics(
    summary: Mapping[str, Any],
    by_relation: Mapping[str, tuple[float, int]] | None = None,
    days: Sequence[DayRecall] = (),
) -> dict[str, float]:
    """A memory replay's figures under ``memory/``: its summary's numbers (Memory Recall@1,
    current and previous-value probes, leaks, timings), recall by relation and by day."""
    out = {
        metric_key("memory", name): float(value)
        for name, value in summary.items()
        if isinstance(value, int | float) and not isinstance(value, bool)
    }
    for relation, (recall, n) in (by_relation or {}).items():
        out[metric_key("memory", "relation", relation, "recall_at_1")] = recall
        out[metric_key("memory", "relation", relation, "probes")] = float(n)
    for day in days:
        out[metric_key("memory", "day", day.day, "recall_at_1")] = day.recall
        out[metric_key("memory", "day", day.day, "probes")] = float(day.probes)
    return out


# --- parameters ---------------------------------------------------------------------------------


def settings_params(settings: Settings, modes: Sequence[str]) -> dict[str, str]:
    """The settings that decide an eval's figures: modes, layers, fusion, walk budgets,
    embedding model, calibration and its temperature, the LLM, and the code's git state."""
    cal_file = settings.stores_dir / "calibration.json"
    temperature = Calibration.load(cal_file).temperature if settings.calibration else 1.0
    commit, dirty = git_state()
    params = {
        "mode": ",".join(modes),
        "layers": settings.layers or "all built",
        "fusion": settings.fusion,
        "graph_weight": str(settings.graph_weight),
        "max_depth": str(settings.max_depth),
        "max_nodes": str(settings.max_nodes),
        "max_ms": str(settings.max_ms),
        "edge_top_k": str(settings.edge_top_k),
        "dense_top_n": str(settings.dense_top_n),
        "review_threshold": str(settings.review_threshold),
        "embed_model": settings.embed_model,
        "calibration": "on" if settings.calibration else "off",
        "calibration_temperature": f"{temperature:g}",
        "calibration_file": "stored" if cal_file.exists() else "none (T = 1)",
        "llm": settings.llm_model if settings.llm_configured and settings.llm_model else "off",
        "git_commit": commit,
        "git_dirty": dirty,
    }
    if settings.llm_configured:
        params["llm_features"] = settings.llm_features
    return params


def file_params(role: str, paths: Sequence[Path]) -> dict[str, str]:
    """``<role>_files`` (their names) and ``<role>/<name>/sha256`` for each input file."""
    params = {f"{role}_files": ",".join(p.name for p in paths)}
    for path in paths:
        params[metric_key(role, path.name, "sha256")] = file_sha256(path)
    return params


def result_lines(rows: Sequence[Mapping[str, Any]]) -> str:
    """Result objects as JSONL, as ``--out`` writes them."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def eval_record(
    settings: Settings,
    reports: Mapping[str, EvalReport],
    results: Mapping[str, Sequence[Mapping[str, Any]]],
    *,
    benches: Sequence[Path],
    report_dir: Path | None = None,
    replay: Path | None = None,
    memory: Mapping[str, float] | None = None,
) -> RunRecord:
    """An eval as one run: parameters, every metric of its tables (and of the replay played
    with it), each mode's result lines and the HTML report with its charts."""
    modes = list(reports)
    params = {**settings_params(settings, modes), **file_params("bench", benches)}
    params["questions"] = str(next(iter(reports.values())).overall.n) if reports else "0"
    metrics = eval_metrics(reports)
    if replay is not None:
        params.update(file_params("replay", [replay]))
    if memory:
        metrics.update(memory)
    stems = "+".join(p.name.removesuffix(".jsonl") for p in benches)
    return RunRecord(
        name=f"eval {','.join(modes)} {stems}",
        params=params,
        metrics=metrics,
        tags={"helix.kind": "eval"},
        texts={f"results/results.{m}.jsonl": result_lines(rows) for m, rows in results.items()},
        dirs={"report": report_dir} if report_dir is not None else {},
    )


def replay_record(
    settings: Settings,
    replay: Path,
    memory: Mapping[str, float],
    *,
    extract: str,
    lines: str | None = None,
) -> RunRecord:
    """A headless memory replay as one run: its file and hash, how facts were taken in, the
    memory settings and git state, its ``memory/`` figures and its result lines."""
    commit, dirty = git_state()
    params = {
        **file_params("replay", [replay]),
        "extract": extract,
        "embed_model": settings.embed_model,
        "cache_similarity": str(settings.cache_similarity),
        "vault_boost": str(settings.vault_boost),
        "episodic_window": str(settings.episodic_window),
        "llm": settings.llm_model if settings.llm_configured and settings.llm_model else "off",
        "git_commit": commit,
        "git_dirty": dirty,
    }
    return RunRecord(
        name=f"replay {replay.name.removesuffix('.jsonl')}",
        params=params,
        metrics=dict(memory),
        tags={"helix.kind": "replay"},
        texts={"results/replay_results.jsonl": lines} if lines is not None else {},
    )
