"""Commands and key bindings."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from helix_tui.commands import COMMANDS


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q", "close", "Close help", id="help.close"),
    ]

    def __init__(self, bindings: list[Binding], config: str = "chat.toml") -> None:
        super().__init__()
        self.bindings = bindings
        self.config = config

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help-dialog") as dialog:
            dialog.border_title = "Helix help"
            yield Markdown(help_markdown(self.bindings, self.config))

    def action_close(self) -> None:
        self.dismiss(None)


def help_markdown(bindings: list[Binding], config: str = "chat.toml") -> str:
    lines = [
        "Ask biomedical questions; answers come with knowledge-graph paths and evidence.",
        "State facts (\u201cSwitched MRN 4471 from metformin to sitagliptin\u201d) and Helix",
        "remembers them for you only.",
        "",
        "| command | what it does |",
        "| --- | --- |",
        *(f"| `{_cell(c.usage)}` | {_cell(c.help)} |" for c in COMMANDS),
        "",
        "| key | what it does | id |",
        "| --- | --- | --- |",
        *(f"| `{_cell(b.key)}` | {_cell(b.description)} | `{b.id}` |" for b in bindings),
        "",
        f'Remap a key in `{config}`, under `[keys]`: `"chat.export" = "ctrl+e"`.',
        "The theme you pick (`/theme`, or ctrl+p → Change theme) is kept there too.",
    ]
    return "\n".join(lines)


def _cell(text: str) -> str:
    """``text`` inside a table cell: a ``|`` (``/export [md|json|html]``) escaped, so it does
    not end the cell; the escape holds inside a code span too (GFM tables)."""
    return text.replace("|", "\\|")
