"""Snapshots of the key screens at 120x40 (fake engine, fixed clock, no ids or times in view)."""

from __future__ import annotations

import tempfile
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from helix_tui.app import HelixApp
from helix_tui.widgets.path_tree import PathTree
from helix_tui.widgets.prompt import PromptInput

from .conftest import settle, submit
from .fakes import ALZ_QUESTION, AMBIGUOUS_QUESTION, Harness
from .test_panes import LONG_QUESTION, three_hop

SIZE = (120, 40)


async def steady(pilot: Pilot[None]) -> None:
    app = pilot.app
    assert isinstance(app, HelixApp)
    app.chat.query_one(PromptInput).cursor_blink = False
    for field in app.screen.query(Input):
        field.cursor_blink = False
    await settle(pilot)


async def shown(pilot: Pilot[None], selector: str, text: str, rounds: int = 100) -> None:
    """Wait until the widget at ``selector`` on the screen shows ``text`` (a search runs in a
    thread after a pause for typing)."""
    for _ in range(rounds):
        widgets = pilot.app.screen.query(selector)
        if widgets and text in str(widgets.first(Static).render()):
            return
        await pilot.pause(0.05)
    raise AssertionError(f"{selector} never showed {text!r}")


def test_main_screen_with_an_answer(snap_compare: Any, app: HelixApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await submit(pilot, ALZ_QUESTION)
        await steady(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_clarification_dialog(snap_compare: Any, app: HelixApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await submit(pilot, AMBIGUOUS_QUESTION)
        await steady(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_memory_panel(snap_compare: Any, app: HelixApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await submit(pilot, "Patient Ada Moreno (MRN 4471) was started on metformin today.")
        await submit(pilot, "Switched MRN 4471 from metformin to sitagliptin.")
        await pilot.press("f2")
        await steady(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_history_search(snap_compare: Any, app: HelixApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await submit(pilot, ALZ_QUESTION)
        await submit(pilot, "/new")
        await submit(pilot, "What do we know about donepezil and asthma?")
        await submit(pilot, "/history donepezil")
        await shown(pilot, "#history-summary", "2 turns found")
        await steady(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_export_dialog(snap_compare: Any, app: HelixApp, monkeypatch: pytest.MonkeyPatch) -> None:
    # the dialog names the directory it writes to: the working directory, fixed here so the
    # snapshot does not depend on where the suite runs (nothing is written)
    monkeypatch.chdir(tempfile.gettempdir())

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await submit(pilot, ALZ_QUESTION)
        await submit(pilot, "/export")
        await steady(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_three_hop_path_and_its_details(snap_compare: Any, app: HelixApp, harness: Harness) -> None:
    harness.engine.answers[LONG_QUESTION] = three_hop

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await submit(pilot, LONG_QUESTION)
        tree = app.chat.query_one(PathTree)
        tree.focus()
        tree.move_cursor(tree.root.children[0].children[2])
        await pilot.press("enter")
        await steady(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
