"""Command-palette entries for the slash commands."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

from helix_tui.commands import COMMANDS, MODES, SlashCommand, action_call


def entries() -> list[tuple[str, str, str]]:
    """(palette text, help, action of the chat screen) per entry."""
    rows: list[tuple[str, str, str]] = []
    for command in COMMANDS:
        if command.name == "mode":
            rows += [(f"/mode {m}", f"Retrieval mode: {m}", action_call(command, m)) for m in MODES]
        elif command.name == "forget":
            rows.append((command.usage, command.help, "prompt_with('/forget ')"))
        else:
            rows.append((f"/{command.name}", command.help, _plain(command)))
    return rows


def _plain(command: SlashCommand) -> str:
    return action_call(command, "") if command.args else command.action


class HelixCommands(Provider):
    def _callback(self, action: str) -> Callable[[], Any]:
        return partial(self.app.screen_stack[0].run_action, action)

    async def discover(self) -> Hits:
        for text, help_text, action in entries():
            yield DiscoveryHit(text, self._callback(action), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, help_text, action in entries():
            score = max(matcher.match(text), matcher.match(help_text))
            if score > 0:
                yield Hit(score, matcher.highlight(text), self._callback(action), help=help_text)
