"""How well a metapath explains the relation cues of a question.

``score_metapath`` is a pure function: a relation sequence read against the cues outward from
the seed mention (English chains such as "diseases treated by drugs that bind ADH6" name the
hop nearest the seed last-to-first).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.graph.metapaths import Metapath
from engine.graph.relations import DirectedRel
from engine.understand.lexicon import Cue


@dataclass(frozen=True)
class CueWeights:
    in_order: float = 2.0
    out_of_order: float = 1.0
    implicit_hop: float = -2.5
    reversal: float = -3.0
    shared_repeat: float = -0.2
    unused_cue: float = -1.0
    wrong_target: float = -5.0
    per_hop: float = -0.3
    noun_hop: float = 2.5
    """Per hop beyond the answer whose kind the question names, in order, when its kind nouns
    spell the whole chain (offsets an implicit hop: the noun says where the path goes)."""


PREPOSITION_GAP = 5
"""A cue ending at most this many characters before the seed ("similar to X", "treated by X")
governs the seed directly and is read first."""


def merge_repeats(cues: tuple[Cue, ...]) -> list[Cue]:
    """Drop a cue that repeats the relation of the previous cue with no other cue between
    ("symptoms ... present with", "indicated for the treatment of")."""
    out: list[Cue] = []
    for c in cues:
        if out and out[-1].rels == c.rels:
            if c.weight > out[-1].weight:
                out[-1] = c
            continue
        out.append(c)
    return out


def order_cues(cues: tuple[Cue, ...], seed_start: int, seed_end: int) -> list[Cue]:
    """Cues sorted by distance from the seed mention, nearest first."""

    def dist(c: Cue) -> float:
        if c.end <= seed_start:
            gap = seed_start - c.end
            return -1.0 if gap <= PREPOSITION_GAP else float(gap)
        return float(max(0, c.start - seed_end))

    return sorted(merge_repeats(cues), key=dist)


def score_metapath(
    mp: Metapath,
    ordered_cues: list[Cue],
    target_kind: str | None,
    share: bool = False,
    w: CueWeights = CueWeights(),
    noun_chain: tuple[str, ...] = (),
) -> float:
    score = w.per_hop * len(mp)
    if len(noun_chain) >= 2 and noun_chain == tuple(u.dst for u in reversed(mp.uses)):
        score += w.noun_hop * (len(noun_chain) - 1)
    used: set[int] = set()
    next_cue = 0
    for h, use in enumerate(mp.uses):
        while next_cue < len(ordered_cues) and next_cue in used:
            next_cue += 1
        support = (
            ordered_cues[next_cue].supports.get(use.rel, 0.0)
            if next_cue < len(ordered_cues)
            else 0.0
        )
        if support:
            score += w.in_order * support
            used.add(next_cue)
            continue
        other = next(
            (i for i, c in enumerate(ordered_cues) if i not in used and use.rel in c.supports),
            None,
        )
        if other is not None:
            score += w.out_of_order * ordered_cues[other].supports[use.rel]
            used.add(other)
        elif share and h > 0 and _reverses(mp.uses[h - 1], use):
            score += w.shared_repeat
        else:
            score += w.implicit_hop
        if h > 0 and _reverses(mp.uses[h - 1], use) and not share:
            score += w.reversal
    score += w.unused_cue * sum(c.weight for i, c in enumerate(ordered_cues) if i not in used)
    if target_kind is not None and mp.dst != target_kind:
        score += w.wrong_target
    return score


def _reverses(a: DirectedRel, b: DirectedRel) -> bool:
    """b walks straight back along a's relation (X -r-> Y -r-> X-kind)."""
    return a.rel == b.rel and (a.inverse != b.inverse or a.src == a.dst)


# --- Project Rephetio metapaths (mechanism questions) -------------------------------------
