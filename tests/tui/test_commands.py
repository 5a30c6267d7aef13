"""Slash commands, the command palette and the key bindings."""

from __future__ import annotations

import inspect
import pkgutil
from importlib import import_module

from textual.binding import Binding
from textual.widgets import Markdown

import helix_tui
from helix_tui import commands
from helix_tui.app import HelixApp
from helix_tui.palette import entries
from helix_tui.screens.help import HelpScreen
from helix_tui.widgets.note import Note

from .conftest import settle, submit
from .fakes import ALZ_QUESTION, Harness

SIZE = (120, 40)


def helix_classes() -> list[type]:
    found = []
    for info in pkgutil.walk_packages(helix_tui.__path__, "helix_tui."):
        if info.name.endswith(("cli", "cli_trace")):
            continue
        module = import_module(info.name)
        found += [
            c
            for _, c in inspect.getmembers(module, inspect.isclass)
            if c.__module__ == module.__name__
        ]
    return found


def test_every_binding_has_an_id_and_a_description() -> None:
    bindings = [
        (cls.__name__, b) for cls in helix_classes() for b in cls.__dict__.get("BINDINGS", [])
    ]
    assert len(bindings) > 15
    for owner, binding in bindings:
        assert isinstance(binding, Binding), owner
        assert binding.description.strip(), f"{owner}: {binding.key} has no description"
        assert binding.id and binding.id.count(".") == 1, f"{owner}: {binding.key} has no id"
    ids = [b.id for _, b in bindings]
    assert len(ids) == len(set(ids))
    assert "ctrl+m" not in {b.key for _, b in bindings}


def test_every_command_has_help_and_a_palette_entry() -> None:
    texts = [text for text, _, _ in entries()]
    for command in commands.COMMANDS:
        assert command.help
        assert any(t.startswith(f"/{command.name}") for t in texts), command.name


def test_parse_commands() -> None:
    mode = commands.parse("/mode  graph ")
    assert mode is not None and mode[0].name == "mode" and mode[1] == "graph"
    assert commands.parse("What treats asthma?") is None
    assert commands.parse("//not a command") is None
    assert commands.action_call(commands.BY_NAME["export"], "a b.md") == "export('a b.md')"
    try:
        commands.parse("/nope")
    except commands.UnknownCommand as exc:
        assert "/help" in str(exc)
    else:
        raise AssertionError("unknown command accepted")


async def test_mode_command_and_binding(app: HelixApp, harness: Harness) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, "/mode graph")
        assert app.chat.mode == "graph"
        await submit(pilot, ALZ_QUESTION)
        assert harness.engine.calls[-1]["mode"] == "graph"
        await pilot.press("ctrl+g")
        assert app.chat.mode == "dense"
        await submit(pilot, "/mode nonsense")
        assert app.chat.mode == "dense"


async def test_trace_shows_step_timings(app: HelixApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, "/trace")
        assert "No answer yet" in app.chat.query(Note)[-1].source
        await submit(pilot, ALZ_QUESTION)
        await pilot.press("ctrl+t")
        await pilot.pause()
        trace = app.chat.query(Note)[-1].source
        assert "| Walking the graph | 31.0 | 4 paths · stopped: answered |" in trace
        assert "Total 84.0 ms" in trace


async def test_help_lists_commands_and_keys(app: HelixApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, "/help")
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one(Markdown).source
        assert "`/forget SUBJECT`" in text and "`ctrl+o`" in text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_unknown_command_is_not_asked(app: HelixApp, harness: Harness) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, "/bogus")
        assert harness.engine.calls == []


async def test_palette_runs_a_command(app: HelixApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"mode graph")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(pilot)
        assert app.chat.mode == "graph"


async def test_palette_forget_fills_the_prompt(app: HelixApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.chat.run_action("prompt_with('/forget ')")
        assert app.chat.query_one("#prompt").value == "/forget "  # type: ignore[attr-defined]
