"""Answering one turn on the backend thread (``helix_tui.turns``), posting what it notes and
answers to the chat screen."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from textual.message import Message

from engine.events import StepEvent
from engine.ports import EnginePort, FactPort, UserMemoryPort
from engine.util.faults import StoreFault
from helix_tui.backend import Cancelled, CancelToken
from helix_tui.facts import notes_of
from helix_tui.messages import AnswerReady, AskFailed, FactsNoted, StepProgress
from helix_tui.turns import AskRequest, Contexts, chat_turn, noted_result

__all__ = ["ActiveAsk", "AskRequest", "Post", "answer"]

Post = Callable[[Message], object]


@dataclass
class ActiveAsk:
    """The turn being answered; a late message whose id is not the active one is dropped."""

    id: int
    request: AskRequest
    token: CancelToken = field(default_factory=CancelToken)
    started: bool = False


def answer(
    engine: EnginePort,
    memory: UserMemoryPort | None,
    request: AskRequest,
    ask: ActiveAsk,
    post: Post,
    contexts: Contexts | None = None,
    unusable: str | None = None,
) -> None:
    """Answer ``request``, posting progress and the outcome; nothing once cancelled.
    ``contexts`` holds each conversation's context, read and updated by the turn;
    ``unusable`` says why ``memory`` is None when the user's could not be opened."""
    token = ask.token

    def sink(event: StepEvent) -> None:
        token.check()
        post(StepProgress(ask.id, event))

    def noted(fact: FactPort) -> None:
        token.check()
        post(FactsNoted(ask.id, notes_of(fact)))

    try:
        token.check()
        if request.store is not None:
            notes = notes_of(request.store(memory)) if memory is not None else []
            token.check()
            if notes:
                post(FactsNoted(ask.id, notes))
            post(AnswerReady(ask.id, noted_result(request.question, notes)))
            return
        result, _ = chat_turn(
            engine, memory, request, contexts, on_event=sink, on_noted=noted, unusable=unusable
        )
        token.check()
        post(AnswerReady(ask.id, result, result.all_names()))
    except Cancelled:
        return
    except StoreFault as exc:  # one sentence with the file and the fix; the chat goes on
        post(AskFailed(ask.id, str(exc)))
    except Exception as exc:
        post(AskFailed(ask.id, f"{type(exc).__name__}: {exc}"))
