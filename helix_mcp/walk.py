"""Bounded multi-hop paths from a node along a given sequence of relations (a metapath)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.graph.relations import BY_ABBREV, UNDIRECTED
from engine.result import Triple

TriplesOf = Callable[[str, str, int], list[Triple]]
"""``(node_id, rel, limit)`` -> stored triples with ``node_id`` as subject or object."""

MAX_HOPS = 4


class WalkError(ValueError):
    """The relation sequence cannot be walked (unknown relation, kinds that do not chain)."""


@dataclass(frozen=True)
class Hop:
    rel: str
    inverse: bool

    @property
    def code(self) -> str:
        return f"{self.rel}^-1" if self.inverse else self.rel

    @property
    def source(self) -> str:
        r = BY_ABBREV[self.rel]
        return r.target if self.inverse else r.source

    @property
    def target(self) -> str:
        r = BY_ABBREV[self.rel]
        return r.source if self.inverse else r.target


@dataclass
class WalkOutcome:
    paths: list[list[Triple]] = field(default_factory=list)
    expanded: int = 0
    truncated: bool = False


def parse_hops(codes: Sequence[str], start_kind: str | None = None) -> list[Hop]:
    """``["CbG", "DaG^-1"]`` -> hops; checks each code and that the kinds chain."""
    if not 1 <= len(codes) <= MAX_HOPS:
        raise WalkError(f"give 1 to {MAX_HOPS} relations, got {len(codes)}")
    hops: list[Hop] = []
    for code in codes:
        rel, inverse = (code[:-3], True) if code.endswith("^-1") else (code, False)
        if rel not in BY_ABBREV:
            raise WalkError(
                f"unknown relation {code!r}; known: {', '.join(sorted(BY_ABBREV))} "
                "(append ^-1 to follow one backwards)"
            )
        hops.append(Hop(rel, inverse and rel not in UNDIRECTED))
    kind = start_kind
    for hop in hops:
        if kind is not None and hop.source != kind:
            raise WalkError(
                f"{hop.code} goes from {hop.source} to {hop.target}, but the path is at a {kind}"
                + ("" if hop.inverse else f"; did you mean {hop.rel}^-1?")
            )
        kind = hop.target
    return hops


def _steps(node: str, hop: Hop, triples_of: TriplesOf, fanout: int) -> list[tuple[str, Triple]]:
    out: list[tuple[str, Triple]] = []
    for s, r, o in triples_of(node, hop.rel, fanout * 4):
        if hop.rel in UNDIRECTED:
            other = o if s == node else s
        elif hop.inverse:
            if o != node:
                continue
            other = s
        else:
            if s != node:
                continue
            other = o
        out.append((other, (s, r, o)))
        if len(out) >= fanout:
            break
    return out


def walk(
    start: str,
    hops: Sequence[Hop],
    triples_of: TriplesOf,
    *,
    fanout: int = 25,
    max_paths: int = 20,
    max_expansions: int = 2000,
) -> WalkOutcome:
    """Depth-first paths ``start -hop1-> x -hop2-> ...``, without revisiting a node in a path.

    At most ``fanout`` neighbours per node, ``max_expansions`` nodes expanded in all and
    ``max_paths`` complete paths; ``truncated`` tells whether a bound cut the search.
    """
    result = WalkOutcome()

    def dfs(node: str, depth: int, path: list[Triple], seen: set[str]) -> None:
        if len(result.paths) >= max_paths:
            result.truncated = True
            return
        if depth == len(hops):
            result.paths.append(list(path))
            return
        if result.expanded >= max_expansions:
            result.truncated = True
            return
        result.expanded += 1
        steps = _steps(node, hops[depth], triples_of, fanout)
        if len(steps) >= fanout:
            result.truncated = True
        for other, triple in steps:
            if other in seen:
                continue
            path.append(triple)
            seen.add(other)
            dfs(other, depth + 1, path, seen)
            seen.discard(other)
            path.pop()

    dfs(start, 0, [], {start})
    return result
