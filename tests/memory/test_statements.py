"""A message is split into its statements: each fact goes to the patient its sentence names,
and what could not be read is told back, never dropped silently."""

from __future__ import annotations

from memory.clock import SimulatedClock
from memory.service import UserMemory


def test_a_two_patient_message_is_two_facts_under_the_right_patients(
    memory: UserMemory,
) -> None:
    noted = memory.state_each(
        "Patient MRN 4471 was started on metformin today. Patient MRN 5170 is allergic to "
        "penicillin G.",
        "s1",
    )
    assert sorted(f.triple for f in noted.facts) == [
        ("patient:4471", "takes", "Compound::DB00331"),
        ("patient:5170", "allergic_to", "Compound::DB01053"),
    ]
    assert noted.unread == ()
    assert not [f for f in memory.facts() if f.subj == "patient:4471" and f.rel == "allergic_to"]


def test_a_fifty_statement_message_is_stored_whole(memory: UserMemory) -> None:
    text = " ".join(f"MRN {5000 + i} takes metformin." for i in range(50))
    noted = memory.state_each(text, "s1")
    assert len(noted.facts) == 50 and noted.unread == ()
    assert {f.subj for f in memory.facts()} == {f"patient:{5000 + i}" for i in range(50)}


def test_a_sentence_that_states_nothing_is_told_back(
    memory: UserMemory, clock: SimulatedClock
) -> None:
    noted = memory.state_each(
        "Patient MRN 4471 was started on metformin today. The weather is lovely.", "s1"
    )
    assert [f.subj for f in noted.facts] == ["patient:4471"]
    assert noted.unread == ("The weather is lovely.",)


def test_a_fact_spread_over_two_sentences_is_still_read(memory: UserMemory) -> None:
    fact = memory.state("Got patient 5170's results back. HbA1c 7.5%.", "s1")
    assert fact is not None and (fact.subj, fact.rel) == ("patient:5170", "lab_value")
    assert fact.obj.startswith("HbA1c 7.5%")


def test_her_in_the_next_sentence_is_the_patient_just_named(memory: UserMemory) -> None:
    noted = memory.state_each(
        "Patient MRN 4471 was started on metformin today. She is allergic to penicillin G.",
        "s1",
    )
    assert {f.triple for f in noted.facts} == {
        ("patient:4471", "takes", "Compound::DB00331"),
        ("patient:4471", "allergic_to", "Compound::DB01053"),
    }


def test_a_message_that_states_nothing_is_logged_once_per_sentence(memory: UserMemory) -> None:
    assert memory.state("Seeing MRN 6102 today. Nice weather.", "s1") is None
    logged = [t.query for t in memory.episodic.all()]
    assert logged == ["Seeing MRN 6102 today.", "Nice weather."]
    assert memory.episodic.last_subject("s1") == "patient:6102"
