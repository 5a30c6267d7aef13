"""Asks the user which entity they meant; dismisses with the chosen node id."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.result import Candidate
from helix_tui.present import clip


class ClarifyScreen(ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss_none", "Type instead", id="clarify.dismiss"),
    ]

    def __init__(self, question: str, candidates: list[Candidate]) -> None:
        super().__init__()
        self.question = question
        self.candidates = candidates

    def compose(self) -> ComposeResult:
        with Vertical(id="clarify-dialog", classes="dialog") as dialog:
            dialog.border_title = "Which one do you mean?"
            yield Static(self.question, markup=False, id="clarify-question")
            yield OptionList(
                *(self._option(i, c) for i, c in enumerate(self.candidates, 1)),
                id="clarify-options",
            )
            yield Static(
                "Enter picks · Esc to type your answer instead", markup=False, classes="hint"
            )

    @staticmethod
    def _option(index: int, cand: Candidate) -> Option:
        text = Text(f"{index}. ")
        text.append(cand.name, style="bold")
        text.append(f"  {cand.kind}", style="italic")
        if cand.detail:
            text.append(f"\n   {clip(cand.detail, 64)}", style="dim")
        return Option(text, id=cand.id)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_id)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
