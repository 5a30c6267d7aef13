"""Rank fusion: pure functions over ranked lists / score maps."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

from engine.ranking.presets import RRF_K, Fusion

K = TypeVar("K", bound=Hashable)

FLAT = 1e-12
"""A score range narrower than this is one score repeated (float noise), not a ranking."""


def minmax(scores: Mapping[K, float]) -> dict[K, float]:
    """Scale scores to [0, 1]; a single or constant list maps to 1.0."""
    if not scores:
        return {}
    lo, hi = min(scores.values()), max(scores.values())
    if hi - lo < FLAT:
        return dict.fromkeys(scores, 1.0)
    return {k: (v - lo) / (hi - lo) for k, v in scores.items()}


def weighted(
    graph: Mapping[K, float], dense: Mapping[K, float], graph_weight: float
) -> list[tuple[K, float]]:
    """``w * graph + (1 - w) * dense`` over min-max-scaled scores; missing scores count 0."""
    g, d = minmax(graph), minmax(dense)
    keys = list(dict.fromkeys([*graph, *dense]))
    fused = {k: graph_weight * g.get(k, 0.0) + (1 - graph_weight) * d.get(k, 0.0) for k in keys}
    return sorted(fused.items(), key=lambda kv: -kv[1])


def rrf(rankings: Sequence[Sequence[K]], k: int = RRF_K) -> list[tuple[K, float]]:
    """Reciprocal rank fusion: ``sum 1 / (k + rank)`` with ranks from 1."""
    scores: dict[K, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda kv: -kv[1])


def fuse(
    graph: Mapping[K, float], dense: Mapping[K, float], fusion: Fusion
) -> list[tuple[K, float]]:
    """Graph and dense scores combined as ``fusion`` says."""
    if fusion.method == "rrf":
        return rrf(
            [
                [k for k, _ in sorted(graph.items(), key=lambda kv: -kv[1])],
                [k for k, _ in sorted(dense.items(), key=lambda kv: -kv[1])],
            ],
            fusion.rrf_k,
        )
    return weighted(graph, dense, fusion.graph_weight)
