"""Where ``--inline`` reads what is typed: a prompt-toolkit line editor on a terminal, or the
lines of standard input when it is a file or a pipe.

The editor keeps each user's history in ``inline_history`` in their directory (up/down, ctrl+r
searches it, across runs), completes on Tab, has emacs or vi keys, and takes several lines as
one turn: a paste keeps its line breaks, alt+enter (esc, enter) adds one. Read from a file,
each line is a turn; a line ending in a backslash goes on with the next."""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Protocol, TextIO

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer
from prompt_toolkit.enums import EditingMode
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.output import Output

HISTORY_FILE = "inline_history"


class Reader(Protocol):
    """Reads one turn (None at the end of the input) and answers to a yes/no question."""

    def read(self, prompt: str) -> str | None: ...

    def confirm(self, question: str) -> bool: ...


def one_line(text: str) -> str:
    """A turn typed over several lines as one line: ``Which drugs\\ntreat asthma?`` is one
    question."""
    return " ".join(part.strip() for part in text.splitlines() if part.strip())


def _newline_keys() -> KeyBindings:
    keys = KeyBindings()

    @keys.add("escape", "enter")
    def _(event: KeyPressEvent) -> None:
        event.current_buffer.insert_text("\n")

    return keys


class PromptReader:
    """The line editor (prompt-toolkit) over ``input``/``output`` (the terminal by default)."""

    def __init__(
        self,
        history: Path,
        completer: Completer,
        *,
        keys: Literal["emacs", "vi"] = "emacs",
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        history.parent.mkdir(parents=True, exist_ok=True)
        mode = EditingMode.VI if keys == "vi" else EditingMode.EMACS
        self.session: PromptSession[str] = PromptSession(
            history=FileHistory(str(history)),
            completer=completer,
            complete_while_typing=True,
            reserve_space_for_menu=6,
            editing_mode=mode,
            key_bindings=_newline_keys(),
            prompt_continuation="… ",
            input=input,
            output=output,
        )
        self._answers: PromptSession[str] = PromptSession(
            history=InMemoryHistory(), editing_mode=mode, input=input, output=output
        )

    def read(self, prompt: str) -> str | None:
        """The next turn; "" when ctrl+c cleared the line, None on ctrl+d."""
        try:
            return self.session.prompt(prompt)
        except KeyboardInterrupt:
            return ""
        except EOFError:
            return None

    def confirm(self, question: str) -> bool:
        try:
            reply = self._answers.prompt(f"{question} [y/N] ")
        except (KeyboardInterrupt, EOFError):
            return False
        return reply.strip().lower() in ("y", "yes")


class LineReader:
    """The lines of ``stream``; a yes/no question is answered by the next line."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def read(self, prompt: str = "") -> str | None:
        parts: list[str] = []
        while line := self.stream.readline():
            line = line.rstrip("\r\n")
            if line.endswith("\\"):
                parts.append(line[:-1])
                continue
            return "\n".join([*parts, line])
        return "\n".join(parts) if parts else None

    def confirm(self, question: str) -> bool:
        reply = self.read()
        return reply is not None and reply.strip().lower() in ("y", "yes")
