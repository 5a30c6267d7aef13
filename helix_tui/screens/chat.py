"""The main screen: conversation and prompt on the left, evidence panes on the right.

Built in three layers: ``chat_base`` (state, layout, panes, memory), ``chat_asking``
(questions, cancelling, replays) and this module (start-up, commands, sessions)."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from textual.binding import Binding, BindingType

from engine.config import Mode
from engine.events import StepEvent
from engine.util.faults import StoreFault
from helix_tui import commands
from helix_tui.messages import Notice
from helix_tui.present import trace_markdown
from helix_tui.screens.chat_base import WELCOME, StartOptions
from helix_tui.screens.chat_tools import ChatTools
from helix_tui.screens.help import HelpScreen
from helix_tui.screens.sessions import SessionChoice, SessionsScreen
from helix_tui.widgets.assistant_turn import AssistantTurn
from helix_tui.widgets.conversation import Conversation
from helix_tui.widgets.fact_table import FactTable
from helix_tui.widgets.note import Note
from helix_tui.widgets.prompt import PromptInput
from helix_tui.widgets.sidebar import Sidebar
from helix_tui.widgets.user_turn import UserTurn

__all__ = ["ChatScreen", "StartOptions"]


class ChatScreen(ChatTools):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="chat.cancel"),
        Binding("f1", "help", "Help", id="chat.help"),
        Binding("f2", "memory", "Memory", id="chat.memory"),
        Binding("ctrl+n", "new_session", "New", id="chat.new_session"),
        Binding("ctrl+o", "sessions", "Sessions", id="chat.sessions"),
        Binding("ctrl+s", "export", "Export", id="chat.export"),
        Binding("ctrl+y", "copy", "Copy", id="chat.copy"),
        Binding("ctrl+r", "history", "History", id="chat.history"),
        Binding("ctrl+t", "trace", "Trace", id="chat.trace"),
        Binding("ctrl+g", "cycle_mode", "Mode", id="chat.cycle_mode"),
        Binding("ctrl+l", "focus_prompt", "Focus prompt", show=False, id="chat.focus_prompt"),
    ]

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

    async def on_notice(self, message: Notice) -> None:
        self.notify(message.text, severity=message.severity)
        session_id = self.sessions.session_id
        if message.reload and session_id is not None and self.asking is None:
            await self.resume(session_id)

    # ----------------------------------------------------------------- actions
    async def action_cancel(self) -> None:
        await self._abandon("Cancelled.", severity="information")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return True if self.asking is not None else None
        return True

    def action_help(self) -> None:
        keymap = getattr(self.app, "config", None)
        keys = keymap.config.keys if keymap is not None else {}
        bindings = [
            replace(b, key=keys.get(b.id or "", b.key))
            for b in self.BINDINGS
            if isinstance(b, Binding)
        ]
        where = str(keymap.path) if keymap is not None else "chat.toml"
        self.app.push_screen(HelpScreen(bindings, where))

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

    async def action_new_session(self) -> None:
        await self._abandon("Cancelled: new session.")
        self.sessions.new()
        await self._reset_view()
        self.notify("New session.")

    def action_sessions(self) -> None:
        try:
            store = self.sessions.store
            store.list()  # a store that cannot be used is said here, not in the screen
        except StoreFault as exc:
            self.notify(f"Sessions unavailable: {exc}", severity="error")
            return
        screen = SessionsScreen(store, self.sessions.user, self.sessions.session_id)
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
