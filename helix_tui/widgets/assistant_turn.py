"""One answer: live step progress, a memory banner, then the answer as Markdown."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.events import Click
from textual.message import Message
from textual.widgets import Markdown, Static

from engine.events import StepEvent
from engine.result import Result, Status
from helix_tui import present
from helix_tui.relations import short_id

if TYPE_CHECKING:
    from memory.replay.events import Event


class AssistantTurn(Vertical):
    """Click it to show its evidence in the side panes."""

    class Selected(Message):
        def __init__(self, turn: AssistantTurn) -> None:
            super().__init__()
            self.turn = turn

    def __init__(self, *, title: str = "Helix") -> None:
        super().__init__(classes="turn assistant-turn")
        self.border_title = title
        self.events: list[StepEvent] = []
        self.result: Result | None = None
        self.names: dict[str, str] = {}
        self._lines: dict[str, str] = {}
        self._notes: list[str] = []
        self.replay: Event | None = None
        """The replay event this turn plays, if any."""

    def compose(self) -> ComposeResult:
        yield Static("", markup=False, classes="progress")
        yield Static("", markup=False, classes="notes")
        yield Static("", markup=False, classes="banner")
        yield Markdown("", classes="answer")

    def name_of(self, node_id: str) -> str:
        return self.names.get(node_id) or short_id(node_id)

    def waiting(self, text: str) -> None:
        self._lines = {"_wait": f"… {text}"}
        self._show_progress()

    def add_step(self, event: StepEvent) -> None:
        self._lines.pop("_wait", None)
        self.events.append(event)
        self._lines[present.step_key(event)] = present.step_line(event)
        self._show_progress()

    def add_notes(self, notes: list[str]) -> None:
        self._notes.extend(f"✎ Noted: {n}" for n in notes)
        notes_widget = self.query_one(".notes", Static)
        notes_widget.update("\n".join(self._notes))
        notes_widget.display = True

    def show_verdict(self, verdict: str) -> None:
        """The replay's expectation for this answer, met or not."""
        self._notes.append(verdict)
        notes_widget = self.query_one(".notes", Static)
        notes_widget.update("\n".join(self._notes))
        notes_widget.display = True

    async def show_result(
        self, result: Result, names: dict[str, str], *, reveal: float = 0.0
    ) -> None:
        """Show the answer; with ``reveal`` > 0 its text appears sentence by sentence, that many
        seconds apart (the panes and banner are filled at once)."""
        self.result = result
        self.names = names
        progress = self.query_one(".progress", Static)
        if self.events:
            progress.update(present.steps_summary(self.events, result.latency_ms))
        else:
            progress.display = False
        self.add_class("done", f"status-{result.status.value.lower()}")
        if result.intent == "statement":
            self.query_one(".notes", Static).display = False
        banner = self.query_one(".banner", Static)
        flags = present.banner_lines(result)
        banner.update("\n".join(flags))
        banner.display = bool(flags)
        self.border_subtitle = self._subtitle(result)
        markdown = present.result_markdown(result, self.name_of)
        steps = present.reveal_steps(markdown) if reveal > 0 else [markdown]
        if len(steps) == 1:
            await self.query_one(".answer", Markdown).update(markdown)
        else:
            self.run_worker(
                self._reveal(steps, reveal), group="reveal", exclusive=True, exit_on_error=False
            )

    async def _reveal(self, steps: list[str], pause: float) -> None:
        answer = self.query_one(".answer", Markdown)
        for step in steps[:-1]:
            await answer.update(f"{step} ▍")
            await asyncio.sleep(pause)
        await answer.update(steps[-1])

    async def show_text(self, markdown: str, *, status: str) -> None:
        self.query_one(".progress", Static).display = False
        self.add_class("done", f"status-{status}")
        await self.query_one(".answer", Markdown).update(markdown)

    async def show_cancelled(self) -> None:
        await self.show_text("_Cancelled._", status="cancelled")

    async def show_error(self, error: str) -> None:
        await self.show_text(f"**Error:** {error}", status="error")

    def on_click(self, event: Click) -> None:
        if self.result is not None:
            self.post_message(self.Selected(self))

    def _show_progress(self) -> None:
        self.query_one(".progress", Static).update("\n".join(self._lines.values()))

    @staticmethod
    def _subtitle(result: Result) -> str:
        parts = [_STATUS_LABELS[result.status]]
        if result.mode:
            parts.append(result.mode)
        if result.latency_ms:
            parts.append(f"{result.latency_ms:.0f} ms")
        return " · ".join(parts)


_STATUS_LABELS = {
    Status.ANSWERED: "answered",
    Status.NEEDS_CLARIFICATION: "needs clarification",
    Status.NOT_ANSWERED: "not found",
}
