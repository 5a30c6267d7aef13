"""What each slash command does in ``--inline``: the command table is the app's
(``helix_tui.commands``), each action here prints where the app opens a pane or a dialog, and
asks yes/no on the line where the app asks in a dialog."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from helix_tui import commands, present
from helix_tui.export import FORMATS, ExportError, export_session, export_target, parse_target
from helix_tui.facts import FactView
from helix_tui.inline.complete import QUIT
from helix_tui.memory_view import forget_in, forget_preview, memory_facts, memory_table
from helix_tui.relations import short_id

if TYPE_CHECKING:
    from helix_tui.inline.chat import InlineChat

Action = Callable[["InlineChat", str], None]

KEYS = (
    ("Tab", "complete a name (with its kind) or a /command"),
    ("↑ ↓ · ctrl+r", "your earlier lines, kept across runs · search them"),
    ("alt+enter", "a new line in the same turn (a pasted text stays one turn)"),
    ("ctrl+c", "cancel the answer being made, or clear the line"),
    ("ctrl+d · /quit", "leave"),
)


def run(chat: InlineChat, command: commands.SlashCommand, arg: str) -> None:
    ACTIONS[command.action](chat, arg)


def show_help(chat: InlineChat, _arg: str) -> None:
    rows = [(c.usage, c.help) for c in commands.COMMANDS]
    rows += [(f"/{word}", "Leave the chat") for word in QUIT]
    chat.printer.rows(("command", "what it does"), rows)
    chat.printer.rows(("key", "what it does"), KEYS)
    chat.printer.line(
        'Keys are emacs-style; editing_mode = "vi" in chat.toml gives vi keys.', "dim"
    )


def new_session(chat: InlineChat, _arg: str) -> None:
    chat.sessions.new()
    chat.clarifying = None
    chat.printer.line("New session: your next question starts it.")


def sessions(chat: InlineChat, _arg: str) -> None:
    found = chat.sessions.store.list()
    if not found:
        chat.printer.line("No sessions yet.")
        return
    current = chat.sessions.session_id
    rows = [
        (
            ("* " if s.id == current else "") + s.id,
            s.title,
            str(s.n_turns),
            s.updated_at.strftime("%Y-%m-%d %H:%M"),
        )
        for s in found[:20]
    ]
    chat.printer.rows(("id", "title", "turns", "updated"), rows)
    chat.printer.line("Resume one with: helix-chat --inline --session ID", "dim")


def export(chat: InlineChat, arg: str) -> None:
    """``/export [FORMAT] [PATH]`` through the app's export (Markdown when nothing is named);
    a file already there is replaced only on yes."""
    session_id = chat.sessions.session_id
    if session_id is None:
        chat.printer.line("Nothing to export yet: this session has no turns.")
        return
    try:
        fmt, path = parse_target(arg)
        target, chosen = export_target(session_id, path, fmt)
    except ExportError as exc:
        chat.printer.error(f"Export failed: {exc}")
        return
    if target.exists() and not chat.confirm(f"{target} exists. Replace it?"):
        chat.printer.line(f"Not exported: {target} is kept as it was")
        return
    try:
        written = export_session(chat.sessions.store, session_id, str(target), chosen)
    except (OSError, ExportError, KeyError) as exc:
        chat.printer.error(f"Export failed: {exc}")
        return
    others = "|".join(f.name for f in FORMATS if f is not chosen)
    chat.printer.line(f"Exported to {written} ({chosen.label}; /export {others} for another)")


def history(chat: InlineChat, query: str) -> None:
    from sessions.history import search_history

    if not query:
        chat.printer.line("Usage: /history TEXT (↑ and ctrl+r search the lines you typed)")
        return
    store, engine = chat.sessions.store, chat.loaded()

    def search() -> list[tuple[str, str, str, str]]:
        embed = engine.embed() if engine is not None else None
        hits = search_history(store, query, embed=embed)
        return [
            (h.hit.session_title or h.hit.session_id, str(h.hit.position), h.hit.question, h.how)
            for h in hits[:15]
        ]

    rows = chat.call(search, "Searching your sessions…")
    if rows is None:
        return
    if not rows:
        chat.printer.line(f"No turn of yours matches {query}.")
        return
    chat.printer.rows(("session", "turn", "question", "found by"), rows)


def copy(chat: InlineChat, _arg: str) -> None:
    result = chat.last
    if result is None:
        chat.printer.line("Nothing to copy yet: ask something first.")
        return
    names = result.all_names()
    text = present.result_markdown(result, lambda n: names.get(n) or short_id(n))
    if chat.printer.copy(text):
        chat.printer.line(f"Copied the answer to the clipboard ({len(text)} characters)")
    else:
        chat.printer.line("Nothing copied: the output is not a terminal.")


def forget(chat: InlineChat, target: str) -> None:
    if not target:
        chat.printer.line("Usage: /forget SUBJECT")
        return
    engine = chat.engine()
    if engine is None:
        return
    user = chat.sessions.user
    lines = chat.call(partial(forget_preview, chat.memories, engine, user, target))
    if lines is None:
        return
    if not lines:
        chat.printer.line(f"Nothing in your memory matches {target}")
        return
    chat.printer.line(f"Forget everything your memory holds about “{target}”? This removes:")
    for line in lines:
        chat.printer.line(f"  • {line}")
    chat.printer.line("Turns of your sessions that mention it are deleted as well.", "dim")
    if not chat.confirm("Forget it? This cannot be undone."):
        chat.printer.line("Kept: nothing was forgotten.")
        return

    def erase() -> tuple[bool, str]:
        memory = chat.memories.get(user, engine)
        if memory is None:
            raise LookupError(chat.memories.errors.get(user) or "memory is unavailable")
        return forget_in(memory, target)

    done = chat.call(erase, "Forgetting…")
    if done is not None:
        chat.printer.line(done[1], "" if done[0] else "yellow")
        chat.sessions.reload()  # turns that mentioned it are gone from the session


def memory(chat: InlineChat, _arg: str) -> None:
    engine = chat.engine()
    if engine is None:
        return
    user = chat.sessions.user

    def read() -> tuple[list[FactView], dict[str, str]] | None:
        held = chat.memories.get(user, engine)
        return None if held is None else memory_facts(held, engine)

    found = chat.call(read)
    if found is None:
        problem = chat.memories.errors.get(user)
        if problem:
            chat.printer.error(f"Memory unavailable: {problem}")
        return
    facts, names = found
    chat.printer.memory(memory_table(facts, names, user))


def trace(chat: InlineChat, _arg: str) -> None:
    chat.printer.markdown(present.trace_markdown(chat.last, chat.events))


def mode(chat: InlineChat, arg: str) -> None:
    if arg not in commands.MODES:
        chat.printer.line(f"Mode is {chat.mode}. Usage: /mode hybrid|graph|dense")
        return
    chat.mode = arg  # type: ignore[assignment]
    chat.printer.line(f"Retrieval mode: {arg}")


def theme(chat: InlineChat, _arg: str) -> None:
    chat.printer.line(
        "Themes are the full-screen chat's: --inline prints in your terminal's colours."
    )


ACTIONS: dict[str, Action] = {
    "help": show_help,
    "new_session": new_session,
    "sessions": sessions,
    "export": export,
    "history": history,
    "copy": copy,
    "forget": forget,
    "memory": memory,
    "trace": trace,
    "mode": mode,
    "theme": theme,
}
"""One action per command of the table, by the action name the app runs."""
