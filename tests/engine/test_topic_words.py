"""A literature answer must address the question's subject matter: a study of vitamin D and T
cells answers no question about vitamin D and falls."""

from __future__ import annotations

from pathlib import Path

import duckdb

from engine.agent.evidence import attach_passages
from engine.graph.store import KGStore
from engine.index.dense import PassageHit
from engine.ingest import kg as kgload
from engine.result import Result, Status
from engine.understand.relevance import Floor, relevant, topic_words

SHARES = {"falls": 0.002, "sepsis": 0.004, "patients": 0.4, "reduce": 0.05, "older": 0.03}


def test_topic_words_are_the_rare_words_some_passage_uses() -> None:
    uncovered = ["supplementation", "prevent", "falls", "older", "patients", "wondering", "u"]
    got = topic_words(uncovered, lambda w: SHARES.get(w, 0.0))
    # "wondering" no passage uses (a filler word, a typo): it tells nothing
    assert got == ["falls"]


def test_a_document_that_lacks_a_topic_word_is_not_relevant() -> None:
    hits = [
        PassageHit("pubmedqa:1:0", 0.9, 0.8, 9.0),
        PassageHit("pubmedqa:2:0", 0.8, 0.7, 8.0),
    ]
    texts = {
        "pubmedqa:1:0": "Vitamin D supplementation increased regulatory T cells.",
        "pubmedqa:2:0": "Vitamin D supplementation and the risk of falls in older women.",
    }
    assert [h.id for h in relevant(hits, Floor(), texts=texts)] == [h.id for h in hits]
    kept = relevant(hits, Floor(), texts=texts, topic=["falls"])
    assert [h.id for h in kept] == ["pubmedqa:2:0"]


def test_a_topic_word_matches_its_other_forms_and_spellings() -> None:
    hits = [PassageHit("pubmedqa:3:0", 0.9, 0.8, 9.0)]
    texts = {"pubmedqa:3:0": "Smoking and early mobilization after spinal fusion."}
    for topic in (["smokers", "mobilisation"], ["smoke", "fusions"]):
        assert [h.id for h in relevant(hits, Floor(), texts=texts, topic=topic)] == ["pubmedqa:3:0"]
    assert relevant(hits, Floor(), texts=texts, topic=["smokers", "knee"]) == []


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
