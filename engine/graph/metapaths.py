"""Metapaths: typed relation sequences, enumerated over the schema and scored against cues.

``score_metapath`` is a pure function: how well a relation sequence explains the relation cues
of a question, read outward from the seed mention (English chains such as "diseases treated by
drugs that bind ADH6" name the hop nearest the seed last-to-first).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from engine.graph.lexicon import Cue
from engine.graph.relations import BY_ABBREV, KIND_ABBREV, DirectedRel, directed_uses, uses_from


@dataclass(frozen=True)
class Metapath:
    uses: tuple[DirectedRel, ...]

    @property
    def src(self) -> str:
        return self.uses[0].src

    @property
    def dst(self) -> str:
        return self.uses[-1].dst

    @property
    def key(self) -> str:
        return ">".join(u.key for u in self.uses)

    def __len__(self) -> int:
        return len(self.uses)


DATA_MAX_LEN = 2
"""Longest metapath through a relation the data brings (a KGX predicate): such relations are
asked by their own words, one hop or two, not chained into every long reading."""


@lru_cache(maxsize=64)
def enumerate_metapaths(
    src_kind: str, max_len: int = 3, extra: tuple[DirectedRel, ...] = ()
) -> tuple[Metapath, ...]:
    """Relation sequences from ``src_kind`` over the schema, breadth first; ``extra`` uses
    (a store's data relations) appear in paths of at most ``DATA_MAX_LEN`` hops."""
    out: list[Metapath] = []
    frontier: list[tuple[DirectedRel, ...]] = [(u,) for u in uses_from(src_kind)]
    frontier += [(u,) for u in extra if u.src == src_kind]
    plain = set(directed_uses())
    while frontier:
        nxt: list[tuple[DirectedRel, ...]] = []
        for seq in frontier:
            out.append(Metapath(seq))
            if len(seq) >= max_len:
                continue
            nxt.extend((*seq, u) for u in uses_from(seq[-1].dst))
            nxt.extend((*seq, u) for u in extra if u.src == seq[-1].dst)
        frontier = [s for s in nxt if len(s) <= DATA_MAX_LEN or all(u in plain for u in s)]
    return tuple(out)


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
_KIND_BY_ABBREV = {v: k for k, v in KIND_ABBREV.items()}
_TOKEN = re.compile(r"(BP|CC|MF|PW|PC|SE|[ACDGS])([a-z<>]+)?")


def parse_rephetio(abbrev: str) -> Metapath | None:
    """'CbGaD' -> CbG, DaG^-1. Returns None for metapaths outside the loaded schema."""
    parts = _TOKEN.findall(abbrev)
    uses: list[DirectedRel] = []
    by_key = {u.key: u for u in directed_uses()}
    for (k1, letter), (k2, _) in itertools.pairwise(parts):
        letter = letter.replace("<", "").replace(">", "")
        fwd, rev = f"{k1}{letter}{k2}", f"{k2}{letter}{k1}"
        for cand in (fwd, fwd.replace(letter, letter + ">", 1), rev):
            if cand in BY_ABBREV:
                rel = BY_ABBREV[cand]
                inverse = cand == rev and not rel.undirected and rel.source != _KIND_BY_ABBREV[k1]
                key = f"{cand}^-1" if inverse else cand
                if key in by_key:
                    uses.append(by_key[key])
                    break
        else:
            return None
    return Metapath(tuple(uses)) if uses else None


def mechanism_metapaths(
    rows: Iterable[tuple[str, int, float | None]],
) -> tuple[tuple[Metapath, float], ...]:
    """Rephetio Compound->Disease metapaths of length 2-3 kept by its model (coefficient > 0).

    ``rows`` are Rephetio's (abbreviation, length, coefficient), as ingest stores them.
    """
    out: list[tuple[Metapath, float]] = []
    for abbrev, length, coef in rows:
        if coef is None or length not in (2, 3) or coef <= 0:
            continue
        mp = parse_rephetio(abbrev)
        if mp is not None and mp.src == "Compound" and mp.dst == "Disease":
            out.append((mp, coef))
    return tuple(out)
