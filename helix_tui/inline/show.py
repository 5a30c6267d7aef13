"""What ``--inline`` prints, with rich: each answer (status, text, path tree, evidence table),
memory notes, clarifications as a numbered choice, and short lines. On a terminal with colour;
into a file or a pipe as plain text with no escape codes (``Printer.to``)."""

from __future__ import annotations

import base64
import io
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TextIO, cast

from rich import box
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from engine.events import StepEvent
from engine.result import Result, Status
from helix_tui import present
from helix_tui.memory_view import MemoryTable
from helix_tui.relations import short_id
from helix_tui.render import STATUS_STYLE, evidence_table, path_tree

EVIDENCE_ROWS = 5
"""Rows of an answer's evidence printed (``/export json`` writes them all)."""
PICK_HINT = "Type its number or name to pick one; anything else is asked as a new question."
SYMBOL = {Status.ANSWERED: "●", Status.NEEDS_CLARIFICATION: "?", Status.NOT_ANSWERED: "○"}

Progress = Callable[[str], None]
"""Shows what the engine is doing while an answer is made (one short line)."""


class Printer:
    """Prints to one console; ``plain`` when it is no terminal (then nothing is styled)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    @classmethod
    def to(cls, stream: TextIO) -> Printer:
        """A printer for ``stream``: styled on a terminal, plain text anywhere else (with no
        spaces padding its lines)."""
        terminal = stream.isatty()
        console = Console(
            file=stream if terminal else cast(TextIO, _Unpadded(stream)),
            force_terminal=terminal,
            color_system="auto" if terminal else None,
            highlight=False,
            emoji=False,
        )
        return cls(console)

    @property
    def plain(self) -> bool:
        return not self.console.is_terminal

    def line(self, text: str, style: str = "") -> None:
        """One line, never broken: the terminal wraps it, a file keeps it whole."""
        self.console.print(Text(text, style=style), soft_wrap=True)

    def echo(self, text: str) -> None:
        """The user's turn, printed where no prompt shows it (plain output)."""
        self.line(f"» {text}", "bold")

    def markdown(self, text: str) -> None:
        self.console.print(Markdown(text))

    def error(self, text: str) -> None:
        self.line(f"✗ {text}", "red")

    def notes(self, notes: Sequence[str]) -> None:
        for note in notes:
            self.line(f"✎ Noted: {note}", "cyan")

    def answer(self, result: Result, events: Sequence[StepEvent]) -> None:
        """Status, then the clarification's numbered choice, or the answer with its paths and
        evidence; a closing line with the steps and how long they took."""
        names = result.all_names()

        def name(node: str) -> str:
            return names.get(node) or short_id(node)

        head = Text(f"{SYMBOL[result.status]} {result.status.value}", STATUS_STYLE[result.status])
        if result.intent:
            head.append(f" · {result.intent}", "dim")
        self.console.print(head)
        for flag in present.banner_lines(result):
            self.line(flag, "yellow")
        if result.status is Status.NEEDS_CLARIFICATION and result.candidates:
            question = result.clarification or "Which one do you mean?"
            self.markdown(f"{question}\n\n{present.candidate_lines(result.candidates)}")
            self.line(PICK_HINT, "dim")
            self.console.print()
            return
        self.markdown(present.result_markdown(result, name))
        if result.paths:
            self.console.print(path_tree(result, name))
        if result.evidence:
            self.console.print(evidence_table(result, name, EVIDENCE_ROWS, box.SIMPLE_HEAD))
        if result.intent != "statement":
            self.line(present.steps_summary(events, result.latency_ms, "/trace"), "dim")
        self.console.print()

    def memory(self, shown: MemoryTable) -> None:
        self.line(shown.summary, "bold")
        if not shown.rows:
            return
        header = ("", "subject", "relation", "object", "since", "until", "whose word")
        table = _table(header)
        for row in shown.rows:
            cells = (row.subject, row.relation, row.object, row.since, row.until, row.source)
            table.add_row(
                "●" if row.current else "○",
                *(Text(cell) for cell in cells),
                style=None if row.current else "dim",
            )
        self.console.print(table)

    def rows(self, header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        table = _table(header)
        for row in rows:
            table.add_row(*(Text(cell) for cell in row))
        self.console.print(table)

    @contextmanager
    def waiting(self, text: str) -> Iterator[Progress]:
        """A spinner with ``text`` (updated through the yielded function) on a terminal;
        nothing in plain output."""
        if self.plain:
            yield lambda _line: None
            return
        with self.console.status(Text(text), spinner="dots") as status:
            yield lambda line: status.update(Text(line))

    def copy(self, text: str) -> bool:
        """Put ``text`` on the clipboard through the terminal (OSC 52, works over SSH)."""
        if self.plain:
            return False
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        self.console.file.write(f"\x1b]52;c;{data}\a")
        self.console.file.flush()
        return True


def _table(header: Sequence[str]) -> Table:
    return Table(*header, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)


class _Unpadded(io.TextIOBase):
    """Writes to ``stream`` without the spaces rich pads lines with (plain output)."""

    _PAD = re.compile(r"[ \t]+(?=\n)")

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(self._PAD.sub("", text))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return False
