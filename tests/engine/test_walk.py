"""Walker budgets on a synthetic graph that would explode without caps."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from engine.graph.edges import LocalEdgePredictor
from engine.graph.metapaths import Metapath
from engine.graph.relations import directed_uses
from engine.graph.store import KGStore
from engine.graph.walk import Budget, Walker
from engine.ingest import kg as kgload

USES = {u.key: u for u in directed_uses()}


@pytest.fixture(scope="module")
def dense_gene_graph(tmp_path_factory: pytest.TempPathFactory) -> KGStore:
    """600 genes, each interacting with 60 others: a 3-hop walk touches everything."""
    path = Path(tmp_path_factory.mktemp("walk")) / "kg.duckdb"
    con = duckdb.connect(str(path))
    con.execute(kgload.SCHEMA)
    n = 600
    kgload.bulk_insert(con, "nodes", [(f"Gene::{i}", f"G{i}", "Gene") for i in range(n)])
    rows = {
        (min(i, (i * 7 + k) % n), max(i, (i * 7 + k) % n))
        for i in range(n)
        for k in range(1, 61)
        if (i * 7 + k) % n != i
    }
    kgload.bulk_insert(
        con, "triples", [(f"Gene::{a}", "GiG", f"Gene::{b}", "synthetic") for a, b in sorted(rows)]
    )
    con.close()
    return KGStore(path)


def _dist(*keys: str) -> list[tuple[Metapath, float]]:
    return [(Metapath(tuple(USES[k] for k in keys)), 1.0)]


def test_node_budget_caps_expansion(dense_gene_graph: KGStore) -> None:
    walker = Walker(dense_gene_graph, LocalEdgePredictor(), Budget(3, 40, 10_000))
    res = walker.walk([0], _dist("GiG", "GiG", "GiG"), qhash="q")
    assert res.stop_reason == "budget: nodes"
    assert res.expanded == 40


def test_time_budget_stops_the_walk(dense_gene_graph: KGStore) -> None:
    walker = Walker(dense_gene_graph, LocalEdgePredictor(), Budget(3, 10**6, 5.0))
    res = walker.walk([0], _dist("GiG", "GiG", "GiG"), qhash="q2")
    assert res.stop_reason == "budget: time"
    assert res.elapsed_ms < 500


def test_depth_budget_and_progressive_depth(dense_gene_graph: KGStore) -> None:
    walker = Walker(dense_gene_graph, LocalEdgePredictor(), Budget(1, 10**6, 10_000))
    res = walker.walk([0], _dist("GiG", "GiG", "GiG"), qhash="q3")
    assert res.depth == 1
    assert all(len(p.uses) == 1 for p in res.paths)
    accepted = Walker(dense_gene_graph, LocalEdgePredictor(), Budget(3, 10**6, 10_000)).walk(
        [0],
        _dist("GiG") + _dist("GiG", "GiG"),
        qhash="q4",
        accept=lambda paths, d: bool(paths),
    )
    assert accepted.stop_reason == "answered"
    assert accepted.depth == 1


def test_paths_never_revisit_a_node(dense_gene_graph: KGStore) -> None:
    walker = Walker(dense_gene_graph, LocalEdgePredictor(), Budget(2, 30, 10_000))
    res = walker.walk([0], _dist("GiG", "GiG"), qhash="q5")
    assert res.paths
    for p in res.paths:
        assert len(set(p.nodes)) == len(p.nodes)


def test_the_budget_defaults_are_the_settings_defaults() -> None:
    from engine.config import Settings

    defaults = Settings(_env_file=None)  # type: ignore[call-arg]
    assert Budget() == Budget.of(defaults)
