"""The scrolling list of turns; stays at the bottom while new turns arrive."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.widget import Widget


class Conversation(VerticalScroll, can_focus=True):
    def on_mount(self) -> None:
        self.anchor()

    async def add(self, turn: Widget) -> Widget:
        await self.mount(turn)
        self.anchor()
        return turn

    async def clear(self) -> None:
        await self.remove_children()
