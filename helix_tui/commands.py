"""Slash commands as data: each names the action of the chat screen that runs it."""

from __future__ import annotations

from dataclasses import dataclass

from engine.config import Mode

MODES: tuple[Mode, ...] = ("hybrid", "graph", "dense")


@dataclass(frozen=True)
class SlashCommand:
    name: str
    action: str
    """Action of the chat screen; the argument text, if any, is passed as one string."""
    help: str
    args: str = ""

    @property
    def usage(self) -> str:
        return f"/{self.name} {self.args}".rstrip()


COMMANDS: tuple[SlashCommand, ...] = (
    SlashCommand("help", "help", "Show commands and key bindings"),
    SlashCommand("new", "new_session", "Start a new session"),
    SlashCommand("sessions", "sessions", "List sessions: resume, rename, delete, export"),
    SlashCommand(
        "export",
        "export",
        "Export this session as Markdown, JSON or HTML; or, as GraphML, Cytoscape JSON or GEXF, "
        "the subgraph of its last answer that has graph paths",
        "[md|json|html|graphml|cytoscape|gexf] [PATH]",
    ),
    SlashCommand("history", "history", "Search all your sessions; open or re-ask a turn", "[TEXT]"),
    SlashCommand("copy", "copy", "Copy the selected answer, path or evidence row"),
    SlashCommand(
        "forget",
        "forget",
        "Forget facts about a subject, or every fact `looked-up` or `stated` (asks first)",
        "SUBJECT",
    ),
    SlashCommand("memory", "memory", "Show the facts your memory holds"),
    SlashCommand("trace", "trace", "Step timings of the last answer"),
    SlashCommand("mode", "mode", "Set the retrieval mode", "hybrid|graph|dense"),
    SlashCommand("theme", "theme", "Pick a theme (kept for next time)", "[NAME]"),
)

BY_NAME: dict[str, SlashCommand] = {c.name: c for c in COMMANDS}


class UnknownCommand(ValueError):
    pass


def parse(text: str) -> tuple[SlashCommand, str] | None:
    """``/mode graph`` -> (the mode command, "graph"); None when ``text`` is not a command."""
    stripped = text.strip()
    if not stripped.startswith("/") or stripped.startswith("//"):
        return None
    head, _, arg = stripped[1:].partition(" ")
    command = BY_NAME.get(head.lower())
    if command is None:
        raise UnknownCommand(f"Unknown command /{head}. Type /help for the list.")
    return command, arg.strip()


def action_call(command: SlashCommand, arg: str) -> str:
    """The action string for ``run_action``: ``export('notes.md')`` or ``help``."""
    return f"{command.action}({arg!r})" if command.args else command.action
