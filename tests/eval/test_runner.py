"""The runner with a fake engine: results file round trip, and what the engine may see."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.eval.runner import (
    QuestionInput,
    load_questions,
    load_results,
    out_path_for,
    run_eval,
    score,
    score_file,
)
from engine.result import Evidence, Result, Status

from .eval_fakes import answered, table_engine

T1 = ("Compound::DB1", "CtD", "Disease::D1")
T2 = ("Compound::DB2", "CtD", "Disease::D1")

RECORDS = [
    {
        "id": "kgqa-1",
        "kind": "one_hop",
        "question": "What treats D1?",
        "expect_status": "ANSWERED",
        "seeds": ["Disease::D1"],
        "answers": ["Compound::DB1", "Compound::DB2"],
        "gold_triples": [list(T1), list(T2)],
        "gold_paths": [[list(T1)], [list(T2)]],
        "gold_passages": [],
    },
    {
        "id": "psg-1",
        "kind": "passage",
        "question": "Does X help?",
        "expect_status": "ANSWERED",
        "seeds": [],
        "answers": [],
        "gold_triples": [],
        "gold_paths": [],
        "gold_passages": ["pubmedqa:1:0", "pubmedqa:1:1"],
    },
    {
        "id": "neg-1",
        "kind": "negative",
        "question": "Does DB9 treat D9?",
        "expect_status": "NOT_ANSWERED",
        "seeds": ["Compound::DB9", "Disease::D9"],
        "answers": [],
        "gold_triples": [],
        "gold_paths": [],
        "gold_passages": [],
        "claim": ["Compound::DB9", "CtD", "Disease::D9"],
    },
]


def table() -> dict[str, Result]:
    return {
        "What treats D1?": answered(
            "Compound::DB1", T1, latency_ms=12.0, timings={"link": 2.0, "walk": 6.0}
        ),
        "Does X help?": Result(
            status=Status.ANSWERED,
            evidence=[
                Evidence(kind="passage", id="pubmedqa:9:0", score=0.8),
                Evidence(kind="passage", id="pubmedqa:1:1", score=0.7),
            ],
            latency_ms=30.0,
            timings={"dense": 20.0},
        ),
        "Does DB9 treat D9?": Result(status=Status.NOT_ANSWERED, latency_ms=5.0),
    }


@pytest.fixture
def bench(tmp_path: Path) -> Path:
    path = tmp_path / "mini_dev.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS) + "\n", encoding="utf-8")
    return path


def test_run_writes_results_and_rescoring_the_file_matches(bench: Path, tmp_path: Path) -> None:
    questions = load_questions(bench)
    out = tmp_path / "runs" / "results.jsonl"
    ticks: list[int] = []
    results = run_eval(
        table_engine(table()), questions, mode="hybrid", out_path=out, progress=ticks.append
    )
    assert ticks == [1, 1, 1]
    lines = load_results(out)
    assert lines == results
    assert [r["id"] for r in lines] == ["kgqa-1", "psg-1", "neg-1"]
    assert lines[0]["evidence"][0] == {"kind": "triple", "triple": list(T1), "score": 0.9}

    live, from_file = score(questions, results), score_file(bench, out)
    assert live.to_dict() == from_file.to_dict()
    kinds = from_file.by_kind
    assert kinds["one_hop"].means == {
        "evidence_recall@5": 0.5,
        "hit@1": 1.0,
        "hit@5": 1.0,
        "mrr": 1.0,
    }
    assert kinds["passage"].means == {"passage_recall@5": 0.5, "mrr": 0.5}
    assert kinds["negative"].means == {"status_acc": 1.0}
    assert kinds["negative"].negative_supported == 0
    assert from_file.by_bench["mini_dev"].n == 3
    assert from_file.overall.latency_p50 == 12.0
    assert from_file.overall.stages["walk"].p50 == 6.0


def test_engine_receives_only_the_id_and_the_question(bench: Path) -> None:
    engine = table_engine(table())
    run_eval(engine, load_questions(bench), mode="dense", warmup=["What is aspirin?"])
    warm, *calls = engine.calls
    assert warm == {"question": "What is aspirin?", "mode": "dense"}
    assert calls == [{"question": r["question"], "mode": "dense", "qid": r["id"]} for r in RECORDS]
    assert all(isinstance(value, str) for call in calls for value in call.values())


def test_gold_fields_cannot_leak_even_if_questions_are_mutated(bench: Path) -> None:
    questions = load_questions(bench)
    inputs = [QuestionInput(q["id"], q["question"]) for q in questions]
    assert all(set(i._fields) == {"id", "question"} for i in inputs)
    engine = table_engine(table())
    run_eval(engine, questions, mode="graph")
    for call, rec in zip(engine.calls, RECORDS, strict=True):
        seen = json.dumps(call)
        for gold in rec["answers"] + rec["seeds"] + rec["gold_passages"]:
            assert gold not in seen


def test_errors_are_recorded_and_scored_as_failures(bench: Path) -> None:
    questions = load_questions(bench)
    engine = table_engine(table(), fail_on={"What treats D1?"})
    results = run_eval(engine, questions, mode="hybrid")
    assert results[0]["status"] == "NOT_ANSWERED"
    assert results[0]["error"] == "RuntimeError: boom"
    report = score(questions, results)
    assert report.overall.errors == 1
    assert report.by_kind["one_hop"].means["mrr"] == 0.0
    with pytest.raises(RuntimeError):
        run_eval(engine, questions, mode="hybrid", on_error="raise")


def test_missing_and_unmatched_results(bench: Path) -> None:
    questions = load_questions(bench)
    results = [{"id": "neg-1", "status": "NOT_ANSWERED", "latency_ms": 4.0}, {"id": "other"}]
    report = score(questions, results)
    assert report.overall.missing == 2
    assert report.unmatched_results == 1
    assert report.by_kind["one_hop"].means["evidence_recall@5"] == 0.0
    assert report.overall.latency_p95 == 4.0  # missing results carry no latency


def test_duplicate_result_ids_are_rejected(bench: Path) -> None:
    with pytest.raises(ValueError, match="duplicate result id"):
        score(load_questions(bench), [{"id": "neg-1"}, {"id": "neg-1"}])


def test_load_questions_validates(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "x", "question": "?"}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="lacks kind, expect_status"):
        load_questions(bad)
    dup = tmp_path / "dup.jsonl"
    dup.write_text(2 * (json.dumps(RECORDS[2]) + "\n"), encoding="utf-8")
    with pytest.raises(ValueError, match="duplicate id"):
        load_questions(dup)


def test_latency_falls_back_to_wall_time(bench: Path) -> None:
    engine = table_engine({})  # every answer is NOT_ANSWERED with latency_ms 0
    results = run_eval(engine, load_questions(bench), mode="hybrid")
    assert all(r["latency_ms"] > 0 and r["latency_ms"] == r["eval_wall_ms"] for r in results)


def test_out_path_for() -> None:
    assert out_path_for("runs/r.jsonl", "dense") == Path("runs/r.dense.jsonl")
