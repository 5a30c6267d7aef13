"""The semantic reading of a question, as the planner uses it.

``Reading`` holds the slot probabilities of the masked question and turns them into what the
planner combines with its lexicon cues: a probability for each relation walked first from the
seed, the intent the bank favours, and relation questions to ask back when two readings are
close.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from engine.graph.metapaths import Metapath
from engine.graph.relations import UNDIRECTED, DirectedRel, directed_uses
from engine.providers.embedder.base import Vectors
from engine.understand.bank import Slot
from engine.understand.semantic import SlotScores

SEM_WEIGHT = 1.0
"""Weight of ``log P_sem(first hop)`` added to a metapath's lexicon score."""
SEM_FLOOR = 0.02
"""Probability floor inside the log, so an unseen relation is penalised, not forbidden."""
SEM_ACCEPT = 0.5
"""A seed-relation reading the lexicon cannot explain is accepted from meaning alone above this
(calibrated) probability."""
SEM_CONFIDENT = 0.8
"""A one-hop reading at least this probable names the relation asked, whatever the cue words
suggest (when the kind the question asks for agrees with it)."""
SEM_GRAPH = 0.6
"""A question that says more than a graph question (words beyond its names and relation
cues) is still read as a graph question when its top reading is a relation or chain of a
linked entity at least this probable (the literature slot competes in the same softmax)."""
CLOSE_RATIO = 0.6
"""Ask back when the runner-up relation is at least this fraction of the best one."""

MULTIHOP_USES: dict[str, tuple[str, ...]] = {
    "multihop.drug->gene->disease": ("CbG", "DaG^-1"),
    "multihop.disease->drug->sideeffect": ("CtD^-1", "CcSE"),
    "multihop.disease->gene->pathway": ("DaG", "GpPW"),
    "multihop.drug->disease->symptom": ("CtD", "DpS"),
    "multihop.disease->disease->drug": ("DrD", "CtD^-1"),
}
"""The multi-hop slots of the bank as relation chains (SLOTS.md describes each)."""


def slot_path(slot: Slot) -> tuple[DirectedRel, ...] | None:
    if slot.use is not None:
        return (slot.use,)
    keys = MULTIHOP_USES.get(slot.id)
    if keys is None:
        return None
    by_key = {u.key: u for u in directed_uses()}
    return tuple(by_key[k] for k in keys if k in by_key) or None


@dataclass(frozen=True)
class Reading:
    scores: SlotScores
    slots: dict[str, Slot]
    question_vec: Vectors | None = None
    """The raw question's embedding, computed in the same batch (reused by passage search)."""
    masked_vec: Vectors | None = None
    """The embedding of the scored text (names masked), reused by the scope reader."""

    def intent_prob(self, intent: str) -> float:
        return sum(p for sid, p in self.scores.probs.items() if self.slots[sid].intent == intent)

    def top_slot(self) -> tuple[Slot, float] | None:
        top = self.scores.top(1)
        return (self.slots[top[0][0]], top[0][1]) if top else None

    def first_hops(self, kind: str) -> dict[str, float]:
        """P(first relation use from a seed of ``kind``), from the graph slots given that kind,
        renormalised over them."""
        mass: dict[str, float] = {}
        for sid, p in self.scores.probs.items():
            slot = self.slots[sid]
            path = slot_path(slot)
            if path is None or path[0].src != kind:
                continue
            mass[path[0].key] = mass.get(path[0].key, 0.0) + p
        total = sum(mass.values())
        return {k: v / total for k, v in mass.items()} if total > 0 else {}

    def claim_mass(self, a: str, b: str) -> float:
        """Probability that a yes/no question naming an ``a`` and a ``b`` asks whether they are
        related: the claim slots, and the one-hop slots between those two kinds (a question
        that names both ends of a relation and wants a yes or a no asks about that edge)."""
        ends = {a, b}
        return sum(
            p
            for sid, p in self.scores.probs.items()
            if self.slots[sid].intent == "claim"
            or (
                (path := slot_path(self.slots[sid])) is not None
                and len(path) == 1
                and {path[0].src, path[0].dst} == ends
            )
        )

    def graph_mass(self, kind: str) -> float:
        """Probability that the question asks a graph relation from a seed of ``kind``."""
        return sum(
            p
            for sid, p in self.scores.probs.items()
            if (path := slot_path(self.slots[sid])) is not None and path[0].src == kind
        )

    def bonus(self, mp: Metapath, hops: dict[str, float]) -> float:
        if not hops:
            return 0.0
        return SEM_WEIGHT * math.log(SEM_FLOOR + hops.get(mp.uses[0].key, 0.0))

    def confident_path(
        self,
        kind: str,
        named: frozenset[str],
        asked: str | None = None,
        threshold: float = SEM_CONFIDENT,
    ) -> tuple[DirectedRel, ...] | None:
        """The relation (or chain of relations) the question asks from an entity of ``kind``
        when the bank is sure of it: the top slot is a one-hop or multi-hop slot starting at
        ``kind`` with probability at least ``SEM_CONFIDENT``, and the kinds the question
        names (``named``, kind nouns outside mentions; ``asked``, the first of them) fit it.

        The probability is over the slots the question's kinds allow; a question about a
        chain the bank has no multi-hop slot for ("diseases treated by drugs of class X")
        can look confident about the chain's first hop. A chain shows in its nouns: a kind
        that is not on the path, or (for one hop) the answer kind named after another asked
        kind ("drugs treating diseases that resemble those X treats")."""
        top = self.top_slot()
        if top is None:
            return None
        slot, p = top
        path = slot_path(slot)
        if slot.id in self.scores.directed:
            # the words say the direction of an up/down relation, which the cue tables and
            # the embedding barely see: that reading needs only to be the likelier one
            threshold = min(threshold, SEM_ACCEPT)
        if path is None or path[0].src != kind or p < threshold:
            return None
        if slot.intent not in {"one_hop", "multihop"}:
            return None
        on_path = {kind} | {u.dst for u in path}
        if any(k not in on_path and k not in slot.noun_kinds for k in named):
            return None
        last = path[-1].dst
        if len(path) == 1 and asked is not None and asked != last and last in named:
            return None
        return path

    def claim_relations(self) -> list[str]:
        """Relations of the claim slots, most probable first ('claim.binds' -> 'CbG')."""
        from engine.understand.bank import SLOT_RELATION

        ranked = sorted(
            ((sid, p) for sid, p in self.scores.probs.items() if sid.startswith("claim.")),
            key=lambda kv: -kv[1],
        )
        return [SLOT_RELATION[sid[6:]] for sid, _ in ranked if sid[6:] in SLOT_RELATION]


def close_pair(
    dist: list[tuple[Metapath, float]],
) -> tuple[DirectedRel, DirectedRel] | None:
    """The two best one-hop readings when they are close enough to ask which is meant."""
    firsts: dict[DirectedRel, float] = {}
    for mp, p in dist:
        if len(mp) == 1:
            firsts[mp.uses[0]] = firsts.get(mp.uses[0], 0.0) + p
    ranked = sorted(firsts.items(), key=lambda kv: -kv[1])
    if len(ranked) < 2:
        return None
    (u1, p1), (u2, p2) = ranked[0], ranked[1]
    if p2 >= CLOSE_RATIO * p1 and p1 + p2 >= 0.6:
        return u1, u2
    return None


class Plural(NamedTuple):
    """A node kind's plural noun, as people ask for such things and as a list is headed."""

    asked: str
    """'drugs', 'body parts': how a question asked back names them."""
    listed: str
    """'compounds', 'anatomical structures': how an answer's headline names them."""


PLURAL: dict[str, Plural] = {
    "Compound": Plural("drugs", "compounds"),
    "Disease": Plural("diseases", "diseases"),
    "Gene": Plural("genes", "genes"),
    "Symptom": Plural("symptoms", "symptoms"),
    "Anatomy": Plural("body parts", "anatomical structures"),
    "Pharmacologic Class": Plural("drug classes", "pharmacologic classes"),
    "Side Effect": Plural("side effects", "side effects"),
    "Pathway": Plural("pathways", "pathways"),
    "Biological Process": Plural("biological processes", "biological processes"),
    "Molecular Function": Plural("molecular functions", "molecular functions"),
    "Cellular Component": Plural("cellular components", "cellular components"),
}
"""Node kinds as plural nouns (the one table: the explainer's headlines read it too)."""
GLOSS: dict[str, tuple[str, str]] = {
    "CtD": ("treat", "treats"),
    "CpD": ("only relieve the symptoms of", "only relieves the symptoms of"),
    "CbG": ("bind", "binds"),
    "CuG": ("raise the expression of", "raises the expression of"),
    "CdG": ("lower the expression of", "lowers the expression of"),
}
"""Relation glosses for a clarifying question: (plural subject, singular subject)."""


def phrase(use: DirectedRel, seed: str) -> str:
    """'drugs that treat asthma', 'genes that Clozapine binds'."""
    dst = PLURAL[use.dst].asked if use.dst in PLURAL else use.dst.lower()
    plural, singular = GLOSS.get(use.rel, (use.verb.removesuffix("s"), use.verb))
    if use.inverse or use.rel in UNDIRECTED:
        return f"{dst} that {plural} {seed}"
    return f"{dst} that {seed} {singular}"


def relation_question(pair: tuple[DirectedRel, DirectedRel], seed: str) -> str:
    a, b = pair
    return f"Do you mean {phrase(a, seed)}, or {phrase(b, seed)}?"
