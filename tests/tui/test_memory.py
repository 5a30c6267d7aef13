"""Stated facts go to the user's memory; the memory panel lists them; /forget removes them."""

from __future__ import annotations

from textual.widgets import Markdown, Static, TabbedContent

from helix_tui.app import HelixApp
from helix_tui.screens.confirm import ConfirmScreen
from helix_tui.widgets.assistant_turn import AssistantTurn
from helix_tui.widgets.fact_table import FactTable
from helix_tui.widgets.user_turn import UserTurn

from .conftest import settle, submit
from .fakes import SITAGLIPTIN, Harness

SIZE = (120, 40)
START = "Patient Ada Moreno (MRN 4471) was started on metformin today."
SWITCH = "Switched MRN 4471 from metformin to sitagliptin."


def rows(app: HelixApp) -> list[list[str]]:
    table = app.chat.query_one(FactTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def test_a_statement_is_noted_not_asked(app: HelixApp, harness: Harness) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, START)
        turn = app.chat.query_one(AssistantTurn)
        assert turn.query_one(".answer", Markdown).source == "Noted: MRN 4471 takes Metformin"
        assert harness.engine.calls == []
        assert harness.memories["alice"].stated == [START]


async def test_a_question_is_not_offered_to_memory(app: HelixApp, harness: Harness) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, "What is MRN 4471 on at the moment?")
        assert harness.memories["alice"].stated == []
        assert len(harness.engine.calls) == 1


async def test_statement_then_question_notes_and_answers(app: HelixApp, harness: Harness) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, f"{SWITCH} What is MRN 4471 on at the moment?")
        turn = app.chat.query_one(AssistantTurn)
        notes = str(turn.query_one(".notes", Static).render())
        assert "✎ Noted: MRN 4471 takes Sitagliptin" in notes
        assert harness.engine.calls[-1]["question"] == "What is MRN 4471 on at the moment?"
        assert turn.result is not None
        assert turn.result.answers[0].id == SITAGLIPTIN


async def test_memory_panel_lists_current_and_superseded(app: HelixApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, START)
        await submit(pilot, SWITCH)
        await pilot.press("f2")
        await settle(pilot)
        assert app.chat.query_one(TabbedContent).active == "memory-tab"
        assert rows(app) == [
            ["●", "MRN 4471", "takes", "Sitagliptin", "2026-03-02", "", "you said"],
            ["○", "MRN 4471", "takes", "Metformin", "2026-03-02", "2026-03-02", "you said"],
        ]
        summary = str(app.chat.query_one(".memory-summary", Static).render())
        assert summary == "alice: 1 current fact you said, 1 superseded"


async def test_forget_command_and_delete_key(app: HelixApp, harness: Harness) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, START)
        await submit(pilot, "/memory")
        assert len(rows(app)) == 1
        await pilot.press("delete")
        await settle(pilot)
        assert rows(app) == []
        await submit(pilot, START)
        await submit(pilot, "/forget MRN 9999")
        await settle(pilot)
        assert len(rows(app)) == 1
        assert not isinstance(app.screen, ConfirmScreen)
        await submit(pilot, "/forget MRN 4471")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        assert rows(app) == []
        assert [str(u.render()) for u in app.chat.query(UserTurn)] == [START, START]
        assert harness.memories["alice"].rows == []


async def test_forget_asks_first_and_says_what_goes(app: HelixApp, harness: Harness) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, START)
        await submit(pilot, "Switched MRN 4471 from metformin to sitagliptin.")
        await submit(pilot, "/forget MRN 4471")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert "“MRN 4471”" in dialog.question
        assert "MRN 4471 takes Sitagliptin" in dialog.question
        assert "MRN 4471 takes Metformin (earlier)" in dialog.question
        assert "Turns of your sessions that mention it" in dialog.question
        await pilot.press("n")
        await settle(pilot)
        assert len(harness.memories["alice"].rows) == 2
        assert any("nothing was forgotten" in n.message for n in app._notifications)
        await submit(pilot, "/forget MRN 4471")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert harness.memories["alice"].rows == []


async def test_a_statement_that_notes_nothing_is_asked_with_its_question(
    app: HelixApp, harness: Harness
) -> None:
    text = "The clinic was busy this morning. What is MRN 4471 on at the moment?"
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, text)
        assert harness.memories["alice"].stated == ["The clinic was busy this morning."]
        assert harness.engine.calls[-1]["question"] == text
        assert not str(app.chat.query_one(AssistantTurn).query_one(".notes", Static).render())
