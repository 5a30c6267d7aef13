"""Clinicians' messages through the one turn (``wiring.turn.take_turn``) over real per-user
memory on both back ends: every statement under the patient its sentence names, several facts
of one sentence each kept, a long message stored whole or refused whole with its count, a dose
and a stated day answered, "her" after a named patient, and an MRN never stated finding
nothing. The engine is the deterministic stand-in; memory, its stores and the turn are real."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.config import Settings
from engine.result import Status
from helix_tui.turns import noted_result
from memory.clock import SimulatedClock
from memory.service import UserMemory
from tests.support.fake_engine import FakeEngine
from wiring.open import open_memory
from wiring.turn import take_turn

THURSDAY = datetime(2026, 3, 5, 9, 0, tzinfo=UTC)
METFORMIN = "Compound::DB00331"
DONEPEZIL = "Compound::DB00843"


@pytest.fixture
def engine(tmp_path: Path) -> FakeEngine:
    return FakeEngine(Settings(home=tmp_path, trace_exporter="none"))


@pytest.fixture
def clock() -> SimulatedClock:
    return SimulatedClock(THURSDAY)


@pytest.fixture
def memory(
    engine: FakeEngine, tmp_path: Path, clock: SimulatedClock, backend: str | None
) -> Iterator[UserMemory]:
    settings = Settings(home=tmp_path / "home", trace_exporter="none", database_url=backend)
    mem = open_memory(settings, "alice", engine, clock)
    yield mem
    mem.close()


def _said(memory: UserMemory) -> list[tuple[str, str, str]]:
    return [f.triple for f in memory.facts(include_superseded=False) if f.source == "stated"]


def test_a_message_about_two_patients_is_two_facts_under_the_right_patients(
    engine: FakeEngine, memory: UserMemory
) -> None:
    text = "Patient MRN 4001 was started on metformin today. Patient MRN 4002 is allergic to latex."
    turn = take_turn(engine, memory, text, session="s1")
    assert [f.triple for f in turn.facts] == [
        ("patient:4001", "takes", METFORMIN),
        ("patient:4002", "allergic_to", "latex"),
    ]
    assert turn.unread == () and engine.calls == []


def test_a_sentence_that_packs_several_facts_keeps_each(
    engine: FakeEngine, memory: UserMemory, clock: SimulatedClock
) -> None:
    turn = take_turn(
        engine,
        memory,
        "MRN 5170 on metformin 500 mg bid, started him on empagliflozin 10 mg od today.",
        session="s1",
    )
    assert [(f.obj, f.detail) for f in turn.facts] == [
        (METFORMIN, "500 mg bid"),
        ("empagliflozin", "10 mg od"),
    ]
    clock.advance(minutes=1)
    # shorthand after naming the patient: the conversation's patient, clause by clause
    turn = take_turn(engine, memory, "eGFR 38, BP 142/84.", session="s1")
    assert [(f.subj, f.obj) for f in turn.facts] == [
        ("patient:5170", "eGFR 38"),
        ("patient:5170", "BP 142/84"),
    ]
    clock.advance(minutes=1)
    asked = take_turn(engine, memory, "what dose of empagliflozin is he on?", session="s1")
    assert asked.result is not None and asked.result.status is Status.ANSWERED
    assert asked.result.text.startswith("MRN 5170 — medication: empagliflozin 10 mg od")


def test_fifty_statements_are_stored_whole_and_counted(
    engine: FakeEngine, memory: UserMemory
) -> None:
    text = " ".join(f"MRN {7000 + i} takes metformin." for i in range(50))
    turn = take_turn(engine, memory, text, session="s1")
    assert len(turn.facts) == 50 and turn.unread == ()
    assert {f.subj for f in turn.facts} == {f"patient:{7000 + i}" for i in range(50)}
    notes = [f"MRN {7000 + i} takes Metformin" for i in range(50)]
    assert noted_result(text, notes).text.startswith("Noted 50 facts: MRN 7000 takes Metformin")


def test_a_message_too_long_is_refused_whole_with_its_count(
    engine: FakeEngine, memory: UserMemory
) -> None:
    text = " ".join(f"MRN {70000 + i} takes metformin for type 2 diabetes." for i in range(90))
    assert len(text) > 4000
    turn = take_turn(engine, memory, text, session="s1")
    assert turn.facts == () and _said(memory) == [] and engine.calls == []
    assert turn.result is not None and turn.result.status is Status.NOT_ANSWERED
    assert turn.result.text.startswith("Nothing was noted: the message holds 90 statements in")


def test_a_stated_day_is_when_the_value_held_and_is_answered_as_of_it(
    engine: FakeEngine, memory: UserMemory, clock: SimulatedClock
) -> None:
    take_turn(engine, memory, "Seeing MRN 5170 today.", session="s1")
    clock.advance(minutes=1)
    take_turn(engine, memory, "her potassium was 5.9 three days ago", session="s1")
    clock.advance(minutes=1)
    take_turn(engine, memory, "MRN 5170 potassium 4.8 today", session="s1")
    clock.advance(timedelta(days=1))
    monday = take_turn(
        engine, memory, "what was the potassium of MRN 5170 on Monday?", session="s2"
    )
    assert monday.result is not None and monday.result.status is Status.ANSWERED
    assert "potassium 5.9" in monday.result.text and "2026-03-02" in monday.result.text
    now = take_turn(engine, memory, "latest potassium for MRN 5170?", session="s2")
    assert now.result is not None and "potassium 4.8" in now.result.text


def test_a_time_no_day_can_be_read_from_is_kept_as_said(
    engine: FakeEngine, memory: UserMemory, clock: SimulatedClock
) -> None:
    take_turn(engine, memory, "MRN 6120 started on donepezil last winter.", session="s1")
    clock.advance(minutes=1)
    turn = take_turn(engine, memory, "what is MRN 6120 on?", session="s1")
    assert turn.result is not None and turn.result.status is Status.ANSWERED
    assert "Donepezil (when: 'last winter', as said)" in turn.result.text


def test_her_after_a_named_patient_and_an_mrn_never_stated(
    engine: FakeEngine, memory: UserMemory, clock: SimulatedClock
) -> None:
    take_turn(engine, memory, "pt 6101 is on metformin 500 mg twice daily.", session="s1")
    clock.advance(minutes=1)
    turn = take_turn(engine, memory, "what dose of metformin is she on?", session="s1")
    assert turn.result is not None and turn.result.status is Status.ANSWERED
    assert turn.result.text.startswith("pt 6101 — medication: Metformin 500 mg twice daily")
    assert memory.search("MRN 6102") == [] and memory.search("MRN 610") == []
    other = take_turn(engine, memory, "what does MRN 6102 take?", session="s1")
    assert other.result is not None and other.result.status is Status.NOT_ANSWERED
