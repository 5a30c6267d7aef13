"""Asks for a new session title."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class RenameScreen(ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss_none", "Cancel", id="rename.cancel"),
    ]

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog rename-dialog") as dialog:
            dialog.border_title = "Rename session"
            yield Input(value=self.title_text, id="rename-input")
            yield Static("Enter saves · Esc cancels", markup=False, classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        title = event.value.strip()
        self.dismiss(title or None)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
