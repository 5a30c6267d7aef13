"""Memory questions read with the engine's understanding parts (``EnginePort``).

A typo of a question word ("prevous", "alergies", a letter left out or typed twice) is read
as the word; a direction word that no cue of ``relations.yaml`` holds ("pushes higher") tells
a note that a drug raises a gene from one that it lowers one; a cue word that another
relation's wordings use too supports that relation as well (``engine.understand.cueshare``).
The wordings are our own.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.api import Helix
from engine.result import Result, Status
from memory.clock import SimulatedClock
from memory.service import UserMemory
from wiring.open import MemoryParts, memory_parts, open_memory

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> SimulatedClock:
    return SimulatedClock(START)


@pytest.fixture(scope="module")
def parts(helix: Helix) -> MemoryParts:
    """What every user's memory takes from the engine (the bank embedded once)."""
    return memory_parts(helix)


@pytest.fixture
def mem(
    helix: Helix, parts: MemoryParts, tmp_path: Path, clock: SimulatedClock
) -> Iterator[UserMemory]:
    settings = helix.settings.model_copy(update={"home": tmp_path / "home"})
    memory = open_memory(settings, "u1", helix, clock, parts=parts)
    yield memory
    memory.close()


def _note_up_and_down(mem: UserMemory) -> None:
    """Notes that donepezil raises DRD2 (Gene::1813) and lowers ACHE (Gene::43)."""
    notes = (
        "My bench note: donepezil upregulates DRD2.",
        "Another of my findings: donepezil inhibits ACHE.",
    )
    for text in notes:
        assert mem.state(text) is not None, text


def _top(result: Result | None) -> str | None:
    assert result is not None
    return result.answers[0].id if result.status == Status.ANSWERED else None


@pytest.mark.integration
def test_typos_of_memory_question_words_are_read_as_the_words(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    assert mem.speller is not None, "the engine's speller reaches memory"
    for text in ("MRN 2231 is allergic to donepezil.", "MRN 2231 creatinine 1.4 mg/dL."):
        assert mem.state(text) is not None, text
    clock.advance(minutes=300)
    assert mem.state("MRN 2231 creatinine 2.2 mg/dL.") is not None
    earlier = mem.answer("the prevous creatinine of MRN 2231?", [])
    assert earlier is not None and earlier.answers[0].name == "creatinine 1.4 mg/dL"
    assert earlier.question == "the prevous creatinine of MRN 2231?", "the question as typed"
    assert _top(mem.answer("list MRN 2231's documented alergies", [])) == "Compound::DB00843"


@pytest.mark.integration
def test_a_question_s_direction_tells_a_raised_gene_from_a_lowered_one(mem: UserMemory) -> None:
    assert mem.answerer.directions is not None, "the engine's direction reading reaches memory"
    _note_up_and_down(mem)
    up = mem.answer("Which gene does donepezil push higher, in my notes?", [])
    down = mem.answer("In my notes, which gene does donepezil bring lower?", [])
    assert _top(up) == "Gene::1813"
    assert _top(down) == "Gene::43"


@pytest.mark.integration
def test_a_cue_word_other_relations_use_too_is_no_reason_to_answer_with_its_own(
    mem: UserMemory,
) -> None:
    assert mem.state("MRN 2231 was started on donepezil.") is not None
    asked = mem.answer("Any drug MRN 2231 must never get because of a reaction?", [])
    assert asked is not None and asked.status == Status.NOT_ANSWERED
    assert asked.text == "I have no allergy recorded for MRN 2231."


@pytest.mark.integration
def test_a_pronoun_with_nothing_named_is_the_session_s_last_subject(mem: UserMemory) -> None:
    _note_up_and_down(mem)
    first = mem.answer("Which gene does donepezil push higher, in my notes?", [], session="s1")
    assert first is not None and _top(first) == "Gene::1813"
    mem.record("Which gene does donepezil push higher, in my notes?", first, "s1")
    then = mem.answer("And which one does it bring lower, in my notes?", [], session="s1")
    assert _top(then) == "Gene::43"
    other = mem.answer("And which one does it bring lower, in my notes?", [], session="s2")
    assert other is None or other.status != Status.ANSWERED, "another session has no subject"


@pytest.mark.integration
def test_values_that_accumulate_have_no_previous_one_but_the_one_on_record(
    mem: UserMemory,
) -> None:
    assert mem.state("MRN 2231 is allergic to donepezil.") is not None
    asked = mem.answer("Before surgery we went over MRN 2231's allergies. Which were they?", [])
    assert _top(asked) == "Compound::DB00843"
