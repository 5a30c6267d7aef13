"""The question input, with history on up/down."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Input

PLACEHOLDER = "Ask a biomedical question, state a fact, or type /help"


class PromptInput(Input):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "history(-1)", "Previous input", show=False, id="prompt.history_back"),
        Binding("down", "history(1)", "Next input", show=False, id="prompt.history_forward"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(placeholder=PLACEHOLDER, id=id)
        self.history: list[str] = []
        self._cursor = 0

    def remember(self, text: str) -> None:
        if text and (not self.history or self.history[-1] != text):
            self.history.append(text)
        self._cursor = len(self.history)

    def action_history(self, step: int) -> None:
        if not self.history:
            return
        self._cursor = max(0, min(len(self.history), self._cursor + step))
        self.value = self.history[self._cursor] if self._cursor < len(self.history) else ""
        self.cursor_position = len(self.value)
