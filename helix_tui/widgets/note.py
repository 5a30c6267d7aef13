"""A note from the app itself (help, trace, "noted", errors) in the conversation."""

from __future__ import annotations

from textual.widgets import Markdown


class Note(Markdown):
    def __init__(self, markdown: str, *, title: str = "Helix", kind: str = "info") -> None:
        super().__init__(markdown, classes=f"turn note note-{kind}")
        self.border_title = title
