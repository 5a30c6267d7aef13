"""A patient's condition as a ward types it (issue 36): a state the graph names only as a side
effect ("septic shock", "gout flare") is a diagnosis unless a drug is blamed for it; short
forms in lower case ("massive pe"); why a patient is in or on a treatment asks for it; a
statement of what will be done is noted. On the real stores with the real embedding model;
the wordings are our own.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.config import Settings
from engine.result import LinkedEntity, Result, Status
from memory.asks import AskScorer
from memory.clock import SimulatedClock
from memory.conditions import as_conditions
from memory.service import UserMemory
from memory.vault import Fact
from tests.memory.memfakes import fake_linker


@pytest.fixture
def mem(settings: Settings, clock: SimulatedClock, asks: AskScorer) -> Iterator[UserMemory]:
    with UserMemory(settings, "u36c", clock=clock, linker=fake_linker(), asks=asks) as memory:
        yield memory


def _say(mem: UserMemory, clock: SimulatedClock, text: str) -> tuple[Fact, ...]:
    clock.advance(minutes=5)
    return mem.state_each(text, "s1").facts


def _top(mem: UserMemory, text: str) -> str | None:
    result: Result | None = mem.answer(text, [], session="s1")
    assert result is not None, text
    return result.answers[0].id if result.status == Status.ANSWERED else None


def _entity(mention: str, node: str, kind: str, start: int) -> LinkedEntity:
    return LinkedEntity(
        mention=mention, id=node, name=mention, kind=kind, score=1.0, method="exact",
        start=start, end=start + len(mention),
    )  # fmt: skip


def test_a_state_tied_to_no_drug_reads_as_the_disease_its_words_name() -> None:
    linker = fake_linker()
    text = "mr byrne gout flare"
    flare = _entity("gout flare", "Side Effect::C1619733", "Side Effect", 9)
    read = as_conditions(text, [flare], lambda e: False, lambda t, k: linker(t, k))
    assert [(e.id, e.kind, e.mention, e.start) for e in read] == [
        ("Disease::DOID:13189", "Disease", "gout", 9)
    ]
    shock = _entity("septic shock", "Side Effect::C0036983", "Side Effect", 9)
    read = as_conditions("mr petrov septic shock", [shock], lambda e: False, linker)
    assert {e.kind for e in read} == {"Side Effect", "Disease"}
    # blamed on a drug, or one vague word: stays as it was
    assert as_conditions(text, [flare], lambda e: True, linker) == [flare]
    gas = _entity("gas", "Side Effect::C0017110", "Side Effect", 9)
    assert as_conditions("lactate 2.9 on the gas", [gas], lambda e: False, linker) == [gas]


def test_conditions_typed_on_a_ward_are_diagnoses(mem: UserMemory, clock: SimulatedClock) -> None:
    _say(mem, clock, "bed 2 mr petrov mrn 43120, septic shock from a perforated bowel")
    _say(mem, clock, "mr byrne, 9071, gout flare, on metformin 500 mg bd")
    _say(mem, clock, "new in bed 5: mr nguyen, mrn 301, massive pe, now on warfarin 5 mg od")
    assert _top(mem, "why is bed 2 on pressors") == "Side Effect::C0036983"
    assert _top(mem, "what flared up for mr byrne") == "Disease::DOID:13189"
    assert _top(mem, "what's mr nguyen anticoagulated for") == "Disease::DOID:9477"
    assert _top(mem, "what's bed 5 in for") == "Disease::DOID:9477"
    # a harm put down to a drug stays a side effect
    _say(mem, clock, "petrov lactate 2.9 mmol/l on the evening gas")
    assert _top(mem, "what is petrov diagnosed with") == "Side Effect::C0036983"


def test_a_part_of_the_body_is_where_a_condition_is(mem: UserMemory, clock: SimulatedClock) -> None:
    facts = _say(mem, clock, "new one in bed 12: mrs duarte, mrn 7342, cellulitis of the L leg")
    assert [(f.rel, f.obj) for f in facts] == [("diagnosed_with", "Disease::DOID:3488")]
    assert _top(mem, "what's she in with?") == "Disease::DOID:3488"


def test_what_will_be_done_is_noted(mem: UserMemory, clock: SimulatedClock) -> None:
    _say(mem, clock, "mr byrne, 9071, gout flare")
    facts = _say(mem, clock, "will start his warfarin 3 mg od next week")
    assert [f.obj for f in facts] == ["Compound::DB00682"]


def test_a_tests_name_that_modifies_a_medicine_names_no_test() -> None:
    from memory.literals import mentioned_keys

    keys = ["calcium", "phosphate", "potassium"]
    assert mentioned_keys("what calcium channel blocker is MRN 5521 taking?", keys, {}) == []
    assert mentioned_keys("what phosphate binder is she on", keys, {}) == []
    assert mentioned_keys("what was her calcium yesterday", keys, {}) == ["calcium"]
    # the name stands where it is a test, even beside a medicine named elsewhere
    assert mentioned_keys("potassium on the potassium supplement?", keys, {}) == ["potassium"]
