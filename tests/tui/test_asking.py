"""``helix_tui.asking.answer``: the chat's turn on the backend thread (``wiring.turn``), and
the messages it posts, without the app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.message import Message

from helix_tui.asking import ActiveAsk, AskRequest, answer
from helix_tui.messages import AnswerReady, FactsNoted, StepProgress

from .fakes import AMBIGUOUS_QUESTION, MS, make_harness

SWITCH = "Switched MRN 4471 from metformin to sitagliptin."


def run(
    home: Path, request: AskRequest
) -> tuple[list[Message], list[str], list[dict[str, object]]]:
    """Posted messages, the texts offered to memory and the engine's calls."""
    harness = make_harness(home)
    engine = harness.engine
    memory = harness.services.open_memory(harness.settings, "alice", engine, harness.clock)
    posted: list[Message] = []
    answer(engine, memory, request, ActiveAsk(1, request), posted.append)
    return posted, harness.memories["alice"].stated, engine.calls


def request(text: str, **options: Any) -> AskRequest:
    return AskRequest(question=text, user="alice", session="s1", mode="hybrid", **options)


def test_a_statement_is_noted_before_its_question_is_asked(tmp_path: Path) -> None:
    posted, stated, calls = run(tmp_path, request(f"{SWITCH} {AMBIGUOUS_QUESTION}"))
    assert stated == [SWITCH]
    assert [c["question"] for c in calls] == [AMBIGUOUS_QUESTION]
    assert isinstance(posted[0], FactsNoted)
    assert posted[0].notes == ["MRN 4471 takes Sitagliptin"]
    assert any(isinstance(m, StepProgress) for m in posted)
    assert isinstance(posted[-1], AnswerReady)


def test_a_clarification_choice_is_not_offered_to_memory(tmp_path: Path) -> None:
    text = f"{SWITCH} {AMBIGUOUS_QUESTION}"
    posted, stated, calls = run(tmp_path, request(text, choice=MS))
    assert stated == []
    assert [(c["question"], c["choice"]) for c in calls] == [(text, MS)]
    assert not any(isinstance(m, FactsNoted) for m in posted)


def test_a_replay_question_is_asked_whole(tmp_path: Path) -> None:
    posted, stated, calls = run(tmp_path, request(SWITCH, split=False))
    assert stated == []
    assert [c["question"] for c in calls] == [SWITCH]
    assert isinstance(posted[-1], AnswerReady)


def test_a_statement_alone_is_answered_with_its_note(tmp_path: Path) -> None:
    posted, stated, calls = run(tmp_path, request(SWITCH))
    assert stated == [SWITCH] and calls == []
    done = posted[-1]
    assert isinstance(done, AnswerReady)
    assert done.result.intent == "statement"
    assert done.result.text == "Noted: MRN 4471 takes Sitagliptin"


def test_a_question_is_traced_for_the_user_who_asked_it(tmp_path: Path) -> None:
    """The chat's user (a replay switches between users) keeps the question's trace, where
    forgetting a patient finds it, not the user the engine was opened for."""
    asked = AskRequest(question=AMBIGUOUS_QUESTION, user="bob", session="s1", mode="hybrid")
    _, _, calls = run(tmp_path, asked)
    assert [c["user"] for c in calls] == ["bob"]
