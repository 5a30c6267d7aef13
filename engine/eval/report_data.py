"""What the HTML eval report shows, computed from scored results alone (pure functions).

``ReportData`` gathers the scored modes, the edge predictor's calibration samples and a memory
replay's probe lines; the figures (``engine.eval.figures``) and the page
(``engine.eval.html_report``) only draw what is computed here, so the same inputs always give
the same numbers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.eval.metrics import Metric
from engine.eval.report import EvalReport
from engine.graph.edges import calibrate, ece


@dataclass(frozen=True)
class Reliability:
    """(top-relation probability, top relation is gold) pairs and the fitted temperature."""

    probs: tuple[float, ...]
    labels: tuple[int, ...]
    temperature: float
    source: str = "stored"
    """'stored' (the store's calibration.json) or 'fitted' (on these samples)."""

    @property
    def calibrated(self) -> tuple[float, ...]:
        return tuple(calibrate(p, self.temperature) for p in self.probs)

    @property
    def ece_before(self) -> float:
        return ece(list(self.probs), list(self.labels))

    @property
    def ece_after(self) -> float:
        return ece(list(self.calibrated), list(self.labels))


@dataclass(frozen=True)
class Bin:
    lo: float
    hi: float
    n: int
    confidence: float
    accuracy: float


@dataclass(frozen=True)
class DayRecall:
    day: str
    probes: int
    hits: int

    @property
    def recall(self) -> float:
        return self.hits / self.probes if self.probes else 0.0


@dataclass(frozen=True)
class RelationRecall:
    relation: str
    by_mode: dict[str, tuple[float, int]]
    """Mode -> (mean Evidence Recall@5, questions)."""


@dataclass
class ReportData:
    gold: Sequence[Mapping[str, Any]]
    reports: Mapping[str, EvalReport]
    """Mode -> its scored report (in the order the modes were run)."""
    reliability: Reliability | None = None
    memory_days: list[DayRecall] = field(default_factory=list)
    title: str = "Helix evaluation"
    inputs: list[str] = field(default_factory=list)
    """Names of the bench (and replay) files, for the page's header."""


def gold_relation(record: Mapping[str, Any]) -> str | None:
    """The relation a one-hop question asks about: the most common one of its gold triples."""
    rels = [t[1] for t in record.get("gold_triples") or [] if isinstance(t, list | tuple)]
    if not rels:
        return None
    counts = Counter(rels)
    return str(sorted(counts, key=lambda r: (-counts[r], r))[0])


def relation_recall(
    gold: Sequence[Mapping[str, Any]], reports: Mapping[str, EvalReport]
) -> list[RelationRecall]:
    """Evidence Recall@5 of the one-hop questions by gold relation, per mode; most asked first."""
    relation_of = {
        str(r["id"]): rel
        for r in gold
        if r.get("kind") == "one_hop" and (rel := gold_relation(r)) is not None
    }
    per: dict[str, dict[str, list[float]]] = {}
    for mode, report in reports.items():
        for q in report.questions:
            rel = relation_of.get(q.id)
            value = q.values.get(str(Metric.EVIDENCE_RECALL))
            if rel is not None and value is not None:
                per.setdefault(rel, {}).setdefault(mode, []).append(value)
    rows = [
        RelationRecall(rel, {m: (sum(v) / len(v), len(v)) for m, v in modes.items()})
        for rel, modes in per.items()
    ]
    rows.sort(key=lambda r: (-max(n for _, n in r.by_mode.values()), r.relation))
    return rows


def reliability_bins(probs: Sequence[float], labels: Sequence[int], n_bins: int = 10) -> list[Bin]:
    """Equal-width confidence bins (empty ones left out): mean confidence and accuracy."""
    bins: list[Bin] = []
    for i in range(n_bins):
        lo, hi = i / n_bins, (i + 1) / n_bins
        idx = [j for j, p in enumerate(probs) if lo <= p < hi or (i == n_bins - 1 and p == 1.0)]
        if idx:
            conf = sum(probs[j] for j in idx) / len(idx)
            acc = sum(labels[j] for j in idx) / len(idx)
            bins.append(Bin(lo, hi, len(idx), conf, acc))
    return bins


def memory_by_day(lines: Iterable[Mapping[str, Any]]) -> list[DayRecall]:
    """Memory Recall@1 per day of a replay's probe lines (``at``, ``expect``, ranked answers);
    probes with ``expect: null`` are not counted (they measure leaks, not recall)."""
    days: dict[str, list[int]] = {}
    for line in lines:
        expect = line.get("expect")
        if expect is None:
            continue
        answers = line.get("answers") or []
        top = answers[0].get("id") if line.get("status") == "ANSWERED" and answers else None
        tally = days.setdefault(str(line.get("at", ""))[:10], [0, 0])
        tally[0] += 1
        tally[1] += int(top == expect)
    return [DayRecall(day, n, hits) for day, (n, hits) in sorted(days.items())]


def stage_values(report: EvalReport) -> dict[str, list[float]]:
    """Per-stage latencies (ms) of a report's questions, in first-seen stage order."""
    out: dict[str, list[float]] = {}
    for q in report.questions:
        for stage, ms in q.timings.items():
            out.setdefault(stage, []).append(ms)
    return out
