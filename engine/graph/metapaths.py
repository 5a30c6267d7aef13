"""Metapaths: typed relation sequences, enumerated over the schema, and Rephetio's mechanism
metapaths. How well one explains a question's cues is ``engine.understand.pathfit``."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

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
