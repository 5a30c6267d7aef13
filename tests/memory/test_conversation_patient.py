"""A statement or question that names no patient but says "her", "his" or "my patient" is
about the patient the conversation last named, in that session only."""

from __future__ import annotations

from memory.clock import SimulatedClock
from memory.service import UserMemory


def test_a_lab_value_said_of_his_goes_under_the_patient_just_named(
    memory: UserMemory, clock: SimulatedClock
) -> None:
    memory.state("Patient MRN 5170 came in today, on metformin.", "s1")
    clock.advance(minutes=2)
    fact = memory.state("his potassium was 5.9 this morning", "s1")
    assert fact is not None
    assert (fact.subj, fact.rel) == ("patient:5170", "lab_value") and "5.9" in fact.obj
    result = memory.answer("What was the potassium of MRN 5170?", [], session="s1")
    assert result is not None and "5.9" in result.answers[0].id


def test_a_patient_named_without_a_fact_still_is_the_conversations(
    memory: UserMemory, clock: SimulatedClock
) -> None:
    assert memory.state("Seeing MRN 6102 for follow-up.", "s1") is None
    clock.advance(minutes=1)
    fact = memory.state("Her HbA1c is 8.1% now.", "s1")
    assert fact is not None and fact.subj == "patient:6102"
    result = memory.answer("what meds is my patient on?", [], session="s1")
    assert result is not None and result.status.value == "NOT_ANSWERED"
    memory.state("She takes metformin 500 mg twice daily.", "s1")
    result = memory.answer("what meds is my patient on?", [], session="s1")
    assert result is not None and result.answers[0].id == "Compound::DB00331"
    assert "500 mg twice daily" in (result.text or "")


def test_her_in_another_session_or_for_another_user_refers_to_no_one(
    memory: UserMemory, other: UserMemory, clock: SimulatedClock
) -> None:
    memory.state("Patient MRN 5170 is on metformin.", "s1")
    clock.advance(minutes=1)
    assert memory.state("her potassium was 5.9", "s2") is None
    assert other.state("her potassium was 5.9", "s1") is None
    assert not [f for f in other.facts() if f.subj == "patient:5170"]


def test_search_for_an_mrn_never_stated_finds_nothing(
    memory: UserMemory, clock: SimulatedClock
) -> None:
    memory.state("Patient MRN 10009 is on metformin.", "s1")
    memory.state("Patient MRN 6101 is on sitagliptin.", "s1")
    assert memory.search("MRN 1000") == []
    assert memory.search("MRN 6102") == []
    assert [f.subj for f in memory.search("MRN 6101")] == ["patient:6101"]
    assert [f.subj for f in memory.search("metformin")] == ["patient:10009"]
