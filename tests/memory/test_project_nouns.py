"""Project notes as a chemist types them (issue 36, fourth pass): a project named by a coded
word of its name or introduced by its codename, notes given by the noun they are about and
asked back by it, compounds by their number alone, leads and backups swapped. On the real
stores with the real embedding model; the wordings are our own.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.config import Settings
from engine.result import Status
from memory.asks import AskScorer
from memory.clock import SimulatedClock
from memory.notes import find_notes, heading_note, it_as_code, labelled_note, with_codes
from memory.service import UserMemory
from memory.subjects import _as_name
from tests.memory.memfakes import fake_linker


# --- pure readings -----------------------------------------------------------------------------
def _noted(text: str, project: str) -> tuple[str, str] | None:
    at = text.index(project)
    return labelled_note(text, at, at + len(project))


def test_a_note_is_read_as_the_noun_it_is_about_and_its_value() -> None:
    assert _noted("main readout for p53x = caspase glo in hela", "p53x") == (
        "main readout",
        "caspase glo in hela",
    )
    assert _noted("vendor for the p53x scale-up = wuxi", "p53x") == ("vendor", "wuxi")
    assert _noted("bio lead on heron is tomasz", "heron") == ("bio lead", "tomasz")
    assert _noted("heron cro: charles river", "heron") == ("cro", "charles river")
    # a value with no noun before it, or a sentence of its own, is no such note
    assert _noted("heron: HLX-7 ic50 40 nM", "heron") is None
    assert _noted("heron - dropping the jak1 angle", "heron") is None


def test_a_coded_word_names_its_project_in_any_case_and_a_codename_introduces_one() -> None:
    assert _as_name("p53x", "current p53x lead?")
    assert not _as_name("repurposing", "any repurposing news?")
    [named] = find_notes("new programme started - oral gpr40 agonist, codename vega")
    assert named.slug == "vega-project"
    coded = heading_note("p53x: HLX-12 came back at 4 nM")
    assert coded is not None and coded.slug == "p53x-project"
    assert heading_note("reverting - HLX-3 is lead again") is None


def test_a_number_of_a_known_code_is_that_code_and_it_is_the_code_said_before() -> None:
    codes = {"204": "HLX-204"}
    assert with_codes("204 becomes backup", codes.get) == "HLX-204 becomes backup"
    assert with_codes("k 4.2, 2040 ml", codes.get) == "k 4.2, 2040 ml"
    assert it_as_code("promoting it to lead", ["HLX-311 came back at 3 nM"]) == (
        "promoting HLX-311 to lead"
    )
    assert it_as_code("promoting it to lead", ["no code here"]) == "promoting it to lead"


# --- on the real stores --------------------------------------------------------------------------
@pytest.fixture
def mem(settings: Settings, clock: SimulatedClock, asks: AskScorer) -> Iterator[UserMemory]:
    with UserMemory(settings, "u36p", clock=clock, linker=fake_linker(), asks=asks) as memory:
        yield memory


def _say(mem: UserMemory, clock: SimulatedClock, text: str, minutes: int = 5) -> None:
    clock.advance(minutes=minutes)
    mem.state_each(text, "s1")


def _line(mem: UserMemory, text: str) -> str:
    result = mem.answer(text, [], session="s1")
    assert result is not None, text
    return result.text if result.status == Status.ANSWERED else f"NOT ANSWERED: {result.text}"


def test_a_project_by_part_of_its_name_its_nouns_and_its_compounds_by_number(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "heron p53x update: lead is QK-104, backup QK-98")
    _say(mem, clock, "main readout for p53x = caspase glo in hela")
    _say(mem, clock, "vendor for the p53x scale-up = wuxi")
    assert "QK-104" in _line(mem, "current p53x lead?")
    assert "caspase glo in hela" in _line(mem, "main readout for p53x")
    assert "wuxi" in _line(mem, "which vendor is doing the p53x scale-up?")
    _say(mem, clock, "p53x: QK-211 came back at 2 nM, promoting it to lead, 104 becomes backup")
    assert "QK-211" in _line(mem, "p53x lead now?")
    assert "QK-104" in _line(mem, "p53x backup now?")
    _say(mem, clock, "211 ic50 re-run came in at 5 nM")
    assert "5 nM" in _line(mem, "211 ic50?")


def test_a_codename_introduces_a_project_and_a_lead_is_switched_to_a_code(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "new programme kicked off - oral gpr40 agonist, codename vega")
    _say(mem, clock, "vega lead QK-501, calcium flux as primary")
    assert "QK-501" in _line(mem, "vega lead?")
    _say(mem, clock, "vega: switching lead to QK-530, better exposure")
    assert "QK-530" in _line(mem, "vega lead now?")
    # a noun another project has is not answered for this one
    _say(mem, clock, "vendor for the vega scale-up = wuxi")
    _say(mem, clock, "heron p53x update: lead is QK-104")
    assert _line(mem, "who is the vendor for p53x?").startswith("NOT ANSWERED")


def test_a_target_set_aside_is_not_the_name_the_project_is_called_by(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "ephb3 programme: parking p2ry12 as a target, focusing on ephb3 binders")
    assert "P2RY12" in _line(mem, "which target did we put on the back burner for ephb3?")
