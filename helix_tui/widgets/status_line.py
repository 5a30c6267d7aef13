"""One line under the conversation: engine state, mode, user and session."""

from __future__ import annotations

from textual.widgets import Static

_STATES = ("loading", "ready", "busy", "error")


class StatusLine(Static):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", markup=False, id=id)

    def show(self, text: str, state: str) -> None:
        self.remove_class(*_STATES)
        self.add_class(state)
        self.update(text)
