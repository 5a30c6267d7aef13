"""The user's word apart from the engine's: what the user said (``stated``) and what the engine
looked up for a question (``reviewed``) are two kinds of memory, told apart in answers and
searches, forgotten apart, and a looked-up fact is kept only from a confident answer. Both
back ends (files, PostgreSQL) through the ``backend`` fixture."""

from __future__ import annotations

from engine.result import Answer, Evidence, Result, Status
from memory.clock import SimulatedClock
from memory.origin import LOOKED_UP, STATED, confident_answers
from memory.service import UserMemory

TREATS = ("Compound::DB04868", "CtD", "Disease::DOID:9352")
WEAK = ("Compound::DB00683", "CtD", "Disease::DOID:9352")


def _kg(*scored: tuple[tuple[str, str, str], float], **extra: object) -> Result:
    return Result(
        question="Which drugs treat Alzheimer's disease?",
        status=Status.ANSWERED,
        mode="hybrid",
        answers=[Answer(id=t[0], name=t[0], score=s) for t, s in scored],
        evidence=[Evidence(kind="triple", triple=t, score=s, source="hetionet") for t, s in scored],
        **extra,  # type: ignore[arg-type]
    )


def test_only_a_confident_answer_is_kept_as_a_looked_up_fact(memory: UserMemory) -> None:
    bar = memory.settings.looked_up_min_confidence
    memory.record("Which drugs treat Alzheimer's disease?", _kg((TREATS, 0.9), (WEAK, 0.1)), "s1")
    assert [(f.triple, f.source) for f in memory.facts()] == [(TREATS, LOOKED_UP)]
    # a reading that was guessed (a follow-up or a correction) keeps nothing
    guessed = _kg((WEAK, 0.9), understood=["Reading 'it' as Alzheimer's disease."])
    memory.record("and what treats it?", guessed, "s1")
    assert [f.triple for f in memory.facts()] == [TREATS]
    # a boosted answer is judged before its boost: just over the bar with it, under without
    boosted = _kg((WEAK, bar * memory.settings.vault_boost * 0.99), memory_boosted=True)
    assert confident_answers(boosted, bar, memory.settings.vault_boost) == set()
    assert confident_answers(_kg((WEAK, bar)), bar, memory.settings.vault_boost) == {WEAK[0]}


def test_answers_search_and_forget_tell_the_two_kinds_apart(
    memory: UserMemory, clock: SimulatedClock
) -> None:
    memory.record("Which drugs treat Alzheimer's disease?", _kg((TREATS, 0.9)), "s1")
    clock.advance(minutes=1)
    assert memory.state("Patient MRN 5170 is on metformin 500 mg twice daily.", "s1") is not None
    answer = memory.answer("what dose of metformin is MRN 5170 on?", [], session="s1")
    assert answer is not None and answer.status == Status.ANSWERED
    assert "500 mg twice daily" in answer.text and "you said" in answer.text
    # the engine's fact is never answered as the user's note about that drug
    notes = memory.answer("What do my notes say about nilotinib?", [], session="s2")
    assert notes is None or notes.status != Status.ANSWERED
    assert [f.source for f in memory.search("looked-up")] == [LOOKED_UP]
    assert [f.source for f in memory.search("stated")] == [STATED]
    assert memory.forget("looked-up") == 1
    assert [f.source for f in memory.facts()] == [STATED]
    assert memory.forget("stated") == 1
    assert memory.facts() == []


def test_answers_name_the_patient_as_the_user_did(
    memory: UserMemory, clock: SimulatedClock
) -> None:
    memory.state("pt 5170 is on metformin 500 mg twice daily.", "s1")
    clock.advance(minutes=1)
    answer = memory.answer("what dose of metformin is he on?", [], session="s1")
    assert answer is not None and answer.status == Status.ANSWERED
    assert answer.answers[0].id == "Compound::DB00331"
    assert answer.text.startswith("pt 5170 — medication") and "patient:" not in answer.text
    missing = memory.answer("any allergies for that patient?", [], session="s1")
    assert missing is not None and missing.text == "I have no allergy recorded for pt 5170."


def test_my_patient_with_no_patient_named_asks_which(memory: UserMemory) -> None:
    answer = memory.answer("what meds is my patient on?", [], session="s9")
    assert answer is not None and answer.status == Status.NOT_ANSWERED
    assert "No patient has been named in this conversation" in answer.text
