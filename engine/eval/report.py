"""Aggregating per-question scores into an ``EvalReport`` (overall, by kind, by bench file)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from statistics import fmean
from typing import Any

from engine.eval.metrics import Metric, QuestionScore, percentile, score_question

METRIC_ORDER: tuple[str, ...] = tuple(str(m) for m in Metric)


@dataclass(frozen=True)
class StageLatency:
    p50: float
    p95: float
    n: int


@dataclass(frozen=True)
class Aggregate:
    """Means of the metrics over a group of questions, with latency statistics."""

    n: int
    means: dict[str, float] = field(default_factory=dict)
    """Metric name -> mean over the questions of the group it applies to."""
    support: dict[str, int] = field(default_factory=dict)
    """Metric name -> how many questions that mean is over."""
    negative_supported: int | None = None
    """Negative claims whose result shows a triple linking the claim's entities (target 0);
    None when the group has no negative question."""
    missing: int = 0
    errors: int = 0
    latency_p50: float | None = None
    latency_p95: float | None = None
    stages: dict[str, StageLatency] = field(default_factory=dict)
    """Per-stage latency (ms) over the results that report that stage in ``timings``."""


@dataclass(frozen=True)
class EvalReport:
    questions: tuple[QuestionScore, ...]
    overall: Aggregate
    by_kind: dict[str, Aggregate]
    by_bench: dict[str, Aggregate]
    unmatched_results: int = 0
    """Result lines whose id is not in the gold records (ignored)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (aggregates only, no per-question rows)."""
        return {
            "overall": asdict(self.overall),
            "by_kind": {k: asdict(v) for k, v in self.by_kind.items()},
            "by_bench": {k: asdict(v) for k, v in self.by_bench.items()},
            "unmatched_results": self.unmatched_results,
        }


def aggregate(scores: Sequence[QuestionScore]) -> Aggregate:
    by_metric: dict[str, list[float]] = {}
    for s in scores:
        for name, value in s.values.items():
            by_metric.setdefault(name, []).append(value)
    names = sorted(by_metric, key=lambda m: METRIC_ORDER.index(m) if m in METRIC_ORDER else 99)
    negatives = [s for s in scores if s.kind == "negative"]
    latencies = [s.latency_ms for s in scores if s.latency_ms is not None]
    return Aggregate(
        n=len(scores),
        means={m: fmean(by_metric[m]) for m in names},
        support={m: len(by_metric[m]) for m in names},
        negative_supported=sum(bool(s.claim_supported) for s in negatives) if negatives else None,
        missing=sum(s.missing for s in scores),
        errors=sum(s.error is not None for s in scores),
        latency_p50=percentile(latencies, 50),
        latency_p95=percentile(latencies, 95),
        stages=stage_latencies(scores),
    )


def stage_latencies(scores: Iterable[QuestionScore]) -> dict[str, StageLatency]:
    per_stage: dict[str, list[float]] = {}
    for s in scores:
        for stage, ms in s.timings.items():
            per_stage.setdefault(stage, []).append(ms)
    out: dict[str, StageLatency] = {}
    for stage, values in per_stage.items():
        p50, p95 = percentile(values, 50), percentile(values, 95)
        assert p50 is not None and p95 is not None
        out[stage] = StageLatency(p50=p50, p95=p95, n=len(values))
    return out


def _group(scores: Sequence[QuestionScore], key: str) -> dict[str, Aggregate]:
    groups: dict[str, list[QuestionScore]] = {}
    for s in scores:
        groups.setdefault(getattr(s, key) or "-", []).append(s)
    return {name: aggregate(members) for name, members in groups.items()}


def score(
    gold_records: Sequence[Mapping[str, Any]], results: Iterable[Mapping[str, Any]]
) -> EvalReport:
    """Score results (matched to gold records by ``id``) into an ``EvalReport``.

    A gold record without a result scores as an empty answer (counted in ``missing``); results
    for ids outside ``gold_records`` are ignored, so one results file can be scored per bench.
    """
    by_id: dict[str, Mapping[str, Any]] = {}
    for res in results:
        rid = str(res.get("id"))
        if rid in by_id:
            raise ValueError(f"duplicate result id {rid!r}")
        by_id[rid] = res
    gold_ids = {str(r["id"]) for r in gold_records}
    if len(gold_ids) != len(gold_records):
        raise ValueError("duplicate id in gold records")
    scores = tuple(score_question(rec, by_id.get(str(rec["id"]))) for rec in gold_records)
    return EvalReport(
        questions=scores,
        overall=aggregate(scores),
        by_kind=_group(scores, "kind"),
        by_bench=_group(scores, "bench"),
        unmatched_results=sum(rid not in gold_ids for rid in by_id),
    )
