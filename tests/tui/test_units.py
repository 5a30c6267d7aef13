"""Pure helpers: relation verbs, path chains, clarification replies, statements, fact rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from engine.events import StepEvent
from engine.result import Candidate, Result, Status
from helix_tui.clarify import match_candidate
from helix_tui.facts import FactView, notes_of
from helix_tui.present import result_markdown, step_line
from helix_tui.relations import path_text, short_id, triple_text, verb

NAMES = {"C": "Donepezil", "D": "Alzheimer's disease", "G": "ACHE"}


def name(node_id: str) -> str:
    return NAMES.get(node_id, node_id)


def test_relation_verbs() -> None:
    assert verb("CtD") == "treats"
    assert verb("PCiC") == "includes"
    assert verb("DsD") == "is a subtype of"
    assert verb("allergic_to") == "allergic to"
    assert triple_text(("C", "CtD", "D"), name) == "Donepezil —treats→ Alzheimer's disease"
    assert triple_text(("patient:1", "takes", "C"), name) == "patient:1 —takes→ Donepezil"
    assert short_id("patient:4471") == "MRN 4471"
    assert short_id("Compound::DB00843") == "DB00843"


def test_path_chain_follows_the_walk() -> None:
    forward = [("C", "CbG", "G"), ("D", "DaG", "G")]
    assert path_text(forward, name) == "Donepezil —binds→ ACHE ←associates— Alzheimer's disease"
    backward = [("G", "GiG", "C"), ("C", "CtD", "D")]
    assert path_text(backward, name) == "ACHE —interacts→ Donepezil —treats→ Alzheimer's disease"
    starts_at_object = [("D", "DaG", "G"), ("C", "CbG", "G")]
    assert path_text(starts_at_object, name).startswith("Alzheimer's disease —associates→ ACHE")


CANDIDATES = [
    Candidate(id="Gene::3630", name="INS", kind="Gene"),
    Candidate(id="Disease::DOID:9744", name="type 1 diabetes mellitus", kind="Disease"),
]


def test_match_candidate_by_number_name_kind() -> None:
    assert match_candidate("2", CANDIDATES) is CANDIDATES[1]
    assert match_candidate("INS", CANDIDATES) is CANDIDATES[0]
    assert match_candidate("the disease", CANDIDATES) is CANDIDATES[1]
    assert match_candidate("I meant the gene.", CANDIDATES) is CANDIDATES[0]
    assert match_candidate("type 1 diabetes", CANDIDATES) is CANDIDATES[1]
    assert match_candidate("3", CANDIDATES) is None
    assert match_candidate("What treats asthma?", CANDIDATES) is None


@dataclass
class Row:
    subj: str
    rel: str
    obj: str
    t_start: datetime
    t_end: datetime | None
    quality: float
    obj_name: str | None = None


def test_fact_rows_of_any_shape() -> None:
    when = datetime(2026, 3, 2, tzinfo=UTC)
    from_attrs = FactView.of(Row("patient:1", "takes", "C", when, None, 1.0, "Metformin"))
    assert from_attrs.current and from_attrs.obj_name == "Metformin"
    from_map = FactView.of({"subj": "a", "rel": "r", "obj": "b", "t_end": "2026-03-05"})
    assert not from_map.current
    from_tuple = FactView.of(("a", "r", "b"))
    assert from_tuple.triple == ("a", "r", "b")
    assert notes_of(None) == []
    assert notes_of(Row("patient:1", "takes", "C", when, None, 1.0, "Metformin")) == [
        "MRN 1 takes Metformin"
    ]


def test_step_lines() -> None:
    assert step_line(StepEvent("walk", "start", "walking the graph")) == "… Walking the graph"
    progress = StepEvent("walk", "progress", "depth 2: 9 nodes expanded", 5.0, {"depth": 2})
    assert step_line(progress) == "  · depth 2: 9 nodes expanded"
    end = StepEvent("review", "end", "", 9.0, {"accepted": False, "duration_ms": 3.2})
    assert step_line(end) == "✓ Reviewing — not accepted · 3 ms"


def test_not_found_is_said_once() -> None:
    result = Result(status=Status.NOT_ANSWERED, text="Not found: 'x' is not in the graph.")
    assert result_markdown(result, name) == "Not found: 'x' is not in the graph."
    bare = Result(status=Status.NOT_ANSWERED)
    assert result_markdown(bare, name).startswith("**Not found.**")


def test_backend_runs_everything_on_one_thread_in_order() -> None:
    import threading

    from helix_tui.backend import Backend, Cancelled, CancelToken

    backend = Backend()
    seen: list[tuple[int, str]] = []

    def job(n: int) -> int:
        seen.append((n, threading.current_thread().name))
        return n * 2

    assert [backend.run(lambda n=n: job(n)) for n in range(3)] == [0, 2, 4]
    done = threading.Event()
    backend.close(done.set)
    assert done.wait(5)
    assert {name for _, name in seen} == {"helix-backend"}
    token = CancelToken()
    token.cancel()
    try:
        token.check()
    except Cancelled:
        pass
    else:
        raise AssertionError("a cancelled token did not raise")


def test_off_topic_passages_are_not_shown_as_evidence_in_the_terminal() -> None:
    from rich.console import Console

    from engine.result import Evidence
    from helix_tui.render import render_result

    def shown(*evidence: Evidence) -> str:
        console = Console(width=120, record=True)
        result = Result(status=Status.ANSWERED, text="x", evidence=list(evidence))
        console.print(render_result(result))
        return console.export_text()

    off = Evidence(kind="passage", score=0.03, id="p:off", text="implantation", relevant=False)
    on = Evidence(kind="passage", score=0.8, id="p:on", text="fibrillin", relevant=True)
    assert "p:off" not in shown(off) and "2 passages retrieved, none relevant" in shown(off, off)
    text = shown(off, on)
    assert "p:on" in text and "p:off" not in text


def test_the_hub_line_follows_the_answer_in_the_chat_and_the_terminal() -> None:
    from rich.console import Console

    from engine.result import Hub
    from helix_tui.render import render_result

    hub = Hub(id="Gene::5743", name="PTGS2", kind="Gene", paths=7, of=9)
    result = Result(status=Status.ANSWERED, text="Aspirin binds PTGS2.", hubs=[hub])
    line = "Most paths pass through PTGS2 (Gene): 7 of 9."
    assert result_markdown(result, name) == f"Aspirin binds PTGS2.\n\n_{line}_"
    console = Console(width=120, record=True)
    console.print(render_result(result))
    assert line in console.export_text()
    assert "pass through" not in result_markdown(result.model_copy(update={"hubs": []}), name)
