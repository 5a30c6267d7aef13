"""A question (or reply) the user typed, as shown in the conversation."""

from __future__ import annotations

from textual.widgets import Static


class UserTurn(Static):
    def __init__(self, text: str, *, title: str = "You") -> None:
        super().__init__(text, markup=False, classes="turn user-turn")
        self.border_title = title
