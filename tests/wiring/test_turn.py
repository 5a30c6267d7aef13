"""``wiring.turn``: one turn of every front end, over real per-user memory in a temp home.

The engine is the deterministic stand-in (it records what it was asked), except in the last
test, which runs the real engine over the slice's stores.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.config import Settings
from engine.ports import FactPort
from engine.result import Status
from engine.understand.form import split_turn
from memory.clock import SimulatedClock
from memory.service import UserMemory
from tests.support.fake_engine import FakeEngine
from wiring.open import open_memory
from wiring.turn import take_turn

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
METFORMIN = "Compound::DB00331"
DONEPEZIL = "Compound::DB00843"
STATED = "MRN 5521 started on metformin."
ASKED = "What treats Alzheimer's disease?"
NOTHING = "The clinic was busy this morning."


@pytest.fixture
def engine(tmp_path: Path) -> FakeEngine:
    return FakeEngine(Settings(home=tmp_path, trace_exporter="none"))


@pytest.fixture
def memory(engine: FakeEngine, tmp_path: Path) -> Iterator[UserMemory]:
    settings = Settings(home=tmp_path / "home", trace_exporter="none")
    mem = open_memory(settings, "alice", engine, SimulatedClock(START))
    yield mem
    mem.close()


def stated(memory: UserMemory) -> list[tuple[str, str, str]]:
    """The facts the user stated (an answer's reviewed triples are kept too, as 'reviewed')."""
    return [(f.subj, f.rel, f.obj) for f in memory.facts() if f.source == "stated"]


def test_a_statement_alone_is_noted_and_nothing_is_asked(
    engine: FakeEngine, memory: UserMemory
) -> None:
    told: list[FactPort] = []
    turn = take_turn(engine, memory, STATED, session="s1", on_noted=told.append)
    assert turn.noted is not None and turn.noted.obj == METFORMIN
    assert told == [turn.noted]
    assert turn.asked is None and turn.result is None
    assert engine.calls == []
    assert stated(memory) == [("patient:5521", "takes", METFORMIN)]


def test_a_statement_then_a_question_notes_the_one_and_asks_the_other(
    engine: FakeEngine, memory: UserMemory
) -> None:
    turn = take_turn(engine, memory, f"{STATED} {ASKED}", session="s1", mode="graph")
    assert turn.noted is not None and turn.noted.obj == METFORMIN
    assert turn.asked == ASKED
    assert turn.result is not None and turn.result.answers[0].id == DONEPEZIL
    (call,) = engine.calls
    assert call["question"] == ASKED
    assert (call["memory"], call["session"], call["mode"], call["choice"]) == (
        memory,
        "s1",
        "graph",
        None,
    )


def test_the_remainder_asked_sees_what_the_statement_noted(
    engine: FakeEngine, memory: UserMemory
) -> None:
    turn = take_turn(engine, memory, f"{STATED} What is MRN 5521 taking right now?")
    assert turn.asked == "What is MRN 5521 taking right now?"
    assert turn.result is not None and turn.result.answers[0].id == METFORMIN


@pytest.mark.parametrize(
    "text",
    [
        f"{NOTHING} {ASKED}",
        "Medicines that treat Alzheimer's disease.",
    ],
)
def test_when_nothing_is_noted_the_whole_text_is_asked(
    engine: FakeEngine, memory: UserMemory, text: str
) -> None:
    assert split_turn(text)[0], "the split reads a statement in it"
    told: list[FactPort] = []
    turn = take_turn(engine, memory, text, on_noted=told.append)
    assert turn.noted is None and told == []
    assert turn.asked == text
    assert [c["question"] for c in engine.calls] == [text]
    assert turn.result is not None and turn.result.answers[0].id == DONEPEZIL
    assert stated(memory) == []


def test_a_clarification_choice_resumes_the_question_and_notes_nothing(
    engine: FakeEngine, memory: UserMemory
) -> None:
    text = f"{STATED} {ASKED}"
    turn = take_turn(engine, memory, text, session="s1", choice="Disease::DOID:10652")
    assert turn.noted is None and turn.asked == text
    (call,) = engine.calls
    assert (call["question"], call["choice"]) == (text, "Disease::DOID:10652")
    assert stated(memory) == []


def test_without_a_memory_the_whole_text_is_asked(engine: FakeEngine) -> None:
    text = f"{STATED} {ASKED}"
    turn = take_turn(engine, None, text, qid="q1")
    assert (turn.text, turn.noted, turn.asked) == (text, None, text)
    (call,) = engine.calls
    assert (call["question"], call["memory"], call["qid"]) == (text, None, "q1")


def test_a_text_known_to_be_a_question_is_not_offered_to_memory(
    engine: FakeEngine, memory: UserMemory
) -> None:
    turn = take_turn(engine, memory, STATED, split=False)
    assert turn.noted is None and turn.asked == STATED
    assert [c["question"] for c in engine.calls] == [STATED]
    assert stated(memory) == []


def test_the_engine_s_steps_reach_the_caller(memory: UserMemory) -> None:
    from engine.events import StepEvent

    engine = FakeEngine(steps=[StepEvent("plan", "start"), StepEvent("plan", "end")])
    seen: list[StepEvent] = []
    take_turn(engine, memory, ASKED, on_event=seen.append)
    assert [(e.step, e.phase) for e in seen] == [("plan", "start"), ("plan", "end")]


@pytest.mark.integration
def test_the_real_engine_notes_then_answers(helix: object, tmp_path: Path) -> None:
    from engine.api import Helix

    assert isinstance(helix, Helix)
    settings = helix.settings.model_copy(update={"home": tmp_path / "home"})
    with open_memory(settings, "alice", helix, SimulatedClock(START)) as memory:
        question = "Which medicines are used to treat Alzheimer's disease?"
        turn = take_turn(helix, memory, f"Started MRN 4471 on metformin. {question}")
        assert turn.noted is not None and turn.noted.subj == "patient:4471"
        assert turn.asked == question
        assert turn.result is not None and turn.result.status is Status.ANSWERED
        assert DONEPEZIL in [a.id for a in turn.result.answers]
        whole = "Medicines used to treat Alzheimer's disease."
        turn = take_turn(helix, memory, whole)
        assert turn.noted is None and turn.asked == whole
        assert turn.result is not None and DONEPEZIL in [a.id for a in turn.result.answers]


@pytest.mark.integration
def test_my_patient_is_the_patient_of_the_session_through_the_real_engine(
    helix: object, tmp_path: Path
) -> None:
    from engine.api import Helix

    assert isinstance(helix, Helix)
    settings = helix.settings.model_copy(update={"home": tmp_path / "home"})
    with open_memory(settings, "alice", helix, SimulatedClock(START)) as memory:
        take_turn(helix, memory, "Seeing MRN 9245 in clinic today.", session="s1")
        turn = take_turn(helix, memory, "She is on metformin 500 mg twice daily.", session="s1")
        assert turn.noted is not None and turn.noted.subj == "patient:9245"
        turn = take_turn(helix, memory, "what meds is my patient on?", session="s1")
        assert turn.result is not None and turn.result.status is Status.ANSWERED
        assert turn.result.answers[0].id == METFORMIN
        assert "500 mg twice daily" in (turn.result.text or "")
        other = take_turn(helix, memory, "what meds is my patient on?", session="s2")
        assert other.result is not None and METFORMIN not in [a.id for a in other.result.answers]


def test_the_front_ends_take_this_turn_and_keep_no_split_of_their_own() -> None:
    """The chat imports the turn when it first answers (``tests/tui/test_asking.py``)."""
    import helix_mcp.tools as tools
    import helix_tui.asking as asking

    assert tools.take_turn is take_turn
    assert not hasattr(asking, "split_turn") and not hasattr(tools, "split_turn")


def test_every_statement_is_noted_and_what_could_not_be_read_is_said(
    engine: FakeEngine, memory: UserMemory
) -> None:
    from helix_tui.turns import noted_result

    told: list[FactPort] = []
    text = f"{STATED} MRN 7730 started on donepezil. {NOTHING}"
    turn = take_turn(engine, memory, text, session="s1", on_noted=told.append)
    assert [f.obj for f in turn.facts] == [METFORMIN, DONEPEZIL]
    assert told == list(turn.facts) and turn.noted == turn.facts[0]
    assert turn.unread == (NOTHING,)
    said = noted_result(text, ["one", "two"], turn.unread).text
    assert said == f"Noted 2 of 3: one; two. Could not read: '{NOTHING}'"
    assert engine.calls == []


class Unreadable:
    """A user's memory whose store fails when read, as a damaged file does (the files
    themselves are broken in ``tests/reliability``); everything else is the real memory's."""

    def __init__(self, memory: UserMemory) -> None:
        self._memory = memory

    def __getattr__(self, name: str) -> object:
        return getattr(self._memory, name)

    def _fail(self, *args: object, **kwargs: object) -> None:
        from engine.util.faults import MemoryFault

        raise MemoryFault("your memory store /x/episodic.sqlite is damaged (malformed); run …")

    state_each = answer = _fail


def test_a_memory_that_fails_in_the_turn_leaves_the_question_answered_from_the_graph(
    engine: FakeEngine, memory: UserMemory
) -> None:
    from engine.util.faults import MemoryFault

    failing = Unreadable(memory)
    with pytest.raises(MemoryFault, match="is damaged"):
        take_turn(engine, failing, STATED, session="s1")  # type: ignore[arg-type]
    assert engine.calls == []  # a statement alone: nothing to ask
    mixed = take_turn(engine, failing, f"{STATED} {ASKED}", session="s1")  # type: ignore[arg-type]
    asked = take_turn(engine, failing, ASKED, session="s1")  # type: ignore[arg-type]
    for turn in (mixed, asked):
        assert turn.result is not None and turn.result.status is Status.ANSWERED
        assert turn.noted is None and "memory" in turn.result.degraded
        assert turn.memory_error is not None and "is damaged" in turn.memory_error
    assert [c["memory"] is None for c in engine.calls] == [True, False, True]


def test_a_memory_that_could_not_be_opened_refuses_a_statement_and_answers_a_question(
    engine: FakeEngine,
) -> None:
    from engine.util.faults import MemoryFault

    why = "your memory store /x/vault.duckdb cannot be written: the disk is full"
    with pytest.raises(MemoryFault, match="the disk is full"):
        take_turn(engine, None, STATED, unusable=why)
    asked = take_turn(engine, None, ASKED, unusable=why)
    assert asked.result is not None and asked.result.status is Status.ANSWERED
    assert asked.memory_error == why and "memory" in asked.result.degraded
    plain = take_turn(engine, None, ASKED)  # no memory, and none expected: nothing to say
    assert plain.memory_error is None and plain.result is not None
    assert "memory" not in plain.result.degraded


def test_a_turn_opens_the_users_vault_file_once(
    engine: FakeEngine, memory: UserMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memory.vault.file import DuckVaultDB

    opened: list[Path] = []
    real_open = DuckVaultDB._open

    def counted(db: DuckVaultDB) -> object:
        opened.append(db.path)
        return real_open(db)

    monkeypatch.setattr(DuckVaultDB, "_open", counted)
    turn = take_turn(engine, memory, f"{STATED} {ASKED}", session="s1")
    assert turn.noted is not None and turn.result is not None
    # noted, read for the question, the answer's triples kept: one open for all of them
    assert len(opened) == 1
    assert stated(memory) == [("patient:5521", "takes", METFORMIN)]  # written, and closed
    assert len(opened) == 2


def test_an_engine_error_in_a_turn_is_not_said_as_the_memorys(
    engine: FakeEngine, memory: UserMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    import duckdb

    def broken(question: str, **options: object) -> None:
        raise duckdb.IOException("IO Error: Could not read from file kg.duckdb")

    monkeypatch.setattr(engine, "ask", broken)
    with pytest.raises(duckdb.IOException, match=r"kg\.duckdb"):
        take_turn(engine, memory, ASKED, session="s1")
    take_turn(engine, memory, STATED, session="s1")  # the vault was let go: still usable
    assert stated(memory) == [("patient:5521", "takes", METFORMIN)]
