"""Tab completion for ``--inline``: ``/commands`` (and the words they take), and graph names
from the alias index once the engine has loaded (``names.NameIndex``)."""

from __future__ import annotations

from collections.abc import Iterable

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from helix_tui import commands
from helix_tui.export import FORMATS
from helix_tui.inline.names import NameIndex

QUIT = ("quit", "exit")
"""Words that leave the inline chat (``/quit``, ``/exit``), besides ctrl+d."""


def command_words(name: str) -> list[str]:
    """The words a command takes, offered after it: the modes, the export formats."""
    if name == "mode":
        return list(commands.MODES)
    if name == "export":
        return [f.name for f in FORMATS]
    return []


class HelixCompleter(Completer):
    """Completes a ``/command`` and its word, else the name being typed. ``names`` is set once
    the alias index is read (until then only commands complete)."""

    def __init__(self) -> None:
        self.names: NameIndex | None = None

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        before = document.text_before_cursor
        if before.lstrip().startswith("/"):
            yield from self._commands(before.lstrip())
            return
        if self.names is None:
            return
        near = complete_event.completion_requested  # near spellings on Tab, not while typing
        for offer in self.names.offers(before, near=near):
            yield Completion(
                offer.choice.text, start_position=-len(offer.typed), display=offer.choice.shown
            )

    def _commands(self, typed: str) -> Iterable[Completion]:
        head, space, word = typed[1:].partition(" ")
        if not space:
            for command in commands.COMMANDS:
                if command.name.startswith(head.lower()):
                    yield Completion(
                        f"/{command.name}",
                        start_position=-len(typed),
                        display=command.usage,
                        display_meta=command.help,
                    )
            for name in QUIT:
                if name.startswith(head.lower()):
                    yield Completion(f"/{name}", -len(typed), display_meta="Leave the chat")
            return
        if " " in word:
            return
        for option in command_words(head.lower()):
            if option.startswith(word.lower()):
                yield Completion(option, start_position=-len(word))
