"""Planner: link entities, read the question's form, choose seeds and a metapath distribution.

Senses are resolved by structure, not by string: each candidate node of a mention is scored by
how well the best metapath from its kind explains the question's relation cues and answer kind.
Candidates that name one concept in two vocabularies (a disease and the side effect of the same
name; a compound and the class named after it) collapse to the best-fitting one. Anything else
left with several candidates becomes a clarifying question.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

from engine.agent.parse import YES_NO_START, Features, features
from engine.graph.lexicon import is_structural
from engine.graph.linking import Linker, LinkResult, Mention, same_concept_kinds
from engine.graph.metapaths import (
    Metapath,
    enumerate_metapaths,
    mechanism_metapaths,
    order_cues,
    score_metapath,
    softmax,
)
from engine.graph.store import KGStore
from engine.graph.walk import Budget
from engine.result import Candidate, LinkedEntity

SENSE_MARGIN = 0.5
PARSE_TEMPERATURE = 0.5
MIN_PARSE_SCORE = -1.5
MAX_UNCOVERED = 2
"""Below this the best metapath leaves cues unexplained: the question is not a graph question."""


@dataclass
class Plan:
    question: str
    qhash: str
    intent: str
    features: Features
    link: LinkResult
    seeds: list[LinkedEntity] = field(default_factory=list)
    targets: list[LinkedEntity] = field(default_factory=list)
    dist: list[tuple[Metapath, float]] = field(default_factory=list)
    parse_score: float | None = None
    clarification: str | None = None
    candidates: list[Candidate] = field(default_factory=list)
    unlinked: list[str] = field(default_factory=list)
    budget: Budget = field(default_factory=Budget)
    note: str = ""
    uncovered: list[str] = field(default_factory=list)


class Planner:
    def __init__(self, store: KGStore, linker: Linker, budget: Budget) -> None:
        self.store = store
        self.linker = linker
        self.budget = budget
        self.mechanisms = mechanism_metapaths(store.rephetio_metapaths())
        """Rephetio's Compound->Disease metapaths with their (positive) model weights."""

    def entity(self, m: Mention, node_id: str) -> LinkedEntity:
        method: Literal["exact", "fuzzy", "embedding"] = (
            m.method if m.method in ("fuzzy", "embedding") else "exact"  # type: ignore[assignment]
        )
        return LinkedEntity(
            mention=m.text,
            id=node_id,
            name=self.store.name(node_id),
            kind=self.store.kind(node_id),
            score=m.score,
            method=method,
            start=m.start,
            end=m.end,
        )  # type: ignore[arg-type]

    # --- structure -------------------------------------------------------------------
    def parses(self, kind: str, m: Mention, f: Features) -> list[tuple[Metapath, float]]:
        cues = order_cues(f.cues, m.start, m.end)
        return sorted(
            (
                (mp, score_metapath(mp, cues, f.target_kind, f.share))
                for mp in enumerate_metapaths(kind, self.budget.max_depth)
            ),
            key=lambda x: -x[1],
        )

    def _sense_scores(self, m: Mention, f: Features) -> dict[str, float]:
        scores: dict[str, float] = {}
        for nid in m.node_ids:
            kind = self.store.kind(nid)
            if f.generic or (not f.cues and f.target_kind is None):
                scores[nid] = 0.0
            else:
                best = self.parses(kind, m, f)
                scores[nid] = best[0][1] if best else -99.0
        return scores

    def resolve(self, m: Mention, f: Features, choice: str | None) -> list[str]:
        """Node ids the mention may mean after structural resolution and concept collapse."""
        ids = m.node_ids
        if choice and choice in ids:
            return [choice]
        if len(ids) == 1:
            return ids
        if f.mechanism or f.yes_no:
            focused = [n for n in ids if self.store.kind(n) in {"Compound", "Disease"}]
            ids = focused or ids
            if len(ids) == 1:
                return ids
        scores = self._sense_scores(m, f)
        top = max(scores.values())
        kept = [n for n in ids if scores[n] >= top - SENSE_MARGIN]
        by_group: dict[tuple[str, ...], list[str]] = {}
        out: list[str] = []
        for n in kept:
            group = same_concept_kinds(self.store.kind(n))
            if len(group) == 1:
                out.append(n)
            else:
                by_group.setdefault(group, []).append(n)
        for order, nodes in by_group.items():
            kinds = {self.store.kind(n) for n in nodes}
            if len(kinds) == len(nodes):
                out.append(max(nodes, key=lambda n: (scores[n], -order.index(self.store.kind(n)))))
            else:
                out.extend(nodes)
        return out

    def clarify(self, m: Mention, ids: list[str]) -> tuple[str, list[Candidate]]:
        cands = [
            Candidate(
                id=n,
                name=self.store.name(n),
                kind=self.store.kind(n),
                detail=self.store.description(n),
            )
            for n in ids
        ]

        def label(c: Candidate) -> str:
            detail = f", {c.detail}" if c.detail and c.kind == "Gene" else ""
            return f"{c.name} ({c.kind}{detail}, {c.id})"

        listing = "; ".join(label(c) for c in cands)
        return (
            f"'{m.text}' can mean several things in the knowledge graph: {listing}. "
            "Which one do you mean?",
            cands,
        )

    def dist_for(self, kind: str, plan: Plan) -> list[tuple[Metapath, float]]:
        """Metapath distribution for a seed of ``kind`` injected after planning."""
        anchor = Mention("", 0, 0, 0, 0, [])
        top = self.parses(kind, anchor, plan.features)[:60]
        probs = softmax([s for _, s in top], PARSE_TEMPERATURE)
        return [(mp, p) for (mp, _), p in zip(top, probs, strict=True) if p > 1e-4]

    # --- the plan ----------------------------------------------------------------------
    def link(self, question: str) -> LinkResult:
        return self.linker.link(question, whole_names=True)

    def plan(
        self, question: str, choice: str | None = None, link: LinkResult | None = None
    ) -> Plan:
        link = link or self.link(question)
        f = features(question, link.tokens, link.mentions)
        qhash = hashlib.sha1(question.encode("utf-8")).hexdigest()[:16]
        plan = Plan(
            question,
            qhash,
            "literature",
            f,
            link,
            unlinked=list(link.unlinked),
            budget=self.budget,
        )
        resolved: list[tuple[Mention, list[str]]] = [
            (m, self.resolve(m, f, choice)) for m in link.mentions
        ]
        covered = {i for m in link.mentions for i in range(m.first_token, m.last_token + 1)}
        plan.uncovered = [
            t.text
            for i, t in enumerate(link.tokens)
            if i not in covered
            and not is_structural(t.norm)
            and not t.norm.isdigit()
            and not (i == 0 and t.norm in YES_NO_START)
        ]
        focused = len(plan.uncovered) <= MAX_UNCOVERED
        """A graph question names its entities and relations; a literature question says more."""
        ambiguous = [(m, ids) for m, ids in resolved if len(ids) > 1]
        if ambiguous and focused:
            m, ids = ambiguous[0]
            plan.intent = "clarify"
            plan.clarification, plan.candidates = self.clarify(m, ids)
            return plan
        ents = [self.entity(m, ids[0]) for m, ids in resolved if len(ids) == 1]
        kinds = {e.kind for e in ents}
        if len(ents) >= 2 and {"Compound", "Disease"} <= kinds and (f.mechanism or f.yes_no):
            drug = next(e for e in ents if e.kind == "Compound")
            disease = next(e for e in ents if e.kind == "Disease")
            plan.seeds, plan.targets = [drug], [disease]
            if f.mechanism:
                plan.intent = "mechanism"
                mechanisms = self.mechanisms
                total = sum(w for _, w in mechanisms)
                plan.dist = [(mp, w / total) for mp, w in mechanisms]
                return plan
            if focused:
                plan.intent = "claim"
                return plan
        if len(ents) >= 2 and f.yes_no and f.cues and focused:
            plan.seeds, plan.targets = [ents[0]], ents[1:2]
            plan.intent = "claim"
            return plan
        structured = f.target_kind is not None or bool(f.cues)
        if not ents:
            if structured and 1 <= len(link.unlinked) <= 2 and len(link.tokens) <= 16:
                plan.intent = "not_found"
            return plan
        if not focused:
            plan.seeds = ents
            return plan
        # one seed (the best-parsed mention) guides the walk
        best: tuple[float, LinkedEntity, list[tuple[Metapath, float]]] | None = None
        for m, e in zip((m for m, _ in resolved), ents, strict=True):
            if f.generic or (not f.cues and f.target_kind is None):
                continue
            parses = self.parses(e.kind, m, f)
            if parses and (best is None or parses[0][1] > best[0]):
                best = (parses[0][1], e, parses)
        if best is None:
            plan.seeds = ents[:1]
            plan.intent = "overview" if len(link.tokens) <= 12 else "literature"
            return plan
        score, seed, parses = best
        plan.seeds = [seed]
        plan.parse_score = score
        if score < MIN_PARSE_SCORE:
            plan.intent = "no_relation" if structured else "literature"
            return plan
        top = parses[:60]
        probs = softmax([s for _, s in top], PARSE_TEMPERATURE)
        plan.dist = [(mp, p) for (mp, _), p in zip(top, probs, strict=True) if p > 1e-4]
        plan.intent = "one_hop" if len(plan.dist[0][0]) == 1 else "multi_hop"
        return plan
