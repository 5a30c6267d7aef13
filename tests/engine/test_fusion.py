from __future__ import annotations

import random
from typing import get_args

from engine.config import Mode, Settings
from engine.ranking.fusion import fuse, minmax, rrf, weighted
from engine.ranking.presets import MODES, RRF_K, Fusion


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
    assert weighted({}, {}, 0.6) == []
    assert dict(weighted({"x": 5.0}, {}, 0.6)) == {"x": 0.6}
    assert next(k for k, _ in fuse({"a": 2, "b": 1}, {"b": 1.0}, Fusion("rrf", 0.6))) == "b"


def test_fuse_follows_the_settings() -> None:
    graph, dense = {"a": 3.0, "b": 1.0}, {"b": 0.9, "c": 0.5}
    weighted_fusion = Fusion.of(Settings(graph_weight=0.3))
    assert weighted_fusion == Fusion("weighted", 0.3, RRF_K)
    assert fuse(graph, dense, weighted_fusion) == weighted(graph, dense, 0.3)
    assert fuse(graph, dense, Fusion.of(Settings(fusion="rrf"))) == rrf([["a", "b"], ["b", "c"]])


def test_every_mode_has_one_preset() -> None:
    assert set(MODES) == set(get_args(Mode))
    assert all(MODES[m].mode == m for m in MODES)
    assert [m for m, p in MODES.items() if p.baseline] == ["dense"]
    assert [m for m, p in MODES.items() if p.passages] == ["hybrid"]
