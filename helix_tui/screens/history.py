"""Search every past session of this user; open the session at a hit, or ask it again."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Static
from textual.worker import get_current_worker

from helix_tui.present import clip

if TYPE_CHECKING:
    from sessions.history import HistoryHit

Search = Callable[[str], Sequence["HistoryHit"]]
"""Query -> hits, best first; called in a thread worker (may block on the backend)."""

DEBOUNCE_S = 0.2
_HOW = {"text": "words", "meaning": "meaning", "both": "both"}


@dataclass(frozen=True)
class HistoryChoice:
    action: Literal["open", "reask"]
    session_id: str
    position: int
    question: str


class HistoryScreen(ModalScreen[HistoryChoice | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="history.close"),
        Binding("ctrl+r", "reask", "Ask again", id="history.reask", priority=True),
        Binding("down", "to_results", "Results", show=False, id="history.results"),
    ]

    def __init__(self, search: Search, user: str, query: str = "") -> None:
        super().__init__()
        self.search = search
        self.user = user
        self.query_text = query
        self.hits: list[HistoryHit] = []
        self.searched: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog history-dialog") as dialog:
            dialog.border_title = f"History of {self.user}"
            yield Input(self.query_text, placeholder="Search your past questions and answers…")
            yield Static("", id="history-summary", classes="hint")
            yield DataTable[Text](id="history-table", cursor_type="row", zebra_stripes=True)
            yield Static(
                "Enter opens the session at the turn · ctrl+r asks it again · Esc closes",
                markup=False,
                classes="hint",
            )

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for label in ("when", "session", "#", "question", "by"):
            table.add_column(Text(label), key=label)
        self.query_one(Input).focus()
        if self.query_text.strip():
            self.search_for(self.query_text)

    def on_input_changed(self, event: Input.Changed) -> None:
        self.search_for(event.value)

    def search_for(self, query: str) -> None:
        """Search ``query`` unless it is the query searched last (the input reports its first
        value as a change too)."""
        if query != self.searched:
            self.searched = query
            self.run_search(query)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.hits:
            self.query_one(DataTable).focus()

    @work(thread=True, exclusive=True, group="history", exit_on_error=False)
    def run_search(self, query: str) -> None:
        time.sleep(DEBOUNCE_S)  # typing goes on: only the last query is searched
        if get_current_worker().is_cancelled:
            return
        try:
            hits = list(self.search(query)) if query.strip() else []
            error = None
        except Exception as exc:
            hits, error = [], f"{type(exc).__name__}: {exc}"
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.show_hits, query, hits, error)

    def show_hits(self, query: str, hits: list[HistoryHit], error: str | None = None) -> None:
        self.hits = hits
        table: DataTable[Text] = self.query_one(DataTable)
        table.clear()
        for i, h in enumerate(hits):
            t = h.hit
            table.add_row(
                Text(f"{t.created_at:%Y-%m-%d %H:%M}"),
                Text(clip(t.session_title, 22)),
                Text(str(t.position), justify="right"),
                Text(clip(t.question, 48)),
                Text(_HOW[h.how], style="dim"),
                key=str(i),
            )
        summary = self.query_one("#history-summary", Static)
        if error:
            summary.update(f"Search failed: {error}")
        elif not query.strip():
            summary.update("Type to search every session of yours (words and meaning).")
        else:
            found = f"{len(hits)} turn{'s' * (len(hits) != 1)}" if hits else "Nothing"
            best = f" · best: {clip(hits[0].hit.snippet, 70)}" if hits else ""
            summary.update(f"{found} found for “{clip(query, 30)}”{best}")

    @property
    def selected(self) -> HistoryHit | None:
        table: DataTable[Text] = self.query_one(DataTable)
        if not self.hits or not 0 <= table.cursor_row < len(self.hits):
            return None
        return self.hits[table.cursor_row]

    def _choose(self, action: Literal["open", "reask"]) -> None:
        if (hit := self.selected) is not None:
            t = hit.hit
            self.dismiss(HistoryChoice(action, t.session_id, t.position, t.question))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self._choose("open")

    def action_reask(self) -> None:
        self._choose("reask")

    def action_to_results(self) -> None:
        if self.hits:
            self.query_one(DataTable).focus()

    def action_close(self) -> None:
        self.dismiss(None)
