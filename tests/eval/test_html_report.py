"""``eval --report``: the PNGs and report.html, from scored results alone."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from engine.eval import score
from engine.eval.html_report import REPORT_FILE, build_report
from engine.eval.report_data import (
    Reliability,
    ReportData,
    memory_by_day,
    relation_recall,
    reliability_bins,
)

AD, T2D = "Disease::DOID:10652", "Disease::DOID:9352"
DONEPEZIL, METFORMIN, ACHE = "Compound::DB00843", "Compound::DB00331", "Gene::43"

GOLD = [
    {
        "id": "q1", "kind": "one_hop", "question": "What treats AD?", "expect_status": "ANSWERED",
        "answers": [DONEPEZIL], "gold_triples": [[DONEPEZIL, "CtD", AD]], "bench": "kgqa_dev",
    },
    {
        "id": "q2", "kind": "one_hop", "question": "What treats T2D?", "expect_status": "ANSWERED",
        "answers": [METFORMIN], "gold_triples": [[METFORMIN, "CtD", T2D]], "bench": "kgqa_dev",
    },
    {
        "id": "q3", "kind": "one_hop", "question": "Genes of AD?", "expect_status": "ANSWERED",
        "answers": [ACHE], "gold_triples": [[AD, "DaG", ACHE]], "bench": "kgqa_dev",
    },
    {
        "id": "q4", "kind": "multi_hop", "question": "Via which gene?", "expect_status": "ANSWERED",
        "answers": [AD], "gold_paths": [[[DONEPEZIL, "CbG", ACHE], [AD, "DaG", ACHE]]],
        "bench": "multihop_dev",
    },
]  # fmt: skip


def _row(qid: str, triple: list[str] | None, answer: str, ms: float) -> dict[str, object]:
    evidence = [{"kind": "triple", "triple": triple, "score": 0.9}] if triple else []
    return {
        "id": qid, "status": "ANSWERED", "answers": [{"id": answer, "score": 0.9}],
        "evidence": evidence, "paths": [[triple]] if triple else [], "clarification": None,
        "latency_ms": ms, "timings": {"plan": ms / 4, "walk": ms / 2, "explain": ms / 8},
    }  # fmt: skip


def _data() -> ReportData:
    hybrid = [
        _row("q1", [DONEPEZIL, "CtD", AD], DONEPEZIL, 80.0),
        _row("q2", [METFORMIN, "CtD", T2D], METFORMIN, 95.0),
        _row("q3", None, ACHE, 60.0),
        _row("q4", [DONEPEZIL, "CbG", ACHE], AD, 140.0),
    ]
    dense = [_row("q1", None, DONEPEZIL, 40.0), _row("q2", [METFORMIN, "CtD", T2D], ACHE, 45.0)]
    reports = {"hybrid": score(GOLD, hybrid), "dense": score(GOLD, dense)}
    probs = tuple(0.3 + 0.6 * (i % 10) / 10 for i in range(60))
    labels = tuple(int(i % 3 != 0) for i in range(60))
    replay = [
        {"at": "2026-03-02T10:00:00Z", "expect": "x", "status": "ANSWERED",
         "answers": [{"id": "x"}]},
        {"at": "2026-03-02T11:00:00Z", "expect": "y", "status": "NOT_ANSWERED", "answers": []},
        {"at": "2026-03-03T09:00:00Z", "expect": None, "status": "NOT_ANSWERED", "answers": []},
        {"at": "2026-03-03T10:00:00Z", "expect": "z", "status": "ANSWERED",
         "answers": [{"id": "z"}]},
    ]  # fmt: skip
    return ReportData(
        GOLD, reports, Reliability(probs, labels, 1.7), memory_by_day(replay), inputs=["t.jsonl"]
    )


class _Images(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.src: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.src += [v or "" for k, v in attrs if k == "src"]
        self.scripts += tag == "script"


def test_report_html_references_only_images_that_exist(tmp_path: Path) -> None:
    written = build_report(tmp_path / "r", _data())
    html = (tmp_path / "r" / REPORT_FILE).read_text(encoding="utf-8")
    page = _Images()
    page.feed(html)
    assert page.scripts == 0
    assert sorted(page.src) == sorted(
        ["modes.png", "recall_by_relation.png", "latency_hybrid.png", "latency_dense.png",
         "reliability.png", "memory_by_day.png"]
    )  # fmt: skip
    for src in page.src:
        image = tmp_path / "r" / src
        assert image.is_file() and image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", src
    assert {p.name for p in written} == {*page.src, REPORT_FILE}
    for expected in ("CtD", "DaG", "Memory Recall@1", "2026-03-02", "ECE before", "Path-F1@5"):
        assert expected in html


def test_report_is_deterministic(tmp_path: Path) -> None:
    first = build_report(tmp_path / "a", _data())
    second = build_report(tmp_path / "b", _data())
    for a, b in zip(first, second, strict=True):
        assert a.name == b.name and a.read_bytes() == b.read_bytes(), a.name


def test_report_numbers() -> None:
    data = _data()
    rows = {r.relation: r.by_mode for r in relation_recall(data.gold, data.reports)}
    assert rows["CtD"] == {"hybrid": (1.0, 2), "dense": (0.5, 2)}
    assert rows["DaG"] == {"hybrid": (0.0, 1), "dense": (0.0, 1)}
    assert [(d.day, d.probes, d.hits) for d in data.memory_days] == [
        ("2026-03-02", 2, 1),
        ("2026-03-03", 1, 1),
    ]
    bins = reliability_bins([0.05, 0.15, 0.12, 1.0], [0, 1, 0, 1])
    assert [(b.n, b.accuracy) for b in bins] == [(1, 0.0), (2, 0.5), (1, 1.0)]
    assert (
        data.reliability is not None and data.reliability.ece_after != data.reliability.ece_before
    )
