"""Ranking after the walk: which paths to keep, how their ends score as answers, and how
memory boosts re-rank them. Pure functions over walk output and results; every weight is named.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence

from engine.graph.metapaths import Metapath
from engine.graph.walk import WalkPath
from engine.result import Result, Triple

KEEP_READING_RATIO = 0.5
"""A path is kept when its reading (metapath) is at least this share as probable as the most
probable reading that some found path follows."""

PATH_BASE, SPECIFICITY_WEIGHT = 0.8, 0.2
"""A path's score: ``conf * (PATH_BASE + SPECIFICITY_WEIGHT * specificity)`` (the two sum to 1):
a specific path, one that avoids hub nodes, scores up to a fifth more than a generic one."""

SUPPORT_BASE, SUPPORT_WEIGHT = 0.9, 0.1
"""An answer's graph score: its best path score times ``SUPPORT_BASE + SUPPORT_WEIGHT *
support / top_support``, where support counts the paths reaching it (the two sum to 1)."""


def rank_paths(paths: Sequence[WalkPath], dist: Sequence[tuple[Metapath, float]]) -> list[WalkPath]:
    """Paths whose reading is nearly as likely as the best one found, most likely reading first,
    then the more specific path, then by node ids (deterministic)."""
    prob = {mp.uses: p for mp, p in dist}
    best_found = max((prob.get(p.uses, 0.0) for p in paths), default=0.0)
    keep = [p for p in paths if prob.get(p.uses, 0.0) >= KEEP_READING_RATIO * best_found]
    return sorted(keep, key=lambda p: (-prob.get(p.uses, 0.0), -p.specificity, p.nodes))


def path_score(path: WalkPath) -> float:
    return path.conf * (PATH_BASE + SPECIFICITY_WEIGHT * path.specificity)


FIRST_HOP_BASE, FIRST_HOP_SHARE = 0.8, 0.2
"""With first-hop weights (``graph_scores``' ``first_hop``, in [0, 1]), a path's score is
``path_score * (FIRST_HOP_BASE + FIRST_HOP_SHARE * weight)`` and it adds its weight, not 1, to
its answer's support: a pathway reached through the receptor a drug blocks comes before one
reached through the enzymes that metabolise it and every other drug."""


def graph_scores(
    paths: Sequence[WalkPath],
    end_of: Callable[[WalkPath], str],
    first_hop: Callable[[WalkPath], float] | None = None,
) -> dict[str, float]:
    """Answer id -> graph score over the paths ``end_of`` gives it to (a path's end; for a
    mechanism, the node it passes through after the drug); ``first_hop``: the evidence of a
    path's first edge, relative to the best first edge (``FIRST_HOP_BASE``)."""
    support: dict[str, float] = defaultdict(float)
    best: dict[str, float] = {}
    for p in paths:
        end = end_of(p)
        w = 1.0 if first_hop is None else first_hop(p)
        score = path_score(p) * (1.0 if first_hop is None else FIRST_HOP_BASE + FIRST_HOP_SHARE * w)
        best[end] = max(best.get(end, 0.0), score)
        support[end] += w
    top_support = max(support.values(), default=1.0) or 1.0
    return {
        n: b * (SUPPORT_BASE + SUPPORT_WEIGHT * support[n] / top_support) for n, b in best.items()
    }


def apply_boosts(result: Result, boosts: Mapping[Triple, float]) -> None:
    """Multiply the scores of answers touching a boosted triple (the largest factor of the
    triples they are in) and of that triple's evidence; re-sort the answers when one changed."""
    factor: dict[str, float] = {}
    for t, f in boosts.items():
        for node in (t[0], t[2]):
            factor[node] = max(factor.get(node, 1.0), f)
    changed = False
    for a in result.answers:
        if a.id in factor and factor[a.id] > 1.0:
            a.score = round(a.score * factor[a.id], 4)
            changed = True
    for e in result.evidence:
        if e.triple is not None and e.triple in boosts:
            e.score = round(e.score * boosts[e.triple], 4)
    if changed:
        result.answers.sort(key=lambda a: -a.score)
        result.memory_boosted = True
