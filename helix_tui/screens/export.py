"""Asks which format to export the session in; dismisses with the format name."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from helix_tui.export import FORMATS


class ExportScreen(ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss_none", "Cancel export", id="export.cancel"),
    ]

    def __init__(self, where: str) -> None:
        super().__init__()
        self.where = where

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog export-dialog") as dialog:
            dialog.border_title = "Export this session"
            yield OptionList(
                *(Option(f"{f.label}  ({f.suffix}) — {f.help}", id=f.name) for f in FORMATS),
                id="export-formats",
            )
            yield Static(f"Written to {self.where} · Enter exports · Esc cancels", classes="hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_id)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
