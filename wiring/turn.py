"""One turn of a conversation, the same for every front end (chat, MCP ``ask``, ``helix-chat
ask``): what the user typed is noted, asked, or both.

The rule:

- a clarification ``choice`` resumes the question being clarified: the text is asked whole,
  with the choice, and nothing is offered to memory (the choice answers the clarification);
- otherwise the text is split into its statements and its questions (``split_turn``), and the
  statements are offered to the user's memory;
- when a statement was noted, only the questions are asked (none: the turn only noted);
- when nothing was noted (no statement, no memory, or no fact found in it), the whole text is
  asked, so words the split took for a statement still reach the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.config import Mode
from engine.events import EventSink
from engine.ports import EnginePort, FactPort, UserMemoryPort
from engine.result import Result
from engine.understand.form import split_turn

OnNoted = Callable[[FactPort], object]
"""Told of a noted fact before anything is asked (the chat shows it at once)."""


@dataclass(frozen=True)
class TurnOutcome:
    """What one turn did.

    The session context of a conversation (its last subject, its last answers) will be carried
    here too, for follow-up questions."""

    text: str
    """What the user typed."""
    noted: FactPort | None = None
    """The fact noted in the user's memory from the turn's statements."""
    asked: str | None = None
    """What was put to the engine; None when the turn only noted a fact."""
    result: Result | None = None
    """The engine's answer to ``asked``."""


def take_turn(
    engine: EnginePort,
    memory: UserMemoryPort | None,
    text: str,
    *,
    mode: Mode | None = None,
    session: str | None = None,
    choice: str | None = None,
    qid: str | None = None,
    on_event: EventSink | None = None,
    on_noted: OnNoted | None = None,
    split: bool = True,
) -> TurnOutcome:
    """Note the statements of ``text`` in ``memory`` and ask the rest (the module's rule).

    ``split=False`` asks the whole text without offering it to memory, for a text known to be
    a question (a replay's ``ask`` event). ``memory`` is None when there is none to note in
    (the engine then answers without it)."""
    noted: FactPort | None = None
    asked = text
    if split and choice is None and memory is not None:
        statement, question = split_turn(text)
        noted = memory.state(statement, session) if statement else None
        if noted is not None:
            if on_noted is not None:
                on_noted(noted)
            if not question:
                return TurnOutcome(text, noted)
            asked = question
    result = engine.ask(
        asked,
        mode=mode,
        memory=memory,
        session=session,
        choice=choice,
        qid=qid,
        on_event=on_event,
    )
    return TurnOutcome(text, noted, asked, result)
