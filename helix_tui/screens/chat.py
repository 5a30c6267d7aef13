"""The main screen: conversation and prompt on the left, evidence panes on the right."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, ClassVar, Literal

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Header, Input
from textual.worker import get_current_worker

from engine.config import Mode, Settings
from engine.events import StepEvent
from engine.ports import EnginePort
from engine.result import Candidate, Result, Status
from helix_tui import commands
from helix_tui.asking import ActiveAsk, AskRequest, Memories, answer
from helix_tui.backend import Backend, Cancelled
from helix_tui.clarify import match_candidate
from helix_tui.export import export_session
from helix_tui.facts import FactView
from helix_tui.jobs import describe_node, read_memory
from helix_tui.messages import (
    AnswerReady,
    AskFailed,
    EngineFailed,
    EngineReady,
    FactsNoted,
    MemoryFacts,
    NodeDetails,
    Notice,
    StepProgress,
)
from helix_tui.present import trace_markdown
from helix_tui.relations import Namer
from helix_tui.screens.clarify import ClarifyScreen
from helix_tui.screens.help import HelpScreen
from helix_tui.screens.sessions import SessionChoice, SessionsScreen
from helix_tui.services import Services
from helix_tui.session_keeper import SessionKeeper
from helix_tui.widgets.assistant_turn import AssistantTurn
from helix_tui.widgets.conversation import Conversation
from helix_tui.widgets.fact_table import FactTable
from helix_tui.widgets.memory_panel import MemoryPanel
from helix_tui.widgets.note import Note
from helix_tui.widgets.prompt import PromptInput
from helix_tui.widgets.sidebar import Sidebar
from helix_tui.widgets.status_line import StatusLine
from helix_tui.widgets.user_turn import UserTurn

if TYPE_CHECKING:
    from helix_tui.replay import ReplayPlayer
    from memory.replay.events import Event

log = logging.getLogger(__name__)

LOADING = "◌ Loading the engine (embedding model, knowledge graph)… you can type already"
WELCOME = """Ask about drugs, diseases, genes and how they connect; answers come with their
knowledge-graph paths and evidence (panes on the right). Try:

- *Which medicines are used to treat Alzheimer's disease?*
- *How could metformin act on type 2 diabetes?*
- *Switched MRN 4471 from metformin to sitagliptin.* (noted in your memory)

`/help` lists commands · `Esc` cancels a running question."""


@dataclass
class Clarifying:
    question: str
    candidates: list[Candidate]


@dataclass(frozen=True)
class StartOptions:
    session_id: str | None = None
    resume: bool = False
    replay: ReplayPlayer | None = None


class ChatScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="chat.cancel"),
        Binding("f1", "help", "Help", id="chat.help"),
        Binding("f2", "memory", "Memory", id="chat.memory"),
        Binding("ctrl+n", "new_session", "New", id="chat.new_session"),
        Binding("ctrl+o", "sessions", "Sessions", id="chat.sessions"),
        Binding("ctrl+s", "export", "Export", id="chat.export"),
        Binding("ctrl+t", "trace", "Trace", id="chat.trace"),
        Binding("ctrl+g", "cycle_mode", "Mode", id="chat.cycle_mode"),
        Binding("ctrl+l", "focus_prompt", "Focus prompt", show=False, id="chat.focus_prompt"),
    ]

    mode: reactive[Mode] = reactive[Mode]("hybrid", init=False)

    def __init__(self, settings: Settings, services: Services, options: StartOptions) -> None:
        super().__init__()
        self.settings = settings
        self.services = services
        self.options = options
        self.backend = Backend()
        self.memories = Memories(settings, services)
        self.sessions = SessionKeeper(settings, services, settings.user)
        self.engine: EnginePort | None = None
        self.engine_error: str | None = None
        self.engine_ready = asyncio.Event()
        self.asking: ActiveAsk | None = None
        self.turn: AssistantTurn | None = None
        self.idle = asyncio.Event()
        self.idle.set()
        self.clarifying: Clarifying | None = None
        self.shown: AssistantTurn | None = None
        self._ask_ids = 0
        self.set_reactive(ChatScreen.mode, settings.mode)

    # ----------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="chat-column"):
                yield Conversation(id="conversation")
                yield StatusLine(id="status")
                yield PromptInput(id="prompt")
            yield Sidebar(id="sidebar")
        yield Footer()

    async def on_mount(self) -> None:
        self.query_one(PromptInput).focus()
        self._show_status()
        self.load_engine()
        if self.options.replay is None:
            await self.query_one(Conversation).add(
                Note(WELCOME, title="Welcome to Helix", kind="welcome")
            )
        await self._open_start_session()
        if self.options.replay is not None:
            self.query_one(PromptInput).disabled = True
            self.play_replay(self.options.replay)

    def on_unmount(self) -> None:
        if self.asking is not None:
            self.asking.token.cancel()
        engine, memories = self.engine, self.memories

        def close() -> None:
            memories.close()
            if engine is not None:
                engine.close()

        self.backend.close(close)
        if not self.backend.join(timeout=1.0):
            log.warning("the backend was still busy at exit; its stores were not closed")
        self.sessions.close()

    # ----------------------------------------------------------------- engine
    @work(thread=True, group="engine", exit_on_error=False)
    def load_engine(self) -> None:
        try:
            engine = self.backend.run(
                partial(self.services.open_engine, self.settings), abandon=_worker_cancelled
            )
        except Cancelled:
            return
        except Exception as exc:
            self.post_message(EngineFailed(f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(EngineReady(engine))

    def on_engine_ready(self, message: EngineReady) -> None:
        self.engine = message.engine
        self.engine_ready.set()
        self._show_status()
        self.refresh_memory()
        if self.asking is not None and not self.asking.started:
            self._run(self.asking)

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
            parsed = commands.parse(text)
        except commands.UnknownCommand as exc:
            self.notify(str(exc), severity="warning")
            return
        if parsed is not None:
            command, arg = parsed
            await self.run_action(commands.action_call(command, arg))
            return
        if self.clarifying is not None:
            picked = match_candidate(text, self.clarifying.candidates)
            if picked is not None:
                await self.pick(picked.id)
                return
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
        session = self.sessions.ensure(question)
        self._ask_ids += 1
        player = self.options.replay
        request = AskRequest(
            question=question,
            user=self.sessions.user,
            session=session.id,
            mode=self.mode,
            choice=choice,
            state_first=choice is None and replay is None,
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
        shown = f"→ {cand.name} ({cand.kind})" if cand else f"→ {node_id}"
        await self.ask(pending.question, choice=node_id, shown=shown)

    def _run(self, ask: ActiveAsk) -> None:
        assert self.engine is not None
        ask.started = True
        self.answer_in_background(ask, self.engine)

    @work(thread=True, exclusive=True, group="ask", exit_on_error=False)
    def answer_in_background(self, ask: ActiveAsk, engine: EnginePort) -> None:
        def job() -> None:
            memory = self.memories.get(ask.request.user, engine)
            answer(engine, memory, ask.request, ask, self.post_message)

        with contextlib.suppress(Cancelled):
            self.backend.run(job, abandon=_worker_cancelled)

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
        await turn.show_result(result, message.names)
        self._replay_check(turn, result)
        self._finish()
        self.show_turn(turn)
        try:
            self.sessions.save(request.question, result)
        except Exception as exc:
            self.notify(f"Could not save the turn: {exc}", severity="error")
        self._show_status()
        self.refresh_memory()
        if result.status is Status.NEEDS_CLARIFICATION and result.candidates:
            self.clarifying = Clarifying(request.question, list(result.candidates))
            if self.options.replay is None:
                question = result.clarification or "Which one do you mean?"
                self.app.push_screen(
                    ClarifyScreen(question, list(result.candidates)), self._on_clarified
                )

    async def _on_clarified(self, node_id: str | None) -> None:
        if node_id is not None:
            await self.pick(node_id)
        else:
            self.query_one(PromptInput).focus()

    async def on_ask_failed(self, message: AskFailed) -> None:
        if (turn := self._current(message.ask_id)) is not None:
            await turn.show_error(message.error)
            self._finish()

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

    # ----------------------------------------------------------------- panes
    def show_turn(self, turn: AssistantTurn) -> None:
        if turn.result is not None:
            self.shown = turn
            self.query_one(Sidebar).show_turn(turn)

    def on_assistant_turn_selected(self, message: AssistantTurn.Selected) -> None:
        self.show_turn(message.turn)

    def on_sidebar_node_wanted(self, message: Sidebar.NodeWanted) -> None:
        name = self.query_one(Sidebar).name_of
        self.fetch_node(message.node_id, message.target, message.head, name)

    @work(thread=True, group="details", exclusive=True, exit_on_error=False)
    def fetch_node(self, node_id: str, target: str, head: str, name: Namer) -> None:
        engine = self.engine
        if engine is None:
            return
        job = partial(describe_node, engine, node_id, name)
        try:
            body = self.backend.run(job, abandon=_worker_cancelled)
        except Cancelled:
            return
        except Exception as exc:
            body = f"_Could not read the node: {exc}_"
        self.post_message(NodeDetails(node_id, f"{head}\n\n---\n\n{body}", target))

    def on_node_details(self, message: NodeDetails) -> None:
        self.query_one(Sidebar).show_details(message.target, message.markdown)

    # ----------------------------------------------------------------- memory
    @work(thread=True, group="memory", exclusive=True, exit_on_error=False)
    def refresh_memory(self, forget: str | FactView | None = None) -> None:
        engine, user = self.engine, self.sessions.user
        if engine is None:
            return
        job = partial(read_memory, self.memories, engine, user, self.post_message, forget)
        try:
            self.post_message(self.backend.run(job, abandon=_worker_cancelled))
        except Cancelled:
            return
        except Exception as exc:
            self.post_message(MemoryFacts(user, [], {}, f"{type(exc).__name__}: {exc}"))

    def on_memory_facts(self, message: MemoryFacts) -> None:
        if message.user != self.sessions.user:
            return
        panel = self.query_one(MemoryPanel)
        if message.error:
            panel.show_message(f"Memory unavailable: {message.error}")
        else:
            panel.show_facts(message.facts, message.names, message.user)

    async def on_notice(self, message: Notice) -> None:
        self.notify(message.text, severity=message.severity)
        session_id = self.sessions.session_id
        if message.reload and session_id is not None and self.asking is None:
            await self.resume(session_id)

    def on_fact_table_forget(self, message: FactTable.Forget) -> None:
        self.refresh_memory(message.fact)

    # ----------------------------------------------------------------- actions
    async def action_cancel(self) -> None:
        await self._abandon("Cancelled.", severity="information")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return True if self.asking is not None else None
        return True

    def action_help(self) -> None:
        bindings = [b for b in self.BINDINGS if isinstance(b, Binding)]
        self.app.push_screen(HelpScreen(bindings))

    def action_memory(self) -> None:
        self.query_one(Sidebar).show_tab("memory-tab")
        self.query_one(FactTable).focus()
        self.refresh_memory()

    def action_focus_prompt(self) -> None:
        self.query_one(PromptInput).focus()

    def action_prompt_with(self, text: str) -> None:
        prompt = self.query_one(PromptInput)
        prompt.value = text
        prompt.cursor_position = len(text)
        prompt.focus()

    def action_forget(self, target: str = "") -> None:
        if not target:
            self.notify("Usage: /forget SUBJECT (or Del on a fact in the Memory tab)")
            return
        if self.engine is None:
            self.notify("Memory opens once the engine has loaded.", severity="warning")
            return
        self.refresh_memory(target)

    def action_mode(self, mode: str = "") -> None:
        if mode not in commands.MODES:
            self.notify(f"Mode is {self.mode}. Usage: /mode hybrid|graph|dense")
            return
        self.mode = mode  # type: ignore[assignment]

    def action_cycle_mode(self) -> None:
        modes = commands.MODES
        self.mode = modes[(modes.index(self.mode) + 1) % len(modes)]

    def watch_mode(self, mode: Mode) -> None:
        self._show_status()
        self.notify(f"Retrieval mode: {mode}")

    async def action_trace(self) -> None:
        turn = self.shown
        result = turn.result if turn else None
        events: list[StepEvent] = turn.events if turn else []
        await self.query_one(Conversation).add(Note(trace_markdown(result, events), title="Trace"))

    def action_export(self, target: str = "") -> None:
        session_id = self.sessions.session_id
        if session_id is None:
            self.notify("Nothing to export yet: this session has no turns.")
            return
        try:
            path = export_session(self.sessions.store, session_id, target)
        except OSError as exc:
            self.notify(f"Export failed: {exc}", severity="error")
            return
        self.notify(f"Exported to {path}")

    async def action_new_session(self) -> None:
        await self._abandon("Cancelled: new session.")
        self.sessions.new()
        await self._reset_view()
        self.notify("New session.")

    def action_sessions(self) -> None:
        screen = SessionsScreen(self.sessions.store, self.sessions.user, self.sessions.session_id)
        self.app.push_screen(screen, self._on_sessions_closed)

    async def _on_sessions_closed(self, choice: SessionChoice | None) -> None:
        if choice is None:
            return
        dropped = self.sessions.forget_deleted(choice.deleted)
        if choice.action == "resume" and choice.session_id:
            await self.resume(choice.session_id)
        elif choice.action == "new" or dropped:
            await self.action_new_session()
        else:
            self.sessions.reload()
            self._show_status()

    # ----------------------------------------------------------------- sessions
    async def _open_start_session(self) -> None:
        try:
            if self.options.session_id:
                await self.resume(self.options.session_id)
            elif self.options.resume:
                info = self.sessions.resume_latest()
                if info is None:
                    self.notify("No earlier session to resume: starting a new one.")
                else:
                    await self.resume(info.id)
        except Exception as exc:
            self.notify(f"Sessions unavailable: {exc}", severity="error")

    async def resume(self, session_id: str) -> None:
        await self._abandon("Cancelled: switched session.")
        self.sessions.use(session_id)
        await self._reset_view(welcome=False)
        conversation = self.query_one(Conversation)
        last: AssistantTurn | None = None
        for old in self.sessions.turns():
            await conversation.add(UserTurn(old.question))
            last = AssistantTurn()
            await conversation.add(last)
            await last.show_result(old.result, old.result.all_names())
        if last is not None:
            self.show_turn(last)
        self._show_status()

    async def _reset_view(self, *, welcome: bool = True) -> None:
        self.clarifying = None
        self.shown = None
        conversation = self.query_one(Conversation)
        await conversation.clear()
        if welcome:
            await conversation.add(Note(WELCOME, title="Welcome to Helix", kind="welcome"))
        self.query_one(Sidebar).clear()
        self._show_status()

    def _show_status(self) -> None:
        where = f"mode {self.mode} · user {self.sessions.user} · {self.sessions.title}"
        status = self.query_one(StatusLine)
        if self.engine_error is not None:
            status.show(f"✗ Engine failed to load: {self.engine_error}", "error")
        elif self.engine is None:
            status.show(f"{LOADING} · {where}", "loading")
        elif self.asking is not None:
            status.show(f"◐ Answering… Esc cancels · {where}", "busy")
        else:
            status.show(f"● Ready · {where}", "ready")
        self.app.sub_title = self.sessions.user

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


def _worker_cancelled() -> bool:
    return get_current_worker().is_cancelled
