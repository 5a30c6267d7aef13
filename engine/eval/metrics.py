"""Per-question benchmark metrics, exactly as ``../shared/bench/README.md`` defines them.

Pure functions over one gold record and one result object (the JSON of ``Result.to_contract()``);
nothing here touches an engine or a file. Conventions used throughout:

- "top-k" means the first ``k`` items *as ranked by the system*; a duplicate occupies a slot and
  the top-k is then compared as a set, so duplicates never count twice.
- A triple is ``(subj, rel, obj)`` in stored KG direction and is compared exactly.
- A path is compared as the set of its triples (``frozenset``): the order of triples is irrelevant.
- A metric that does not apply to a question (wrong kind, or no gold to compare with) is absent
  from ``QuestionScore.values`` rather than 0, so it never dilutes an average.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

Triple = tuple[str, str, str]
PathKey = frozenset[Triple]

TOP_K = 5


class Metric(StrEnum):
    EVIDENCE_RECALL = "evidence_recall@5"
    PASSAGE_RECALL = "passage_recall@5"
    MRR = "mrr"
    HIT1 = "hit@1"
    HIT5 = "hit@5"
    PATH_F1 = "path_f1@5"
    STATUS_ACC = "status_acc"


METRIC_LABELS: dict[Metric, str] = {
    Metric.EVIDENCE_RECALL: "Evidence Recall@5",
    Metric.PASSAGE_RECALL: "Passage Recall@5",
    Metric.MRR: "MRR",
    Metric.HIT1: "Hit@1",
    Metric.HIT5: "Hit@5",
    Metric.PATH_F1: "Path-F1@5",
    Metric.STATUS_ACC: "Status accuracy",
}

KIND_METRICS: dict[str, tuple[Metric, ...]] = {
    "one_hop": (Metric.EVIDENCE_RECALL, Metric.HIT1, Metric.HIT5, Metric.MRR),
    "multi_hop": (Metric.PATH_F1, Metric.HIT1, Metric.HIT5, Metric.MRR),
    "mechanism": (Metric.PATH_F1,),
    "passage": (Metric.PASSAGE_RECALL, Metric.MRR),
    "ambiguous": (Metric.STATUS_ACC,),
    "not_found": (Metric.STATUS_ACC,),
    "negative": (Metric.STATUS_ACC,),
}
"""Which metrics each question kind is scored on (the README's table, plus the cheap answer
metrics Hit@1/Hit@5/MRR wherever gold answers are meaningful)."""

ANSWERED = "ANSWERED"
YES_WORDS = frozenset({"yes", "true"})


# --- reading a result object --------------------------------------------------------------------


def as_triple(value: Any) -> Triple | None:
    """``[s, r, o]`` (list or tuple of three strings) as a tuple; None for anything else."""
    if isinstance(value, list | tuple) and len(value) == 3:
        s, r, o = value
        if isinstance(s, str) and isinstance(r, str) and isinstance(o, str):
            return (s, r, o)
    return None


def triple_evidence(result: Mapping[str, Any]) -> list[Triple]:
    """Triples of the ``kind == "triple"`` evidence, in ranked order."""
    out: list[Triple] = []
    for ev in result.get("evidence") or []:
        if ev.get("kind") == "triple" and (t := as_triple(ev.get("triple"))) is not None:
            out.append(t)
    return out


def passage_evidence(result: Mapping[str, Any]) -> list[str]:
    """Ids of the ``kind == "passage"`` evidence, in ranked order."""
    return [
        str(ev["id"])
        for ev in result.get("evidence") or []
        if ev.get("kind") == "passage" and ev.get("id") is not None
    ]


def answer_ids(result: Mapping[str, Any]) -> list[str]:
    return [str(a["id"]) for a in result.get("answers") or [] if a.get("id") is not None]


def path_key(path: Iterable[Any]) -> PathKey:
    """A path as the set of its (valid) triples."""
    return frozenset(t for step in path if (t := as_triple(step)) is not None)


def result_paths(result: Mapping[str, Any]) -> list[PathKey]:
    return [path_key(p) for p in result.get("paths") or []]


def support_triples(result: Mapping[str, Any]) -> set[Triple]:
    """Every triple a result offers as support: triple evidence and the triples of its paths."""
    found = set(triple_evidence(result))
    for path in result.get("paths") or []:
        found |= path_key(path)
    return found


def gold_triples(record: Mapping[str, Any]) -> set[Triple]:
    return {t for x in record.get("gold_triples") or [] if (t := as_triple(x)) is not None}


def gold_paths(record: Mapping[str, Any]) -> set[PathKey]:
    return {path_key(p) for p in record.get("gold_paths") or []}


# --- ranking metrics ----------------------------------------------------------------------------


def recall_at_k(ranked: Sequence[Any], gold: Iterable[Any], k: int = TOP_K) -> float | None:
    """``|gold ∩ top-k| / min(k, |gold|)``; None when there is no gold."""
    gold_set = set(gold)
    if not gold_set:
        return None
    return len(gold_set & set(ranked[:k])) / min(k, len(gold_set))


def reciprocal_rank(ranked: Sequence[Any], gold: Iterable[Any]) -> float | None:
    """1 / rank of the first gold item (0 when none is ranked); None when there is no gold."""
    gold_set = set(gold)
    if not gold_set:
        return None
    for rank, item in enumerate(ranked, start=1):
        if item in gold_set:
            return 1.0 / rank
    return 0.0


def hit_at_k(ranked: Sequence[Any], gold: Iterable[Any], k: int) -> float | None:
    """1.0 when some gold item is among the top-k, else 0.0; None when there is no gold."""
    gold_set = set(gold)
    if not gold_set:
        return None
    return 1.0 if gold_set & set(ranked[:k]) else 0.0


def path_f1_at_k(paths: Sequence[PathKey], gold: Iterable[PathKey], k: int = TOP_K) -> float | None:
    """F1 of the top-k paths against the gold paths, paths compared as sets of triples.

    ``precision = |P ∩ gold| / |P|`` and ``recall = |P ∩ gold| / min(k, |gold|)`` with P the
    set of the top-k returned paths; 0 when no path is returned; None when there is no gold.
    """
    gold_set = set(gold)
    if not gold_set:
        return None
    top = set(paths[:k])
    if not top:
        return 0.0
    hits = len(top & gold_set)
    if hits == 0:
        return 0.0
    precision = hits / len(top)
    recall = hits / min(k, len(gold_set))
    return 2 * precision * recall / (precision + recall)


# --- status and the negative rule ---------------------------------------------------------------


def claim_of(record: Mapping[str, Any]) -> Triple | None:
    return as_triple(record.get("claim"))


def is_yes_answer(answer: Mapping[str, Any], claim: Triple | None = None) -> bool:
    """A yes-type answer: "yes"/"true" (as id, name or an id ending in ``:yes``), or an answer
    that is one of the claim's own entities (answering "Does X treat Y?" with Y asserts it)."""
    ident = str(answer.get("id") or "").strip().lower()
    name = str(answer.get("name") or "").strip().lower().rstrip(".!")
    if ident in YES_WORDS or name in YES_WORDS or ident.rsplit(":", 1)[-1] in YES_WORDS:
        return True
    return claim is not None and answer.get("id") in (claim[0], claim[2])


def negative_violation(record: Mapping[str, Any], result: Mapping[str, Any]) -> bool:
    """The README's negative rule: an ANSWERED result with a yes-type answer or any supporting
    triple absent from the gold triples counts as wrong."""
    if result.get("status") != ANSWERED:
        return False
    claim = claim_of(record)
    if any(is_yes_answer(a, claim) for a in result.get("answers") or []):
        return True
    return bool(support_triples(result) - gold_triples(record))


def status_correct(record: Mapping[str, Any], result: Mapping[str, Any]) -> bool:
    """Output status equals ``expect_status`` (and, for ``negative``, the negative rule holds)."""
    if result.get("status") != record.get("expect_status"):
        return False
    return not (record.get("kind") == "negative" and negative_violation(record, result))


def claim_supported(record: Mapping[str, Any], result: Mapping[str, Any]) -> bool:
    """Whether the result carries a triple (evidence or path, any relation, either direction)
    directly linking the two entities of a negative record's claim."""
    claim = claim_of(record)
    if claim is None:
        return False
    ends = {claim[0], claim[2]}
    return any({s, o} == ends for s, _, o in support_triples(result))


# --- one question -------------------------------------------------------------------------------


@dataclass(frozen=True)
class QuestionScore:
    """Every applicable metric of one question, plus what the aggregates need."""

    id: str
    kind: str
    bench: str
    expect_status: str
    status: str | None
    values: dict[str, float] = field(default_factory=dict)
    claim_supported: bool | None = None
    """Negative records only: the result shows a triple linking the claim's two entities."""
    latency_ms: float | None = None
    timings: dict[str, float] = field(default_factory=dict)
    missing: bool = False
    error: str | None = None


def metric_values(record: Mapping[str, Any], result: Mapping[str, Any]) -> dict[str, float]:
    """The applicable metrics of one question (see ``KIND_METRICS``)."""
    kind = str(record.get("kind", ""))
    answers = record.get("answers") or []
    computed: dict[Metric, float | None] = {}
    for metric in KIND_METRICS.get(kind, ()):
        value: float | None
        if metric is Metric.EVIDENCE_RECALL:
            value = recall_at_k(triple_evidence(result), gold_triples(record))
        elif metric is Metric.PASSAGE_RECALL:
            value = recall_at_k(passage_evidence(result), record.get("gold_passages") or [])
        elif metric is Metric.MRR and kind == "passage":
            value = reciprocal_rank(passage_evidence(result), record.get("gold_passages") or [])
        elif metric is Metric.MRR:
            value = reciprocal_rank(answer_ids(result), answers)
        elif metric is Metric.HIT1:
            value = hit_at_k(answer_ids(result), answers, 1)
        elif metric is Metric.HIT5:
            value = hit_at_k(answer_ids(result), answers, 5)
        elif metric is Metric.PATH_F1:
            value = path_f1_at_k(result_paths(result), gold_paths(record))
        else:
            value = 1.0 if status_correct(record, result) else 0.0
        computed[metric] = value
    return {str(m): v for m, v in computed.items() if v is not None}


def _timings(result: Mapping[str, Any]) -> dict[str, float]:
    raw = result.get("timings") or {}
    return {
        str(k): float(v)
        for k, v in raw.items()
        if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
    }


def score_question(record: Mapping[str, Any], result: Mapping[str, Any] | None) -> QuestionScore:
    """Score one gold record against its result; a missing result scores as an empty one."""
    missing = result is None
    res: Mapping[str, Any] = result if result is not None else {}
    latency = res.get("latency_ms")
    kind = str(record.get("kind", ""))
    return QuestionScore(
        id=str(record["id"]),
        kind=kind,
        bench=str(record.get("bench") or ""),
        expect_status=str(record.get("expect_status", "")),
        status=res.get("status"),
        values=metric_values(record, res),
        claim_supported=claim_supported(record, res) if kind == "negative" else None,
        latency_ms=float(latency) if isinstance(latency, int | float) and not missing else None,
        timings=_timings(res),
        missing=missing,
        error=str(res["error"]) if res.get("error") else None,
    )


# --- latency ------------------------------------------------------------------------------------


def percentile(values: Iterable[float], q: float) -> float | None:
    """The q-th percentile (0-100) with linear interpolation (numpy's default); None if empty."""
    data = sorted(values)
    if not data:
        return None
    pos = (len(data) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)
