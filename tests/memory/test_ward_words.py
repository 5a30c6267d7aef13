"""Values and allergies as a ward words them (issue 36, fourth pass): when a value was taken
written between a known test and its value, a drug a patient is "sensitive" to. Pure readings
and the real stores; the wordings are our own.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.config import Settings
from engine.result import Status
from memory.asks import AskScorer
from memory.clock import SimulatedClock
from memory.literals import find_measurements
from memory.patients import find_placed
from memory.service import UserMemory
from tests.memory.memfakes import fake_linker

_KNOWN = frozenset({"k", "crp", "hr", "inr"})


def test_when_a_value_was_taken_said_after_its_test_is_no_part_of_the_test() -> None:
    for text, literal in [
        ("K on admission 6.1, repeat pending", "K 6.1"),
        ("his crp this morning 211", "crp 211"),
        ("hr still 118, rate control next", "hr 118"),
        ("inr yesterday 2.2", "inr 2.2"),
    ]:
        [m] = find_measurements(text, _KNOWN)
        assert m.literal == literal, text
    # a name that is no known test keeps its words
    [m] = find_measurements("peak flow 320 (best 450)", _KNOWN)
    assert m.key == "peak flow"


@pytest.fixture
def mem(settings: Settings, clock: SimulatedClock, asks: AskScorer) -> Iterator[UserMemory]:
    with UserMemory(settings, "u36w", clock=clock, linker=fake_linker(), asks=asks) as memory:
        yield memory


def test_a_drug_a_patient_is_sensitive_to_is_an_allergy(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    clock.advance(minutes=5)
    mem.state_each("2769 penicillin sensitive - rash with it", "s1")
    result = mem.answer("2769 allergies", [], session="s1")
    assert result is not None and result.status == Status.ANSWERED
    assert "penicillin" in result.text.lower()
    result = mem.answer("remind me what 2769 reacts to", [], session="s1")
    assert result is not None and "penicillin" in result.text.lower()


def test_a_title_first_name_and_surname_before_the_number_place_the_surname() -> None:
    assert find_placed("mrs ana ortega, mrn 4472, in with fast af") == [
        ("ortega", "surname", "4472")
    ]
    assert ("quinn", "surname", "7791") in find_placed("mr quinn bed 8 (mrn 7791), cellulitis")
    # the record's word or a day after a surname is no second name
    assert find_placed("mr volkov mrn 43121, sepsis") == [("volkov", "surname", "43121")]
    assert find_placed("saw mr haddad today (mrn 5503)") == [("haddad", "surname", "5503")]
