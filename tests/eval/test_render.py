"""Rendering reports: modes side by side, stage latency, and the ablation table."""

from __future__ import annotations

import pytest
from rich.console import Console

from engine.eval.render import ablation_rows, ablation_table, metrics_table, render_report
from engine.eval.report import EvalReport, score

RECORDS = [
    {"id": "k1", "kind": "one_hop", "expect_status": "ANSWERED", "answers": ["C1"],
     "gold_triples": [["C1", "CtD", "D1"]], "bench": "kgqa_dev"},
    {"id": "n1", "kind": "negative", "expect_status": "NOT_ANSWERED",
     "claim": ["C9", "CtD", "D9"], "bench": "scenarios_dev"},
    {"id": "a1", "kind": "ambiguous", "expect_status": "NEEDS_CLARIFICATION",
     "bench": "scenarios_dev"},
]  # fmt: skip


def report(good: bool, latency: float) -> EvalReport:
    k1 = {"id": "k1", "status": "ANSWERED", "latency_ms": latency,
          "answers": [{"id": "C1" if good else "C2", "name": "c", "score": 1.0}],
          "evidence": [{"kind": "triple", "triple": ["C1", "CtD", "D1"], "score": 1.0}] if good
          else [], "timings": {"link": latency / 4, "walk": latency / 2}}  # fmt: skip
    n1 = {"id": "n1", "status": "NOT_ANSWERED", "latency_ms": latency,
          "evidence": [] if good else [{"kind": "triple", "triple": ["D9", "DrD", "C9"],
                                        "score": 1.0}]}  # fmt: skip
    a1 = {"id": "a1", "status": "NEEDS_CLARIFICATION" if good else "ANSWERED",
          "latency_ms": latency}  # fmt: skip
    return score(RECORDS, [k1, n1, a1])


def text(renderable: object) -> str:
    console = Console(record=True, width=160, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_modes_side_by_side() -> None:
    out = text(render_report({"hybrid": report(True, 40.0), "dense": report(False, 10.0)}))
    assert "hybrid" in out and "dense" in out
    assert "Evidence Recall@5" in out and "Status accuracy" in out
    assert "Negative claims w/ supporting evidence" in out
    assert "Latency by stage" in out and "walk" in out
    row = next(line for line in out.splitlines() if "Hit@1" in line)
    assert "1.000" in row and "0.000" in row


def test_group_by_bench() -> None:
    out = text(metrics_table({"hybrid": report(True, 1.0)}, by="bench"))
    assert "scenarios_dev (2)" in out and "kgqa_dev (1)" in out


def test_ablation_rows_values_and_deltas() -> None:
    reports = {"full": report(True, 40.0), "no-graph": report(False, 10.0)}
    rows = ablation_rows(reports, baseline="full")
    assert [r.label for r in rows] == ["full", "no-graph"]
    full, ablated = rows
    assert full.values["one_hop:evidence_recall@5"] == 1.0
    assert ablated.values["one_hop:evidence_recall@5"] == 0.0
    assert ablated.deltas["one_hop:hit@1"] == -1.0
    assert ablated.deltas["ambiguous:status_acc"] == -1.0
    assert ablated.values["negative_supported"] == 1
    assert ablated.deltas["latency_p50"] == -30.0
    assert full.deltas["one_hop:mrr"] == 0.0
    assert "one_hop:hit@5" not in full.values  # not a README headline for one_hop
    with pytest.raises(KeyError):
        ablation_rows(reports, baseline="nope")


def test_ablation_table_renders() -> None:
    reports = {"full": report(True, 40.0), "no-graph": report(False, 10.0)}
    out = text(ablation_table(reports, baseline="full"))
    assert "no-graph" in out and "(-1.000)" in out and "(-30.0)" in out
