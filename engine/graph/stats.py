"""Figures of a built graph store: nodes and edges per layer and kind, and coverage.

Read straight from ``kg.duckdb`` (no adjacency is loaded), for ``helix-chat kg stats``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

import duckdb

from engine.graph.store import StoreMissing


@dataclass
class Coverage:
    diseases: int = 0
    diseases_with_gene: int = 0
    """Diseases with at least one gene association (DaG)."""
    diseases_with_indication: int = 0
    """Diseases with at least one drug indication (CtD)."""
    compounds_with_typed_target: int = 0
    """Compounds with at least one target edge carrying an action type (inhibitor ...)."""


@dataclass
class KGStats:
    layers: list[str] = field(default_factory=list)
    nodes: dict[str, dict[str, int]] = field(default_factory=dict)
    """layer -> kind -> nodes the layer introduced."""
    edges: dict[str, dict[str, int]] = field(default_factory=dict)
    """layer -> relation -> distinct triples the layer states."""
    edges_by_source: dict[str, dict[str, int]] = field(default_factory=dict)
    """layer -> source -> distinct triples."""
    coverage: dict[str, Coverage] = field(default_factory=dict)
    """Per layer set: each layer alone is not meaningful, so the base layer ('hetionet'), the
    layers in build order added one at a time ('hetionet+disease-pack'), and 'all'."""
    sampled: dict[str, dict[str, int]] = field(default_factory=dict)
    """relation -> {'kept', 'total'}: relations a layer holds only a sample of."""
    total_nodes: int = 0
    total_edges: int = 0
    """Distinct (subj, rel, obj) over every layer."""

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def _coverage(con: duckdb.DuckDBPyConnection, layers: list[str]) -> Coverage:
    def one(sql: str) -> int:
        row = con.execute(sql, [layers]).fetchone()
        return int(row[0]) if row else 0

    return Coverage(
        diseases=one(
            "SELECT count(*) FROM nodes WHERE kind = 'Disease' AND (list_contains(?, layer))"
        ),
        diseases_with_gene=one(
            "SELECT count(DISTINCT subj) FROM triples WHERE rel = 'DaG' AND list_contains(?, layer)"
        ),
        diseases_with_indication=one(
            "SELECT count(DISTINCT obj) FROM triples WHERE rel = 'CtD' AND list_contains(?, layer)"
        ),
        compounds_with_typed_target=one(
            "SELECT count(DISTINCT subj) FROM triples WHERE rel = 'CbG' AND detail IS NOT NULL"
            " AND list_contains(?, layer)"
        ),
    )


def kg_stats(path: Path) -> KGStats:
    if not path.exists():
        raise StoreMissing(f"no KG store at {path}; run `helix-chat ingest`")
    with duckdb.connect(str(path), read_only=True) as con:
        cols = {c[1] for c in con.execute("PRAGMA table_info('triples')").fetchall()}
        if "layer" not in cols:
            raise StoreMissing(f"{path} was built before layers; run `helix-chat ingest`")
        st = KGStats()
        st.layers = [
            str(r[0]) for r in con.execute("SELECT name FROM layers ORDER BY built_at").fetchall()
        ]
        for layer, kind, n in con.execute(
            "SELECT layer, kind, count(*) FROM nodes GROUP BY ALL ORDER BY ALL"
        ).fetchall():
            st.nodes.setdefault(str(layer), {})[str(kind)] = int(n)
        for layer, rel, n in con.execute(
            "SELECT layer, rel, count(DISTINCT (subj, obj)) FROM triples GROUP BY ALL ORDER BY ALL"
        ).fetchall():
            st.edges.setdefault(str(layer), {})[str(rel)] = int(n)
        for layer, source, n in con.execute(
            "SELECT layer, source, count(DISTINCT (subj, rel, obj)) FROM triples"
            " GROUP BY ALL ORDER BY ALL"
        ).fetchall():
            st.edges_by_source.setdefault(str(layer), {})[str(source)] = int(n)
        tables = {
            str(r[0]) for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()
        }
        if "sampled_relations" in tables:
            for rel, kept, total in con.execute(
                "SELECT rel, kept, total FROM sampled_relations ORDER BY rel"
            ).fetchall():
                st.sampled[str(rel)] = {"kept": int(kept), "total": int(total)}
        row = con.execute("SELECT count(*) FROM nodes").fetchone()
        st.total_nodes = int(row[0]) if row else 0
        row = con.execute(
            "SELECT count(*) FROM (SELECT DISTINCT subj, rel, obj FROM triples)"
        ).fetchone()
        st.total_edges = int(row[0]) if row else 0
        base = st.layers[:1]
        st.coverage = {base[0] if base else "base": _coverage(con, base)}
        for k in range(2, len(st.layers)):
            st.coverage["+".join(st.layers[:k])] = _coverage(con, st.layers[:k])
        st.coverage["all"] = _coverage(con, st.layers)
        return st
