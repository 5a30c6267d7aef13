"""A set question's answer (``understand.sets``): the walk from each of its two entities,
combined; each answer keeps its path from every entity it holds for."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from engine.graph.walk import WalkPath, WalkResult
from engine.result import LinkedEntity, Result
from engine.understand.sets import ANY, BOTH, SetOp


def combined(op: SetOp, walks: Sequence[WalkResult], end: Callable[[WalkPath], str]) -> WalkResult:
    """The first walk with the paths of the answers that hold: reached from every entity
    (``BOTH``: the paths from each), from any (``ANY``: each with its paths from every entity
    that reaches it), or from the first and not the rest."""
    ends = [{end(p) for p in w.paths} for w in walks]
    if op == ANY:
        paths = [p for w in walks for p in w.paths]
        return replace(walks[0], paths=paths, expanded=sum(w.expanded for w in walks))
    if op == BOTH:
        keep = set.intersection(*ends)
        paths = [p for w in walks for p in w.paths if end(p) in keep]
    else:
        keep = ends[0] - set().union(*ends[1:])
        paths = [p for p in walks[0].paths if end(p) in keep]
    return replace(walks[0], paths=paths, expanded=sum(w.expanded for w in walks))


def counts(walks: Sequence[WalkResult], end: Callable[[WalkPath], str]) -> list[int]:
    """How many answers each entity's walk reached."""
    return [len({end(p) for p in w.paths}) for w in walks]


def held(walks: Sequence[WalkResult], end: Callable[[WalkPath], str]) -> dict[str, int]:
    """Answer -> how many of the walks reach it."""
    return dict(Counter(e for w in walks for e in {end(p) for p in w.paths}))


def by_members(result: Result, held_by: Mapping[str, int]) -> None:
    """An answer of any of several entities held by more of them comes first ("what do they
    target": the targets the drugs share before those of one drug); within a count, the
    evidence order stays, and the paths follow their answers."""
    result.answers.sort(key=lambda a: -held_by.get(a.id, 0))
    place = {a.id: i for i, a in enumerate(result.answers)}
    last = 1 << 30
    result.paths.sort(
        key=lambda p: min((place.get(n, last) for t in p for n in (t[0], t[2])), default=last)
    )


def kept_to(walk: WalkResult, members: Sequence[LinkedEntity], ids: Sequence[str]) -> WalkResult:
    """``walk`` with only the paths that end at one of ``members`` (a "which of ..." question:
    the listed things the relation links to its seed)."""
    wanted = {e.id for e in members}
    return replace(walk, paths=[p for p in walk.paths if ids[p.end] in wanted])
