"""The table of memory facts; Del asks to forget the highlighted one."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import DataTable

from helix_tui.facts import FactView


class FactTable(DataTable[Text]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("delete", "forget", "Forget fact", id="memory.forget"),
    ]

    class Forget(Message):
        def __init__(self, fact: FactView) -> None:
            super().__init__()
            self.fact = fact

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.facts: list[FactView] = []

    def action_forget(self) -> None:
        if self.facts and 0 <= self.cursor_row < len(self.facts):
            self.post_message(self.Forget(self.facts[self.cursor_row]))
