"""A chat turn as every front end of the app takes it (the Textual chat, ``--inline``): the
request, each user's memory opened on first use, each conversation's follow-up context, and
the turn itself through ``wiring.turn``. Nothing here knows how the answer is shown."""

from __future__ import annotations

from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.config import Mode, Settings
from engine.events import EventSink
from engine.ports import EnginePort, FactPort, UserMemoryPort
from engine.result import Result, Status
from engine.util.faults import StoreFault
from helix_tui.facts import notes_of
from helix_tui.services import Services

if TYPE_CHECKING:  # the app imports no wiring until its first question
    from wiring.turn import SessionContext

Contexts = MutableMapping[tuple[str, str | None], "SessionContext"]
"""Each conversation's context for follow-ups, by (user, session)."""


@dataclass(frozen=True)
class AskRequest:
    question: str
    user: str
    session: str | None
    mode: Mode
    choice: str | None = None
    split: bool = True
    """Note the text's statements and ask its questions (``wiring.turn``); False asks the
    whole text and notes nothing (a replay ``ask`` event)."""
    qid: str | None = None
    store: Callable[[UserMemoryPort], object] | None = None
    """Stores a replay ``say`` event in the user's memory; such a turn is never asked."""


class Memories:
    """Per-user memories, opened on first use. Backend thread only."""

    def __init__(self, settings: Settings, services: Services) -> None:
        self._settings = settings
        self._services = services
        self._open: dict[str, UserMemoryPort] = {}
        self.errors: dict[str, str] = {}
        self.contexts: Contexts = {}

    def get(self, user: str, engine: EnginePort) -> UserMemoryPort | None:
        if user not in self._open and user not in self.errors:
            try:
                self._open[user] = self._services.open_memory(
                    self._settings, user, engine, self._services.clock
                )
            except StoreFault as exc:  # its own sentence names the file and the fix
                self.errors[user] = str(exc)
            except Exception as exc:
                self.errors[user] = f"{type(exc).__name__}: {exc}"
        return self._open.get(user)

    def close(self) -> None:
        for memory in self._open.values():
            memory.close()
        self._open.clear()


def chat_turn(
    engine: EnginePort,
    memory: UserMemoryPort | None,
    request: AskRequest,
    contexts: Contexts | None = None,
    *,
    on_event: EventSink | None = None,
    on_noted: Callable[[FactPort], object] | None = None,
    unusable: str | None = None,
) -> tuple[Result, FactPort | None]:
    """Take the turn ``request`` asks for (``wiring.turn.take_turn``) within its conversation:
    ``contexts`` gives the context the turn reads and keeps the one it leaves. Returns the
    answer (for a turn that only noted, its note; one the memory could not help with says
    why first) and the fact noted, if any. ``unusable``: why the user's memory (None) could
    not be opened (``Memories.errors``)."""
    from wiring.turn import take_turn  # imported on the first question: the app paints first

    key = (request.user, request.session)
    turn = take_turn(
        engine,
        memory,
        request.question,
        mode=request.mode,
        session=request.session,
        choice=request.choice,
        qid=request.qid,
        on_event=on_event,
        on_noted=on_noted,
        split=request.split,
        context=contexts.get(key) if contexts is not None else None,
        unusable=unusable,
        user=request.user,  # traced in this user's directory (after /user too)
    )
    if contexts is not None and turn.context is not None:
        contexts[key] = turn.context
    if turn.result is not None and turn.memory_error is not None:
        said = f"Answered from the graph alone: {turn.memory_error}."
        turn.result.text = f"{said}\n\n{turn.result.text}" if turn.result.text else said
    if turn.result is None:
        notes = notes_of(list(turn.facts))
        return noted_result(request.question, notes, turn.unread), turn.noted
    return turn.result, turn.noted


def noted_result(text: str, notes: list[str], unread: Sequence[str] = ()) -> Result:
    """The answer to a turn that only stated: what was noted, and the sentences that stated
    nothing memory could read ("Noted 2 of 3: …. Could not read: '…'")."""
    if not notes:
        return Result(
            question=text,
            status=Status.NOT_ANSWERED,
            text="I found no fact to note in that statement.",
            intent="statement",
        )
    said = "Noted: " + "; ".join(notes)
    if len(notes) > 1:
        said = f"Noted {len(notes)} facts: " + "; ".join(notes)
    if unread:
        total = len(notes) + len(unread)
        missed = "; ".join(f"'{u.strip()}'" for u in unread)
        said = f"Noted {len(notes)} of {total}: " + "; ".join(notes) + f". Could not read: {missed}"
    return Result(question=text, status=Status.ANSWERED, text=said, intent="statement")
