"""A dose changed by its amount alone keeps how often it is given; a change may name the
patient between the drug and its new dose (issue 36, fourth pass). Pure readings and the real
stores; the wordings are our own.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.config import Settings
from engine.result import Status
from memory.asks import AskScorer
from memory.clock import SimulatedClock
from memory.dosing import dose_after, kept_frequency
from memory.service import UserMemory
from tests.memory.memfakes import fake_linker


def test_an_amount_alone_keeps_the_frequency_of_the_dose_it_changes() -> None:
    assert kept_frequency("7mg", "4mg od") == "7mg od"
    assert kept_frequency("7mg nocte", "4mg od") == "7mg nocte"
    assert kept_frequency("7mg", None) == "7mg"
    assert kept_frequency("7mg", "4mg") == "7mg"


def test_a_change_of_dose_may_name_the_patient_before_its_verb() -> None:
    dose = dose_after("atenolol on 55120 increased to 50mg od, hr 90", len("atenolol"))
    assert dose is not None and dose.text == "50mg od"


@pytest.fixture
def mem(settings: Settings, clock: SimulatedClock, asks: AskScorer) -> Iterator[UserMemory]:
    with UserMemory(settings, "u36f", clock=clock, linker=fake_linker(), asks=asks) as memory:
        yield memory


def test_a_dose_raised_by_its_amount_is_shown_with_its_frequency(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    clock.advance(minutes=5)
    mem.state_each("2046 af, on warfarin 4mg od", "s1")
    clock.advance(minutes=5)
    mem.state_each("2046 inr 1.7 today, upping warfarin to 7mg", "s1")
    result = mem.answer("warfarin dose for 2046 now", [], session="s1")
    assert result is not None and result.status == Status.ANSWERED
    assert "7mg od" in result.text
