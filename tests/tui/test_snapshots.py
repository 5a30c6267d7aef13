"""Snapshots of the key screens at 120x40 (fake engine, fixed clock, no ids or times in view)."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from helix_tui.app import HelixApp
from helix_tui.widgets.prompt import PromptInput

from .conftest import settle, submit
from .fakes import ALZ_QUESTION, AMBIGUOUS_QUESTION

SIZE = (120, 40)


async def steady(pilot: Pilot[None]) -> None:
    app = pilot.app
    assert isinstance(app, HelixApp)
    app.chat.query_one(PromptInput).cursor_blink = False
    await settle(pilot)


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
