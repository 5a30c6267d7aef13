"""The passages an answer rests on lead its evidence."""

from __future__ import annotations

from pathlib import Path

import duckdb

from engine.agent.evidence import attach_passages
from engine.graph.store import KGStore
from engine.index.dense import PassageHit
from engine.ingest import kg as kgload
from engine.result import Result, Status


def test_the_passages_an_answer_rests_on_lead_its_evidence(tmp_path: Path) -> None:
    path = tmp_path / "kg.duckdb"
    con = duckdb.connect(str(path))
    con.execute(kgload.SCHEMA)
    kgload.bulk_insert(
        con,
        "passages",
        [(f"pubmedqa:{k}:0", "pubmedqa", "", f"text {k}", "q") for k in (1, 2, 3)],
    )
    con.close()
    hits = [PassageHit(f"pubmedqa:{k}:0", 1.0 - k / 10, 0.5, 5.0) for k in (1, 2, 3)]
    result = Result(status=Status.ANSWERED)
    attach_passages(result, KGStore(path), hits, {"pubmedqa:3:0"})
    assert [(e.id, e.relevant) for e in result.evidence] == [
        ("pubmedqa:3:0", True),
        ("pubmedqa:1:0", False),
        ("pubmedqa:2:0", False),
    ]
