"""A set question's answer (``understand.sets``): the walk from each of its two entities,
combined; each answer keeps its path from every entity it holds for."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from engine.graph.walk import WalkPath, WalkResult
from engine.understand.sets import BOTH, SetOp


def combined(op: SetOp, walks: Sequence[WalkResult], end: Callable[[WalkPath], str]) -> WalkResult:
    """The first walk with the paths of the answers that hold: reached from both entities
    (``BOTH``: the paths from each), or from the first and not the second."""
    ends = [{end(p) for p in w.paths} for w in walks]
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
