"""Fit the edge predictor's temperature on dev questions with gold paths.

For each question, the planner's relation distribution at the seed gives ``p`` = probability of
the top-ranked relation; the label is whether that relation is the gold path's first hop.
T minimises the BCE of ``sigmoid(logit(p) / T)`` against the labels.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from engine.agent.plan import Plan
from engine.agent.planner import Planner
from engine.eval.runner import load_questions
from engine.graph.edges import Calibration, LocalEdgePredictor, calibrate, ece, fit_temperature
from engine.graph.relations import UNDIRECTED
from engine.result import LinkedEntity


def gold_first_hop(record: dict[str, object], seed: str) -> str | None:
    """The first relation use of the gold path from ``seed`` ('CtD' or 'CtD^-1')."""
    paths = record.get("gold_paths") or []
    if not isinstance(paths, list) or not paths or not paths[0]:
        return None
    s, rel, o = paths[0][0]
    if rel in UNDIRECTED:
        return str(rel)
    if s == seed:
        return str(rel)
    if o == seed:
        return f"{rel}^-1"
    return None


def _planned(
    planner: Planner, records: Sequence[dict[str, object]]
) -> Iterator[tuple[str, Plan, LinkedEntity, str]]:
    """(question, plan, seed, gold first hop) for each question the planner parses."""
    for rec in records:
        question = str(rec["question"])
        plan = planner.plan(question)
        if not plan.dist or not plan.seeds:
            continue
        gold = gold_first_hop(rec, plan.seeds[0].id)
        if gold is not None:
            yield question, plan, plan.seeds[0], gold


def samples(
    planner: Planner, records: Sequence[dict[str, object]]
) -> tuple[list[float], list[int]]:
    """(top-relation probability, top relation is gold) from the local edge predictor."""
    predictor = LocalEdgePredictor(top_k=4)
    probs: list[float] = []
    labels: list[int] = []
    for _, plan, seed, gold in _planned(planner, records):
        preds = predictor.predict(plan.qhash, seed.id, seed.kind, (), plan.dist, calibrated=False)
        if preds:
            top, p = preds[0]
            probs.append(p)
            labels.append(int(top.key == gold))
    return probs, labels


def fit(probs: list[float], labels: list[int], provider: str = "local") -> Calibration:
    t = fit_temperature(probs, labels)
    after = [calibrate(p, t) for p in probs]
    return Calibration(
        temperature=t,
        n=len(probs),
        ece_before=ece(probs, labels),
        ece_after=ece(after, labels),
        provider=provider,
    )


def fit_from_bench(helix: object, benches: list[Path]) -> Calibration:
    planner: Planner = helix.c.planner  # type: ignore[attr-defined]
    records = [q for b in benches for q in load_questions(b)]
    probs, labels = samples(planner, records)
    if len(probs) < 200:
        raise ValueError(f"only {len(probs)} usable questions; calibration needs at least 200")
    return fit(probs, labels)


def llm_samples(
    helix: object, records: Sequence[dict[str, object]]
) -> tuple[list[float], list[int]]:
    """(top-relation probability, top relation is gold) from the LLM edge predictor."""
    from engine.agent.llm_adapters import llm_edge_scores
    from engine.agent.llm_hooks import offered_relations

    planner: Planner = helix.c.planner  # type: ignore[attr-defined]
    llm = helix.c.llm  # type: ignore[attr-defined]
    if not helix.settings.llm_configured:  # type: ignore[attr-defined]
        raise ValueError("no LLM endpoint is configured (HELIX_LLM_BASE_URL, HELIX_LLM_MODEL)")
    probs: list[float] = []
    labels: list[int] = []
    for question, _, seed, gold in _planned(planner, records):
        scores, _ = llm_edge_scores(
            llm, question, seed.name, seed.kind, offered_relations(seed.kind)
        )
        if scores:
            top = max(scores, key=lambda k: scores[k])
            probs.append(scores[top])
            labels.append(int(top == gold))
    return probs, labels


def fit_from_bench_provider(helix: object, benches: list[Path], provider: str) -> Calibration:
    if provider == "local":
        return fit_from_bench(helix, benches)
    records = [q for b in benches for q in load_questions(b)]
    probs, labels = llm_samples(helix, records)
    if len(probs) < 200:
        raise ValueError(f"only {len(probs)} usable LLM answers; calibration needs at least 200")
    return fit(probs, labels, provider="llm")
