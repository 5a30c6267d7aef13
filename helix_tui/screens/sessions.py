"""The session list: resume, start new, rename, delete, export."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from helix_tui.export import export_session
from helix_tui.screens.confirm import ConfirmScreen
from helix_tui.screens.export import ExportScreen
from helix_tui.screens.rename import RenameScreen
from helix_tui.services import SessionInfoLike, SessionStorePort


@dataclass(frozen=True)
class SessionChoice:
    action: Literal["resume", "new", "close"]
    session_id: str | None = None
    deleted: tuple[str, ...] = field(default=())
    renamed: bool = False


class SessionsScreen(ModalScreen[SessionChoice]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "resume", "Resume", id="sessions.resume", priority=True),
        Binding("n", "new", "New", id="sessions.new"),
        Binding("r", "rename", "Rename", id="sessions.rename"),
        Binding("d", "delete", "Delete", id="sessions.delete"),
        Binding("x", "export", "Export", id="sessions.export"),
        Binding("escape", "close", "Close", id="sessions.close"),
    ]

    def __init__(self, store: SessionStorePort, user: str, current: str | None) -> None:
        super().__init__()
        self.store = store
        self.user = user
        self.current = current
        self.sessions: list[SessionInfoLike] = []
        self.deleted: list[str] = []
        self.renamed = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog sessions-dialog") as dialog:
            dialog.border_title = f"Sessions of {self.user}"
            yield DataTable[Text](id="sessions-table", cursor_type="row", zebra_stripes=True)
            yield Static(
                "Enter resume · n new · r rename · d delete · x export · Esc close",
                markup=False,
                classes="hint",
            )

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for label in ("", "title", "turns", "updated", "id"):
            table.add_column(Text(label), key=label or "mark")
        self.reload()

    def reload(self) -> None:
        table: DataTable[Text] = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        self.sessions = list(self.store.list())
        for info in self.sessions:
            table.add_row(
                Text("●" if info.id == self.current else " "),
                Text(info.title or "(untitled)", overflow="ellipsis", no_wrap=True),
                Text(str(info.n_turns), justify="right"),
                Text(f"{info.updated_at:%Y-%m-%d %H:%M}"),
                Text(info.id, style="dim"),
                key=info.id,
            )
        if self.sessions:
            table.move_cursor(row=min(row, len(self.sessions) - 1))

    @property
    def selected(self) -> SessionInfoLike | None:
        table: DataTable[Text] = self.query_one(DataTable)
        if not self.sessions or not 0 <= table.cursor_row < len(self.sessions):
            return None
        return self.sessions[table.cursor_row]

    def _choice(self, action: Literal["resume", "new", "close"], sid: str | None) -> SessionChoice:
        return SessionChoice(action, sid, tuple(self.deleted), self.renamed)

    def action_resume(self) -> None:
        if (info := self.selected) is not None:
            self.dismiss(self._choice("resume", info.id))

    def action_new(self) -> None:
        self.dismiss(self._choice("new", None))

    def action_close(self) -> None:
        self.dismiss(self._choice("close", None))

    def action_rename(self) -> None:
        if (info := self.selected) is None:
            return

        def done(title: str | None) -> None:
            if title:
                self.store.rename(info.id, title)
                self.renamed = True
                self.reload()

        self.app.push_screen(RenameScreen(info.title), done)

    def action_delete(self) -> None:
        if (info := self.selected) is None:
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.store.delete(info.id)
                self.deleted.append(info.id)
                self.reload()
                self.notify(f"Deleted “{info.title or info.id}”")

        self.app.push_screen(ConfirmScreen(f"Delete session “{info.title or info.id}”?"), done)

    def action_export(self) -> None:
        if (info := self.selected) is None:
            return

        def chosen(fmt: str | None) -> None:
            if fmt is None:
                return
            try:
                path = export_session(self.store, info.id, "", fmt)
            except (OSError, ValueError, KeyError) as exc:
                self.notify(f"Export failed: {exc}", severity="error")
                return
            self.notify(f"Exported to {path}")

        self.app.push_screen(ExportScreen(str(Path.cwd())), chosen)
