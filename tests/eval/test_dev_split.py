"""The metric definitions on the real dev files: an oracle scores 1 everywhere, silence 0."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.eval.runner import load_questions, score

BENCH = Path(__file__).resolve().parents[3] / "shared" / "bench"
FILES = ["kgqa_dev", "multihop_dev", "mechanism_dev", "passages_dev", "scenarios_dev"]

pytestmark = [
    pytest.mark.needs_shared,
    pytest.mark.skipif(not (BENCH / "kgqa_dev.jsonl").exists(), reason="shared bench absent"),
]


def oracle(rec: dict[str, Any]) -> dict[str, Any]:
    evidence = [{"kind": "triple", "triple": t, "score": 1.0} for t in rec["gold_triples"]]
    evidence += [{"kind": "passage", "id": p, "score": 1.0} for p in rec["gold_passages"]]
    clar = "Which one?" if rec["expect_status"] == "NEEDS_CLARIFICATION" else None
    return {
        "id": rec["id"],
        "status": rec["expect_status"],
        "answers": [{"id": a, "name": a, "score": 1.0} for a in rec["answers"]],
        "evidence": evidence,
        "paths": rec["gold_paths"],
        "clarification": clar,
        "latency_ms": 1.0,
    }


@pytest.fixture(scope="module")
def gold() -> list[dict[str, Any]]:
    return [q for name in FILES for q in load_questions(BENCH / f"{name}.jsonl")]


def test_oracle_scores_one_everywhere(gold: list[dict[str, Any]]) -> None:
    report = score(gold, [oracle(r) for r in gold])
    assert set(report.by_kind) == {
        "one_hop", "multi_hop", "mechanism", "passage", "ambiguous", "not_found", "negative"
    }  # fmt: skip
    for kind, agg in report.by_kind.items():
        assert agg.means, kind
        assert all(v == pytest.approx(1.0) for v in agg.means.values()), (kind, agg.means)
    assert report.by_kind["negative"].negative_supported == 0
    assert set(report.by_bench) == set(FILES)


def test_no_results_score_zero(gold: list[dict[str, Any]]) -> None:
    report = score(gold, [])
    assert report.overall.missing == len(gold)
    assert all(v == 0.0 for agg in report.by_kind.values() for v in agg.means.values())
