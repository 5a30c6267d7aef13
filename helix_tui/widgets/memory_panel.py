"""This user's memory: vault facts, current first, then superseded ones."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from helix_tui.facts import FactView, day
from helix_tui.relations import short_id, verb
from helix_tui.widgets.fact_table import FactTable

COLUMNS = (
    ("", "state"),
    ("subject", "subj"),
    ("relation", "rel"),
    ("object", "obj"),
    ("since", "since"),
    ("until", "until"),
    ("from", "source"),
)
HINT = "Del forgets the highlighted fact · /forget SUBJECT forgets all about it"


class MemoryPanel(Vertical):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.names: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        yield Static("Memory is loading…", markup=False, classes="memory-summary")
        yield FactTable(id="memory-facts")
        yield Static(HINT, markup=False, classes="hint")

    def on_mount(self) -> None:
        table = self.query_one(FactTable)
        for label, key in COLUMNS:
            table.add_column(Text(label), key=key)

    def show_facts(self, facts: list[FactView], names: dict[str, str], user: str) -> None:
        learned = {f.subj: f.subj_name for f in facts if f.subj_name}
        learned |= {f.obj: f.obj_name for f in facts if f.obj_name}
        self.names = learned | names
        ordered = [f for f in facts if f.current] + [f for f in facts if not f.current]
        table = self.query_one(FactTable)
        table.facts = ordered
        table.clear()
        for i, fact in enumerate(ordered):
            dim = "" if fact.current else "dim strike"
            table.add_row(
                Text("●" if fact.current else "○", style="green" if fact.current else "dim"),
                Text(self._label(fact.subj), style=dim),
                Text(verb(fact.rel), style=dim),
                Text(self._label(fact.obj), style=dim),
                Text(day(fact.t_start), style="dim"),
                Text(day(fact.t_end), style="dim"),
                Text(fact.source or "", style="dim"),
                key=str(i),
            )
        current = sum(f.current for f in ordered)
        summary = f"{user}: {current} current fact{'s' * (current != 1)}"
        if len(ordered) > current:
            summary += f", {len(ordered) - current} superseded"
        if not ordered:
            summary = f"{user}: no facts yet. State one, e.g. “Patient MRN 4471 takes metformin.”"
        self.query_one(".memory-summary", Static).update(summary)

    def show_message(self, text: str) -> None:
        self.query_one(".memory-summary", Static).update(text)

    def _label(self, node_id: str) -> str:
        return self.names.get(node_id) or short_id(node_id)
