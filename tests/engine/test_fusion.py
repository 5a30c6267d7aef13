from __future__ import annotations

import random

from engine.ranking.fusion import fuse, minmax, rrf, weighted


def reference_rrf(rankings: list[list[str]], k: int = 60) -> dict[str, float]:
    out: dict[str, float] = {}
    for ranking in rankings:
        for i, key in enumerate(ranking):
            out[key] = out.get(key, 0.0) + 1 / (k + i + 1)
    return out


def test_rrf_matches_reference_on_random_lists() -> None:
    rng = random.Random(7)
    for _ in range(50):
        pool = [f"d{i}" for i in range(30)]
        lists = [rng.sample(pool, rng.randint(0, 20)) for _ in range(rng.randint(1, 4))]
        got = dict(rrf(lists))
        ref = reference_rrf(lists)
        assert got.keys() == ref.keys()
        for key, value in ref.items():
            assert abs(got[key] - value) < 1e-12
        scores = [s for _, s in rrf(lists)]
        assert scores == sorted(scores, reverse=True)


def test_weighted_is_the_documented_convex_combination() -> None:
    graph = {"a": 3.0, "b": 1.0, "c": 2.0}
    dense = {"b": 0.9, "d": 0.1}
    got = dict(weighted(graph, dense, 0.6))
    g, d = minmax(graph), minmax(dense)
    for key in {"a", "b", "c", "d"}:
        assert abs(got[key] - (0.6 * g.get(key, 0) + 0.4 * d.get(key, 0))) < 1e-12
    assert next(iter(got)) == "a"


def test_fuse_presets_and_edge_cases() -> None:
    assert weighted({}, {}) == []
    assert dict(weighted({"x": 5.0}, {})) == {"x": 0.6}
    assert next(k for k, _ in fuse({"a": 2, "b": 1}, {"b": 1.0}, "rrf")) == "b"
