"""Answering one turn on the backend thread (``wiring.turn``), posting what it notes and answers."""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from textual.message import Message

from engine.config import Mode, Settings
from engine.events import StepEvent
from engine.ports import EnginePort, FactPort, UserMemoryPort
from engine.result import Result, Status
from engine.util.faults import StoreFault
from helix_tui.backend import Cancelled, CancelToken
from helix_tui.facts import notes_of
from helix_tui.messages import AnswerReady, AskFailed, FactsNoted, StepProgress
from helix_tui.services import Services

if TYPE_CHECKING:  # the app imports no wiring until its first question
    from wiring.turn import SessionContext

Post = Callable[[Message], object]
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


@dataclass
class ActiveAsk:
    """The turn being answered; a late message whose id is not the active one is dropped."""

    id: int
    request: AskRequest
    token: CancelToken = field(default_factory=CancelToken)
    started: bool = False


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
            except Exception as exc:
                self.errors[user] = f"{type(exc).__name__}: {exc}"
        return self._open.get(user)

    def close(self) -> None:
        for memory in self._open.values():
            memory.close()
        self._open.clear()


def answer(
    engine: EnginePort,
    memory: UserMemoryPort | None,
    request: AskRequest,
    ask: ActiveAsk,
    post: Post,
    contexts: Contexts | None = None,
) -> None:
    """Answer ``request``, posting progress and the outcome; nothing once cancelled.
    ``contexts`` holds each conversation's context, read and updated by the turn."""
    from wiring.turn import take_turn  # imported on the first question: the app paints first

    token = ask.token
    key = (request.user, request.session)

    def sink(event: StepEvent) -> None:
        token.check()
        post(StepProgress(ask.id, event))

    try:
        token.check()
        if request.store is not None:
            notes = notes_of(request.store(memory)) if memory is not None else []
            token.check()
            if notes:
                post(FactsNoted(ask.id, notes))
            post(AnswerReady(ask.id, noted_result(request.question, notes)))
            return

        def noted(fact: FactPort) -> None:
            token.check()
            post(FactsNoted(ask.id, notes_of(fact)))

        turn = take_turn(
            engine,
            memory,
            request.question,
            mode=request.mode,
            session=request.session,
            choice=request.choice,
            qid=request.qid,
            on_event=sink,
            on_noted=noted,
            split=request.split,
            context=contexts.get(key) if contexts is not None else None,
        )
        if contexts is not None and turn.context is not None:
            contexts[key] = turn.context
        token.check()
        result = turn.result
        if result is None:
            post(AnswerReady(ask.id, noted_result(request.question, notes_of(turn.noted))))
            return
        post(AnswerReady(ask.id, result, result.all_names()))
    except Cancelled:
        return
    except StoreFault as exc:  # one sentence with the file and the fix; the chat goes on
        post(AskFailed(ask.id, str(exc)))
    except Exception as exc:
        post(AskFailed(ask.id, f"{type(exc).__name__}: {exc}"))


def noted_result(text: str, notes: list[str]) -> Result:
    if not notes:
        return Result(
            question=text,
            status=Status.NOT_ANSWERED,
            text="I found no fact to note in that statement.",
            intent="statement",
        )
    return Result(
        question=text, status=Status.ANSWERED, text="Noted: " + "; ".join(notes), intent="statement"
    )
