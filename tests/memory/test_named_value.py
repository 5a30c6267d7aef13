"""A question that names a stored value and asks what it replaced: the value before it.

Wordings are our own, not the dev stream's. Facts live in a real DuckDB vault under tmp_path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from engine.config import Settings
from engine.result import Result, Status
from engine.understand.form import is_yes_no
from memory import choose
from memory.asks import AskScorer
from memory.clock import SimulatedClock
from memory.router import Temporal, TemporalIntent
from memory.service import UserMemory
from memory.vault import Fact
from tests.memory.memfakes import fake_linker

P = "patient:5120"
DOXAZOSIN, ASPIRIN, PRASUGREL = "Compound::DB00590", "Compound::DB00945", "Compound::DB06209"
PROJECT = "note:platelet-project"
NILOTINIB = "Compound::DB04868"


def _fill(mem: UserMemory, clock: SimulatedClock) -> None:
    """Doxazosin, then aspirin, then prasugrel (current); a project lead aspirin -> nilotinib."""
    statements = [
        "Omar Haddad (MRN 5120) was started on doxazosin today.",
        "Switched MRN 5120 from doxazosin to aspirin.",
        "Switched MRN 5120 from aspirin to prasugrel.",
        "Lead compound for the platelet project is aspirin.",
        "Switched the platelet project lead from aspirin to nilotinib.",
    ]
    for text in statements:
        clock.advance(minutes=600)
        assert mem.state(text, "s1") is not None, text


def _top(result: Result | None) -> str | None:
    assert result is not None
    return result.answers[0].id if result.status == Status.ANSWERED else None


# --- the rule itself, over a real vault's history -------------------------------------------


@pytest.fixture
def history(memory: UserMemory, clock: SimulatedClock) -> list[Fact]:
    _fill(memory, clock)
    return [f for f in memory.vault.history(P) if f.rel == "takes"]


def _names(*ids: str) -> Callable[[Fact], bool]:
    return lambda f: f.obj in ids


CURRENT = TemporalIntent()


@pytest.mark.parametrize(
    ("kind", "named", "expect"),
    [
        (Temporal.CURRENT, PRASUGREL, Temporal.BEFORE),  # would only echo the value it names
        (Temporal.PREVIOUS, ASPIRIN, Temporal.BEFORE),  # previous to the named value
        (Temporal.AFTER, PRASUGREL, Temporal.BEFORE),  # read "after", but nothing follows it
        (Temporal.AFTER, ASPIRIN, Temporal.AFTER),  # something did follow aspirin
        (Temporal.CURRENT, ASPIRIN, Temporal.CURRENT),  # the answer is not the named value
        (Temporal.FIRST, PRASUGREL, Temporal.FIRST),
        (Temporal.AS_OF, PRASUGREL, Temporal.AS_OF),
        (Temporal.CURRENT, NILOTINIB, Temporal.CURRENT),  # not a value of this relation
    ],
)
def test_named_value_rule(
    history: list[Fact], kind: Temporal, named: str, expect: Temporal
) -> None:
    when = TemporalIntent(kind)
    out = choose.on_named_value(when, CURRENT, history, _names(named))
    assert out.kind == expect
    if expect == Temporal.BEFORE:
        assert out.explicit and out.fallback == Temporal.PREVIOUS


def test_after_said_in_words_is_kept(history: list[Fact]) -> None:
    """ "What replaced prasugrel?" asks what came after it: nothing did, and that is the answer."""
    said = TemporalIntent(Temporal.AFTER, "prasugrel", Temporal.CURRENT, None, True)
    assert choose.on_named_value(said, said, history, _names(PRASUGREL)) == said


@pytest.mark.parametrize(
    ("text", "yes_no"),
    [
        ("Is MRN 5120 still on prasugrel?", True),
        ("Did prasugrel take over from aspirin?", True),
        ("so was he on aspirin before?", True),
        ("What did prasugrel take over from?", False),
        ("Before prasugrel, which drug was he on?", False),
    ],
)
def test_yes_no_questions(text: str, yes_no: bool) -> None:
    assert is_yes_no(text) is yes_no


# --- whole questions, cue rules only --------------------------------------------------------


def test_rules_only_questions_that_name_the_new_value(
    memory: UserMemory, clock: SimulatedClock
) -> None:
    _fill(memory, clock)
    assert _top(memory.answer("What did prasugrel take over from for MRN 5120?", [])) == ASPIRIN
    earlier = memory.answer("What was MRN 5120 on previously, when aspirin was started?", [])
    assert _top(earlier) == DOXAZOSIN
    assert _top(memory.answer("Is MRN 5120 still on prasugrel?", [])) == PRASUGREL
    assert _top(memory.answer("What is MRN 5120 on now?", [])) == PRASUGREL
    assert _top(memory.answer("What replaced aspirin for MRN 5120?", [])) == PRASUGREL
    nothing_after = memory.answer("What replaced prasugrel for MRN 5120?", [])
    assert nothing_after is not None and nothing_after.status == Status.NOT_ANSWERED


# --- whole questions, read by meaning against the exemplar bank ------------------------------


@pytest.fixture
def mem(settings: Settings, clock: SimulatedClock, asks: AskScorer) -> Iterator[UserMemory]:
    with UserMemory(settings, "u41", clock=clock, linker=fake_linker(), asks=asks) as memory:
        _fill(memory, clock)
        yield memory


@pytest.mark.parametrize(
    ("question", "expect"),
    [
        ("Which medicine did prasugrel take over from for MRN 5120?", ASPIRIN),
        ("What got swapped out when Omar Haddad went onto prasugrel?", ASPIRIN),
        ("What was pt 5120 taking before we moved him to prasugrel?", ASPIRIN),
        ("Which drug did prasugrel displace in Omar Haddad's regimen?", ASPIRIN),
        ("What had MRN 5120 been on when prasugrel was brought in?", ASPIRIN),
        ("What did MRN 5120 take earlier, when aspirin came in?", DOXAZOSIN),
        ("What did nilotinib take over from as lead in the platelet project?", ASPIRIN),
        ("Which compound got replaced when the platelet project moved to nilotinib?", ASPIRIN),
        # the other direction and plain questions are untouched
        ("What replaced aspirin for MRN 5120?", PRASUGREL),
        ("Is MRN 5120 still on prasugrel?", PRASUGREL),
        ("What is the lead compound of the platelet project?", NILOTINIB),
        ("What was MRN 5120's previous drug?", ASPIRIN),
    ],
)
def test_questions_naming_the_new_value(mem: UserMemory, question: str, expect: str) -> None:
    assert _top(mem.answer(question, [])) == expect


def test_the_answer_says_it_is_the_value_before(mem: UserMemory) -> None:
    result = mem.answer("Which medicine did prasugrel take over from for MRN 5120?", [])
    assert result is not None and result.intent == f"memory:takes:{Temporal.BEFORE}"
    # named by the graph, and as the user wrote it
    assert result.answers[0].name == "Acetylsalicylic acid (aspirin)"
