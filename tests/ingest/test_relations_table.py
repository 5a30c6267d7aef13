"""The ``relations`` table of ``kg.duckdb``: written without the relation paraphrases (nothing
read them), into new stores and into stores built while they were still written."""

from __future__ import annotations

from pathlib import Path

import duckdb

from engine.graph.relations import RELATIONS, Relation
from engine.ingest import kg as kgload

OLD_RELATIONS = """
CREATE TABLE relations (
    rel VARCHAR PRIMARY KEY, source_kind VARCHAR, target_kind VARCHAR, verb VARCHAR,
    description VARCHAR, undirected BOOLEAN, paraphrases VARCHAR,
    layer VARCHAR DEFAULT 'hetionet');
"""


def _columns(con: duckdb.DuckDBPyConnection) -> list[str]:
    return [r[0] for r in con.execute("DESCRIBE relations").fetchall()]


def test_a_new_store_keeps_no_paraphrases(tmp_path: Path) -> None:
    con = duckdb.connect(str(tmp_path / "kg.duckdb"))
    con.execute(kgload.SCHEMA)
    kgload.load_relations(con)
    assert "paraphrases" not in _columns(con)
    rows = con.execute("SELECT rel, verb, layer FROM relations ORDER BY rel").fetchall()
    assert rows == sorted((r.rel, r.verb, "hetionet") for r in RELATIONS)


def test_a_store_built_with_paraphrases_still_takes_relations(tmp_path: Path) -> None:
    con = duckdb.connect(str(tmp_path / "kg.duckdb"))
    con.execute(OLD_RELATIONS)
    added = Relation("has_mode", "Disease", "Gene", "has mode", "KGX predicate", (), ())
    kgload.load_relations(con, [added], "kgx-layer")
    row = con.execute("SELECT rel, paraphrases, layer FROM relations").fetchall()
    assert row == [("has_mode", None, "kgx-layer")]
