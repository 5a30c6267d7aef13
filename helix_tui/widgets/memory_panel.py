"""This user's memory: vault facts, current first, then superseded ones."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from helix_tui.facts import FactView
from helix_tui.memory_view import memory_table
from helix_tui.widgets.fact_table import FactTable

COLUMNS = (
    ("", "state"),
    ("subject", "subj"),
    ("relation", "rel"),
    ("object", "obj"),
    ("since", "since"),
    ("until", "until"),
    ("whose word", "source"),
)
HINT = (
    "Del forgets the highlighted fact · /forget SUBJECT forgets all about it · "
    "/forget looked-up drops what Helix looked up"
)


class MemoryPanel(Vertical):
    def compose(self) -> ComposeResult:
        yield Static("Memory is loading…", markup=False, classes="memory-summary")
        yield FactTable(id="memory-facts")
        yield Static(HINT, markup=False, classes="hint")

    def on_mount(self) -> None:
        table = self.query_one(FactTable)
        for label, key in COLUMNS:
            table.add_column(Text(label), key=key)

    def show_facts(self, facts: list[FactView], names: dict[str, str], user: str) -> None:
        shown = memory_table(facts, names, user)
        table = self.query_one(FactTable)
        table.facts = shown.facts
        table.clear()
        for i, row in enumerate(shown.rows):
            dim = "" if row.current else "dim strike"
            table.add_row(
                Text("●" if row.current else "○", style="green" if row.current else "dim"),
                Text(row.subject, style=dim),
                Text(row.relation, style=dim),
                Text(row.object, style=dim),
                Text(row.since, style="dim"),
                Text(row.until, style="dim"),
                Text(row.source, style="dim"),
                key=str(i),
            )
        self.query_one(".memory-summary", Static).update(shown.summary)

    def show_message(self, text: str) -> None:
        self.query_one(".memory-summary", Static).update(text)
