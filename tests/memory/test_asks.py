"""Memory questions read by meaning (exemplar bank + cues), missing relations, node names.

The wordings here are our own, not the dev stream's; the embedding model is the real one.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.config import Settings
from engine.result import Result, Status
from memory.asks import AskScorer, mask
from memory.clock import SimulatedClock
from memory.router import Temporal
from memory.service import UserMemory
from tests.memory.memfakes import fake_linker


@pytest.fixture
def mem(settings: Settings, clock: SimulatedClock, asks: AskScorer) -> Iterator[UserMemory]:
    memory = UserMemory(settings, "u31", clock=clock, linker=fake_linker(), asks=asks)
    yield memory
    memory.close()


def _say(mem: UserMemory, clock: SimulatedClock, *texts: str) -> None:
    for text in texts:
        clock.advance(minutes=7)
        assert mem.state(text, "s1") is not None, text


def _top(result: Result | None) -> str | None:
    assert result is not None
    return result.answers[0].id if result.status == Status.ANSWERED else None


def test_mask_replaces_mentions_by_kind_and_merges_a_name_with_its_mrn() -> None:
    text = "Which drug did we start Ana Ruiz (6610) on before metformin?"
    at = text.index
    spans = [
        (at("Ana"), at(" ("), "Patient"),
        (at("6610"), at("6610") + 4, "Patient"),
        (at("metformin"), at("metformin") + 9, "Compound"),
        (at("metformin") + 3, at("metformin") + 6, "Gene"),
    ]
    assert mask(text, spans) == "Which drug did we start [Patient] on before [Compound]?"


def test_relation_and_time_by_meaning(mem: UserMemory, clock: SimulatedClock) -> None:
    _say(
        mem,
        clock,
        "Lena Park (MRN 7781) was put on metformin this morning.",
        "Switched MRN 7781 from metformin to sitagliptin.",
        "Lena Park: sitagliptin -> clonazepam.",
    )
    first = mem.answer("Which drug did we start Lena Park on?", [])
    assert _top(first) == "Compound::DB00331"
    assert first is not None and first.intent == f"memory:takes:{Temporal.FIRST}"
    replaced = mem.answer("What was MRN 7781 on before clonazepam came in?", [])
    assert _top(replaced) == "Compound::DB01261"
    assert _top(mem.answer("What are we giving Lena Park now?", [])) == "Compound::DB01068"


def test_own_note_relation_without_its_cue_words(mem: UserMemory, clock: SimulatedClock) -> None:
    _say(
        mem,
        clock,
        "Nilotinib inhibits EPHB3 in our kinase assay.",
        "Nilotinib upregulates P2RY12 in the organoid screen.",
    )
    turned_up = mem.answer("In my notes, which gene does nilotinib turn up?", [])
    assert _top(turned_up) == "Gene::64805"


def test_a_relation_never_stored_is_not_answered_with_another(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(
        mem,
        clock,
        "Patient 6610 was started on prasugrel today.",
        "Nilotinib inhibits EPHB3 in our kinase assay.",
    )
    allergy = mem.answer("Is patient 6610 allergic to anything?", [])
    assert allergy is not None and allergy.status == Status.NOT_ANSWERED
    assert allergy.text == "I have no allergy recorded for patient 6610."
    # "allergens" names a drug class too; here it says what is asked
    allergens = mem.answer("What did I record as patient 6610's allergens?", [])
    assert allergens is not None and allergens.text == allergy.text
    up = mem.answer("In my notes, which gene does nilotinib turn up?", [])
    assert up is not None and up.status == Status.NOT_ANSWERED and not up.answers
    assert "upregulated gene" in up.text
    _say(mem, clock, "Patient 6610 has a penicillin G allergy.")
    assert _top(mem.answer("Is patient 6610 allergic to anything?", [])) == "Compound::DB01053"


def test_answers_show_graph_names_not_ids(mem: UserMemory) -> None:
    mem.store_fact("patient:6610", "allergic_to", "Compound::DB01053", evidence="6610: PCN allergy")
    mem.store_fact("patient:6610", "had_side_effect", "Side Effect::C0033774")
    allergy = mem.answer("What is patient 6610 allergic to?", [])
    assert allergy is not None and allergy.answers[0].name == "Benzylpenicillin"
    assert "Compound::" not in (allergy.text or "")
    overview = mem.answer("Give me the rundown on patient 6610.", [])
    assert overview is not None and "Side Effect::" not in (overview.text or "")
    assert {a.name for a in overview.answers} == {"Benzylpenicillin", "Pruritus"}


def test_a_question_about_a_noted_graph_entity_reads_the_notes_when_one_fits(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "Nilotinib upregulates P2RY12 in the organoid screen.")
    ours = mem.answer("Which gene did our screen show nilotinib turns up?", [])
    assert _top(ours) == "Gene::64805"
    # no first person, no cue word of the relation: its meaning still fits the note
    assert _top(mem.answer("Nilotinib makes which gene climb, again?", [])) == "Gene::64805"
    # a relation of the same entity that was never noted is the graph's question
    assert mem.answer("Which genes does nilotinib bind?", []) is None


def test_the_kind_a_question_asks_for_rules_out_other_relations(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "Nilotinib upregulates P2RY12 in the organoid screen.")
    flagged = mem.answer("Remind me what disease I flagged nilotinib for.", [])
    assert flagged is not None and flagged.status == Status.NOT_ANSWERED
    assert not flagged.answers and "repurposing candidacy" in (flagged.text or "")


METFORMIN, SITAGLIPTIN = "Compound::DB00331", "Compound::DB01261"


def _switched(mem: UserMemory, clock: SimulatedClock, *more: str) -> None:
    """MRN 7781 started on metformin, then switched to sitagliptin; then ``more``."""
    _say(
        mem,
        clock,
        "Lena Park (MRN 7781) was put on metformin this morning.",
        "Switched MRN 7781 from metformin to sitagliptin.",
        *more,
    )


def test_last_names_the_latest_value_unless_it_names_a_change(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _switched(mem, clock, "MRN 7781 HbA1c 8.1%.", "MRN 7781 HbA1c 7.2%.")
    assert _top(mem.answer("What was MRN 7781's last HbA1c result?", [])) == "HbA1c 7.2%"
    switched = mem.answer("Which drug was MRN 7781 switched away from last time?", [])
    assert _top(switched) == METFORMIN
    assert _top(mem.answer("What is MRN 7781's last-but-one HbA1c?", [])) == "HbA1c 8.1%"


def test_a_question_asking_for_the_replaced_value_reads_the_old_one(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _switched(mem, clock)
    assert _top(mem.answer("Which drug got dropped at MRN 7781's latest change?", [])) == METFORMIN
    assert _top(mem.answer("What did we take MRN 7781 off of?", [])) == METFORMIN
    assert _top(mem.answer("What did we move MRN 7781 to?", [])) == SITAGLIPTIN


def test_a_stranded_for_after_treating_asks_for_the_diagnosis(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "Lena Park (MRN 7781) has type 2 diabetes.", "MRN 7781 is now on metformin.")
    assert _top(mem.answer("What is the team treating MRN 7781 for?", [])) == "Disease::DOID:9352"
    assert _top(mem.answer("What are we treating MRN 7781 with?", [])) == METFORMIN


def test_a_request_round_the_question_says_nothing_about_the_relation(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    """The word "check" is a lab_value cue; in "Can you check which drug ..." it only frames the
    question. The answer names the relation by its label, not its key."""
    _switched(mem, clock)
    on = mem.answer("Can you check which drug MRN 7781 is on at the moment?", [])
    assert _top(on) == SITAGLIPTIN
    assert on is not None and "medication" in on.text and "takes" not in on.text


def test_a_capitalised_pair_holding_a_graph_name_is_no_patient(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "Nilotinib inhibits EPHB3 in our kinase assay.")
    asked = mem.answer("Gene Nilotinib knocks down, per my notes?", [])
    assert _top(asked) == "Gene::2049"


def test_before_an_event_asks_for_values_that_accumulate_as_they_stand(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    """An allergy is never replaced: "before the anaesthetic" says when the user acts, not a
    previous value."""
    _say(mem, clock, "Patient 6610 has a penicillin G allergy.")
    asked = mem.answer("Before the anaesthetic: what is patient 6610 allergic to?", [])
    assert _top(asked) == "Compound::DB01053"


def test_a_kind_word_that_modifies_another_noun_does_not_ask_for_its_kind(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    """The word "drug" asks for a medication; in "drug reactions" or "drug-related problems" it says
    what the reactions are about."""
    mem.store_fact("patient:6610", "takes", "Compound::DB00945")
    mem.store_fact("patient:6610", "had_side_effect", "Side Effect::C0033774")
    for q in (
        "Remind me which drug reactions patient 6610 experienced.",
        "Which drug-related problems did patient 6610 run into?",
    ):
        assert _top(mem.answer(q, [])) == "Side Effect::C0033774", q
    assert _top(mem.answer("Which drug is patient 6610 on?", [])) == "Compound::DB00945"
