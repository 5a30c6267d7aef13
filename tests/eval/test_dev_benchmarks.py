"""Acceptance thresholds on the dev split, through the real engine on the full default data.

Slow: builds the full stores (a few minutes) unless ``HELIX_BENCH_HOME`` points at a data home
that already has them. Skipped when ``../shared`` is absent.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.config import Settings

pytestmark = [pytest.mark.slow, pytest.mark.needs_shared]


@pytest.fixture(scope="module")
def full_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    from engine.api import Helix

    home = os.environ.get("HELIX_BENCH_HOME")
    settings = Settings(
        home=Path(home) if home else tmp_path_factory.mktemp("full"),
        trace_exporter="none",
        layers="hetionet",  # the frozen benchmark's figures are Hetionet's, whatever is built
    )
    helix = Helix.open(settings)
    helix.warm()
    yield helix
    helix.close()


def _run(engine: object, bench: Path, names: list[str], mode: str):  # type: ignore[no-untyped-def]
    from engine.eval import load_questions, run_eval, score

    questions = [q for n in names for q in load_questions(bench / n)]
    return score(questions, run_eval(engine, questions, mode=mode))  # type: ignore[arg-type]


def test_dev_split_acceptance(full_engine: object, shared_bench: Path) -> None:
    files = ["kgqa_dev.jsonl", "multihop_dev.jsonl", "mechanism_dev.jsonl", "scenarios_dev.jsonl"]
    hybrid = _run(full_engine, shared_bench, files, "hybrid").to_dict()
    dense = _run(full_engine, shared_bench, ["kgqa_dev.jsonl"], "dense").to_dict()
    kinds = {k: v["means"] for k, v in hybrid["by_kind"].items()}
    assert kinds["one_hop"]["evidence_recall@5"] >= 0.90
    assert kinds["one_hop"]["hit@1"] >= 0.85
    dense_recall = dense["by_kind"]["one_hop"]["means"]["evidence_recall@5"]
    assert kinds["one_hop"]["evidence_recall@5"] - dense_recall >= 0.20
    assert kinds["multi_hop"]["path_f1@5"] >= 0.60
    assert kinds["mechanism"]["path_f1@5"] >= 0.40
    assert min(kinds[k]["status_acc"] for k in ("ambiguous", "not_found", "negative")) >= 0.90
    assert hybrid["by_kind"]["negative"]["negative_supported"] == 0
