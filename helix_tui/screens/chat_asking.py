"""The chat screen answering questions: the engine loading in a worker, the prompt, asking
and clarifying, cancelling, and playing a replay stream turn by turn."""

from __future__ import annotations

import asyncio
import contextlib
from functools import partial
from typing import TYPE_CHECKING, Literal

from textual import work
from textual.widgets import Input

from engine.ports import EnginePort
from engine.result import Result
from engine.util.faults import StoreFault
from helix_tui import commands
from helix_tui.asking import ActiveAsk, answer
from helix_tui.backend import Cancelled
from helix_tui.clarify import Clarifying, picked_line, read_typed
from helix_tui.messages import (
    AnswerReady,
    AskFailed,
    EngineFailed,
    EngineReady,
    FactsNoted,
    StepProgress,
)
from helix_tui.screens.chat_base import ChatBase, worker_cancelled
from helix_tui.screens.clarify import ClarifyScreen
from helix_tui.turns import AskRequest
from helix_tui.widgets.assistant_turn import AssistantTurn
from helix_tui.widgets.conversation import Conversation
from helix_tui.widgets.note import Note
from helix_tui.widgets.prompt import PromptInput
from helix_tui.widgets.user_turn import UserTurn

if TYPE_CHECKING:
    from helix_tui.replay import ReplayPlayer
    from memory.replay.events import Event


class ChatAsking(ChatBase):
    # ----------------------------------------------------------------- engine
    @work(thread=True, group="engine", exit_on_error=False)
    def load_engine(self) -> None:
        try:
            engine = self.backend.run(
                partial(self.services.open_engine, self.settings), abandon=worker_cancelled
            )
        except Cancelled:
            return
        except StoreFault as exc:  # its own sentence names the file and the fix
            self.post_message(EngineFailed(str(exc)))
            return
        except Exception as exc:
            self.post_message(EngineFailed(f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(EngineReady(engine))

    def on_engine_ready(self, message: EngineReady) -> None:
        self.engine = message.engine
        self.engine_ready.set()
        self._show_status()
        if self.asking is not None and not self.asking.started:
            self._run(self.asking)  # a question typed while it loaded first; its answer refreshes
        else:  # the user's memory opened (and warmed) before the first question
            self.refresh_memory()

    async def on_engine_failed(self, message: EngineFailed) -> None:
        self.engine_error = message.error
        self.engine_ready.set()
        self._show_status()
        if self.asking is not None and self.turn is not None:
            await self.turn.show_error(f"the engine could not load: {message.error}")
            self._finish()

    # ----------------------------------------------------------------- input
    async def on_input_submitted(self, event: Input.Submitted) -> None:
        if not isinstance(event.input, PromptInput):
            return
        text = event.value.strip()
        event.input.value = ""
        if not text:
            return
        event.input.remember(text)
        try:
            typed = read_typed(text, self.clarifying)
        except commands.UnknownCommand as exc:
            self.notify(str(exc), severity="warning")
            return
        if typed.command is not None:
            command, arg = typed.command
            await self.run_action(commands.action_call(command, arg))
        elif typed.pick is not None:
            await self.pick(typed.pick.id)
        else:
            self.clarifying = None
            await self.ask(text)

    async def ask(
        self,
        question: str,
        *,
        choice: str | None = None,
        shown: str | None = None,
        title: str = "You",
        replay: Event | None = None,
    ) -> None:
        """Show the question and answer it in a worker (after the engine loads, if need be).

        A replay ``say`` event only goes to memory (``memory.replay.events.say``); a replay
        ``ask`` event only goes to the engine.
        """
        await self._abandon("Cancelled: a new question was asked.")
        said = self.sessions.problem
        session = self.sessions.ensure(question)
        if self.sessions.problem is not None and self.sessions.problem != said:
            self.notify(f"Not saved: {self.sessions.problem}", severity="error", timeout=30)
        self._ask_ids += 1
        player = self.options.replay
        request = AskRequest(
            question=question,
            user=self.sessions.user,
            session=session.id,
            mode=self.mode,
            choice=choice,
            split=replay is None,
            store=player.storer(replay) if player is not None and replay is not None else None,
        )
        conversation = self.query_one(Conversation)
        await conversation.add(UserTurn(shown or question, title=title))
        turn = AssistantTurn()
        turn.replay = replay
        await conversation.add(turn)
        self.asking = ActiveAsk(self._ask_ids, request)
        self.turn = turn
        self.idle.clear()
        self.refresh_bindings()
        self._show_status()
        if self.engine_error is not None:
            await turn.show_error(f"the engine could not load: {self.engine_error}")
            self._finish()
        elif self.engine is None:
            turn.waiting("Waiting for the engine to load…")
        else:
            self._run(self.asking)

    async def pick(self, node_id: str) -> None:
        """Re-ask the question being clarified with the entity the user picked."""
        if self.clarifying is None:
            return
        pending, self.clarifying = self.clarifying, None
        cand = next((c for c in pending.candidates if c.id == node_id), None)
        await self.ask(pending.question, choice=node_id, shown=picked_line(cand, node_id))

    def _run(self, ask: ActiveAsk) -> None:
        assert self.engine is not None
        ask.started = True
        self.answer_in_background(ask, self.engine)

    @work(thread=True, exclusive=True, group="ask", exit_on_error=False)
    def answer_in_background(self, ask: ActiveAsk, engine: EnginePort) -> None:
        def job() -> None:
            user = ask.request.user
            memory = self.memories.get(user, engine)
            unusable = self.memories.errors.get(user)
            answer(
                engine,
                memory,
                ask.request,
                ask,
                self.post_message,
                self.memories.contexts,
                unusable,
            )

        with contextlib.suppress(Cancelled):
            self.backend.run(job, abandon=worker_cancelled)

    def _current(self, ask_id: int) -> AssistantTurn | None:
        if self.asking is None or self.asking.id != ask_id or self.asking.token.cancelled:
            return None
        return self.turn

    def on_step_progress(self, message: StepProgress) -> None:
        if (turn := self._current(message.ask_id)) is not None:
            turn.add_step(message.event)

    def on_facts_noted(self, message: FactsNoted) -> None:
        if (turn := self._current(message.ask_id)) is not None:
            turn.add_notes(message.notes)
            self.refresh_memory()

    async def on_answer_ready(self, message: AnswerReady) -> None:
        turn = self._current(message.ask_id)
        if turn is None or self.asking is None:
            return
        request, result = self.asking.request, message.result
        await turn.show_result(result, message.names, reveal=self._reveal_pause())
        self._replay_check(turn, result)
        self._finish()
        self.show_turn(turn)
        try:
            self.sessions.save(request.question, result)
        except Exception as exc:
            self.notify(f"Could not save the turn: {exc}", severity="error")
        self._show_status()
        self.refresh_memory()
        self.clarifying = Clarifying.of(request.question, result)
        if self.clarifying is not None and self.options.replay is None:
            question = result.clarification or "Which one do you mean?"
            self.app.push_screen(
                ClarifyScreen(question, list(result.candidates)), self._on_clarified
            )

    def _reveal_pause(self) -> float:
        """Seconds between the sentences of an appearing answer (none while replaying)."""
        config = getattr(self.app, "config", None)
        if config is None or self.options.replay is not None:
            return 0.0
        return float(config.config.reveal_ms) / 1000.0

    async def _on_clarified(self, node_id: str | None) -> None:
        if node_id is not None:
            await self.pick(node_id)
        else:
            self.query_one(PromptInput).focus()

    async def on_ask_failed(self, message: AskFailed) -> None:
        if (turn := self._current(message.ask_id)) is not None:
            await turn.show_error(message.error)
            self._finish()
            self.refresh_memory()

    def _finish(self) -> None:
        self.asking = None
        self.idle.set()
        self.refresh_bindings()
        self._show_status()

    async def _abandon(
        self, why: str, severity: Literal["information", "warning"] = "warning"
    ) -> None:
        """Stop waiting for the running question; a late result is dropped."""
        if self.asking is None:
            return
        self.asking.token.cancel()
        self.workers.cancel_group(self, "ask")
        if self.turn is not None:
            await self.turn.show_cancelled()
        self._finish()
        self.notify(why, severity=severity)

    # ----------------------------------------------------------------- replay
    @work(exclusive=True, group="replay", exit_on_error=False)
    async def play_replay(self, player: ReplayPlayer) -> None:
        from helix_tui.replay import title

        await self.engine_ready.wait()
        for event in player.events:
            player.begin(event)
            if event.user != self.sessions.user:
                self.sessions.switch_user(event.user)
                self.refresh_memory()
            if self.sessions.session_id != event.session:
                self.sessions.use(event.session)
            await self.ask(event.text, title=title(event), replay=event)
            await self.idle.wait()
            await asyncio.sleep(player.delay)
        await self.query_one(Conversation).add(Note(player.score.summary(), title="Replay"))
        self.query_one(PromptInput).disabled = False
        self.query_one(PromptInput).focus()

    def _replay_check(self, turn: AssistantTurn, result: Result) -> None:
        player, event = self.options.replay, turn.replay
        if player is not None and event is not None:
            verdict = player.verdict(event, result)
            if verdict is not None:
                turn.show_verdict(verdict)
