"""What the chat screen offers around the answers: copying, exporting, forgetting with a
confirmation, searching the history of every session, and the theme."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work

from engine.ports import EnginePort
from engine.util.faults import StoreFault
from helix_tui import present
from helix_tui.backend import Cancelled
from helix_tui.export import (
    ExportError,
    ExportFormat,
    export_session,
    export_target,
    parse_target,
)
from helix_tui.jobs import forget_preview
from helix_tui.messages import ForgetPreview
from helix_tui.relations import path_text, triple_text
from helix_tui.screens.chat_asking import ChatAsking
from helix_tui.screens.chat_base import worker_cancelled
from helix_tui.screens.confirm import ConfirmScreen
from helix_tui.screens.export import ExportScreen
from helix_tui.screens.history import HistoryChoice, HistoryScreen
from helix_tui.services import SessionStorePort
from helix_tui.widgets.assistant_turn import AssistantTurn
from helix_tui.widgets.evidence_table import EvidenceTable, describe
from helix_tui.widgets.path_tree import PathTree
from helix_tui.widgets.sidebar import Sidebar

if TYPE_CHECKING:
    from sessions.history import HistoryHit


class ChatTools(ChatAsking):
    async def resume(self, session_id: str) -> None:
        """Show the turns of ``session_id`` (the chat screen's)."""
        raise NotImplementedError

    # ----------------------------------------------------------------- copy
    def action_copy(self) -> None:
        what, text = self.copy_target()
        if not text:
            self.notify("Nothing to copy yet: select an answer, a path or an evidence row.")
            return
        self.app.copy_to_clipboard(text)
        self.notify(f"Copied the {what} to the clipboard ({len(text)} characters)")

    def copy_target(self) -> tuple[str, str]:
        """(what, text) of the focused path or evidence row, else of the answer shown."""
        focused, sidebar = self.app.focused, self.query_one(Sidebar)
        result = sidebar.turn.result if sidebar.turn else None
        if isinstance(focused, PathTree) and result is not None:
            node = focused.cursor_node
            hop = node.data if node is not None else None
            if hop is not None and hop.triple is not None and len(result.paths[hop.path - 1]) > 1:
                return "path hop", triple_text(hop.triple, sidebar.name_of)
            if hop is not None and 0 < hop.path <= len(result.paths):
                return "path", path_text(result.paths[hop.path - 1], sidebar.name_of)
        if isinstance(focused, EvidenceTable):
            ev = focused.evidence_for(str(focused.cursor_row))
            if ev is not None:
                text = describe(ev, sidebar.name_of) if ev.triple else (ev.text or ev.id or "")
                cite = f" [{ev.kind}, {ev.source or 'no source'}, score {ev.score:.2f}]"
                return "evidence row", text + cite
        turn = self.shown
        if turn is not None and turn.result is not None:
            return "answer", present.result_markdown(turn.result, turn.name_of)
        return "answer", ""

    # ----------------------------------------------------------------- export
    def action_export(self, target: str = "") -> None:
        session_id = self.sessions.session_id
        if session_id is None:
            self.notify("Nothing to export yet: this session has no turns.")
            return
        try:
            fmt, path = parse_target(target)
        except ExportError as exc:
            self.notify(f"Export failed: {exc}", severity="error")
            return
        if fmt is None and not path:

            def chosen(name: str | None) -> None:
                if name is not None:
                    self._export(session_id, name, "")

            self.app.push_screen(ExportScreen(str(Path.cwd())), chosen)
            return
        self._export(session_id, fmt, path)

    def _export(self, session_id: str, fmt: ExportFormat | str | None, path: str) -> None:
        """Export, asking first when the file is there already (it is replaced only on yes)."""
        try:
            target, _ = export_target(session_id, path, fmt)
        except ExportError as exc:
            self.notify(f"Export failed: {exc}", severity="error")
            return
        if not target.exists():
            self._write_export(session_id, fmt, str(target))
            return

        def answered(replace: bool | None) -> None:
            if replace:
                self._write_export(session_id, fmt, str(target))
            else:
                self.notify(f"Not exported: {target} is kept as it was")

        self.app.push_screen(ConfirmScreen(f"{target} exists. Replace it?"), answered)

    def _write_export(self, session_id: str, fmt: ExportFormat | str | None, path: str) -> None:
        what = ""
        try:
            store = self.sessions.store
            written = export_session(store, session_id, path, fmt)
            if export_target(session_id, path, fmt)[1].graph:
                from helix_tui.export_graph import last_graph_turn  # NetworkX only when used

                what = f"the subgraph of turn {last_graph_turn(store, session_id)[0]} "
        except (OSError, ExportError, KeyError, StoreFault) as exc:
            self.notify(f"Export failed: {exc}", severity="error")
            return
        self.notify(f"Exported {what}to {written}")

    # ----------------------------------------------------------------- forget
    def action_forget(self, target: str = "") -> None:
        if not target:
            self.notify("Usage: /forget SUBJECT (or Del on a fact in the Memory tab)")
            return
        if self.engine is None:
            self.notify("Memory opens once the engine has loaded.", severity="warning")
            return
        self.preview_forget(target)

    @work(thread=True, group="forget", exclusive=True, exit_on_error=False)
    def preview_forget(self, target: str) -> None:
        engine, user = self.engine, self.sessions.user
        assert engine is not None
        job = partial(forget_preview, self.memories, engine, user, target)
        try:
            facts = self.backend.run(job, abandon=worker_cancelled)
        except Cancelled:
            return
        except Exception as exc:
            self.post_message(ForgetPreview(target, [], f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(ForgetPreview(target, facts))

    def on_forget_preview(self, message: ForgetPreview) -> None:
        target = message.target
        if message.error:
            self.notify(f"Memory unavailable: {message.error}", severity="error")
            return
        if not message.facts:
            self.notify(f"Nothing in your memory matches {target}", severity="warning")
            return
        lines = "\n".join(f"  • {line}" for line in message.facts)
        question = (
            f"Forget everything your memory holds about “{target}”?\n\nThis removes:\n{lines}\n\n"
            "Turns of your sessions that mention it are deleted as well. This cannot be undone."
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self.refresh_memory(target)
            else:
                self.notify("Kept: nothing was forgotten.")

        self.app.push_screen(ConfirmScreen(question), answered)

    # ----------------------------------------------------------------- history
    def action_history(self, query: str = "") -> None:
        try:
            store, engine = self.sessions.store, self.engine
        except StoreFault as exc:
            self.notify(f"History unavailable: {exc}", severity="error")
            return

        def search(text: str) -> list[HistoryHit]:
            job = partial(_search, store, text, engine)
            return self.backend.run(job, abandon=worker_cancelled)

        screen = HistoryScreen(search, self.sessions.user, query)
        self.app.push_screen(screen, self._on_history_closed)

    async def _on_history_closed(self, choice: HistoryChoice | None) -> None:
        if choice is None:
            return
        if choice.action == "reask":
            await self.ask(choice.question)
            return
        await self.resume(choice.session_id)
        turns = list(self.query(AssistantTurn))
        if not 0 < choice.position <= len(turns):
            self.notify("That turn is no longer in the session.", severity="warning")
            return
        turn = turns[choice.position - 1]
        turn.add_class("history-hit")
        self.show_turn(turn)
        self.call_after_refresh(turn.scroll_visible, animate=False, top=True)
        self.notify(f"Opened “{self.sessions.title}” at turn {choice.position}")

    # ----------------------------------------------------------------- theme
    def action_theme(self, name: str = "") -> None:
        if not name:
            self.app.action_change_theme()
        elif name in self.app.available_themes:
            self.app.theme = name
            self.notify(f"Theme: {name}")
        else:
            known = ", ".join(sorted(self.app.available_themes))
            self.notify(f"Unknown theme {name!r}. Themes: {known}", severity="warning")


def _search(store: SessionStorePort, text: str, engine: EnginePort | None) -> list[HistoryHit]:
    """Backend thread: text hits, fused with meaning hits once the embedder is loaded."""
    from sessions.history import search_history

    embed = engine.embed() if engine is not None else None
    return search_history(store, text, embed=embed)
