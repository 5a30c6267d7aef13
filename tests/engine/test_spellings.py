"""A disease typed in British spelling is the one the data writes in American spelling, and a
clinician's "what can I give" asks for a remedy."""

from __future__ import annotations

from pathlib import Path

import duckdb

from engine.agent.planner import disease_named_by
from engine.graph.store import KGStore
from engine.ingest import kg as kgload
from engine.understand.lexicon import COMPILED_CUES
from engine.util.wordforms import american


def test_british_letter_groups_fold_to_american() -> None:
    assert [american(w) for w in ("anaemia", "oedema", "tumour", "mobilisation", "asthma")] == [
        "anemia",
        "edema",
        "tumor",
        "mobilization",
        "asthma",
    ]


def test_a_disease_named_in_british_spelling_is_found(tmp_path: Path) -> None:
    path = tmp_path / "kg.duckdb"
    con = duckdb.connect(str(path))
    con.execute(kgload.SCHEMA)
    kgload.bulk_insert(
        con,
        "nodes",
        [
            ("Disease::SCA", "sickle cell anemia", "Disease", "hetionet"),
            ("Compound::HU", "Hydroxyurea", "Compound", "hetionet"),
        ],
    )
    kgload.bulk_insert(
        con,
        "triples",
        [("Compound::HU", "CtD", "Disease::SCA", "hetionet", "hetionet", None, None)],
    )
    con.close()
    assert disease_named_by(KGStore(path), "sickle cell anaemia") == "Disease::SCA"


def test_what_can_i_give_is_a_remedy_cue() -> None:
    def rels(text: str) -> set[str]:
        return {r for rx, found, _ in COMPILED_CUES if rx.search(text) for r in found}

    assert "CtD" in rels("acute migraine what can i give")
    assert "CtD" in rels("what do we give for gout")
    assert "CtD" not in rels("what can i say")
