"""Sessions: every turn saved, resumed by user id, listed, renamed, deleted, exported."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, Markdown

from helix_tui.app import HelixApp, make_app
from helix_tui.screens.sessions import SessionsScreen
from helix_tui.widgets.assistant_turn import AssistantTurn
from helix_tui.widgets.evidence_table import EvidenceTable
from helix_tui.widgets.user_turn import UserTurn
from sessions.store import SessionStore

from .conftest import settle, submit
from .fakes import ALZ_QUESTION, AMBIGUOUS_QUESTION, Harness

SIZE = (120, 40)


def questions(app: HelixApp) -> list[str]:
    return [str(u.render()) for u in app.chat.query(UserTurn)]


async def ask_and_quit(harness: Harness, *texts: str) -> None:
    app = make_app(harness.settings, harness.services)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for text in texts:
            await submit(pilot, text)


async def test_resume_by_user_shows_earlier_turns(harness: Harness) -> None:
    await ask_and_quit(harness, ALZ_QUESTION)
    app = make_app(harness.settings, harness.services, resume=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert questions(app) == [ALZ_QUESTION]
        (turn,) = app.chat.query(AssistantTurn)
        assert "Three approved drugs" in turn.query_one(".answer", Markdown).source
        assert app.chat.query_one(EvidenceTable).row_count == 4
        await submit(pilot, AMBIGUOUS_QUESTION)
        await pilot.press("escape")
    store = SessionStore(harness.settings, "alice", clock=harness.clock)
    (info,) = store.list()
    assert [t.question for t in store.turns(info.id)] == [ALZ_QUESTION, AMBIGUOUS_QUESTION]
    store.close()


async def test_another_user_does_not_see_the_session(harness: Harness) -> None:
    await ask_and_quit(harness, ALZ_QUESTION)
    settings = harness.settings.model_copy(update={"user": "bob"})
    app = make_app(settings, harness.services, resume=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert questions(app) == []


async def test_session_id_opens_that_session(harness: Harness) -> None:
    store = SessionStore(harness.settings, "alice", clock=harness.clock)
    info = store.create(title="Older chat", session_id="older")
    from .fakes import alzheimer_result

    store.add_turn(info.id, "What treats Alzheimer's disease?", alzheimer_result())
    store.create(title="Newer chat", session_id="newer")
    store.close()
    app = make_app(harness.settings, harness.services, session_id="older")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert questions(app) == ["What treats Alzheimer's disease?"]
        assert app.chat.sessions.session_id == "older"


async def test_export_writes_markdown(app: HelixApp, tmp_path: Path) -> None:
    target = tmp_path / "out" / "chat.md"
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, ALZ_QUESTION)
        await submit(pilot, f"/export {target}")
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# ")
    assert ALZ_QUESTION in text
    assert "Donepezil" in text


async def test_export_default_path_is_the_working_directory(
    app: HelixApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, ALZ_QUESTION)
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("enter")  # Markdown, the first format offered
        await settle(pilot)
    (path,) = tmp_path.glob("helix-session-*.md")
    assert ALZ_QUESTION in path.read_text(encoding="utf-8")


async def test_new_session_clears_the_conversation(app: HelixApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, ALZ_QUESTION)
        first = app.chat.sessions.session_id
        await submit(pilot, "/new")
        assert questions(app) == []
        assert app.chat.query_one(EvidenceTable).row_count == 0
        await submit(pilot, AMBIGUOUS_QUESTION)
        await pilot.press("escape")
        assert app.chat.sessions.session_id not in (None, first)
        assert len(app.chat.sessions.store.list()) == 2


async def test_sessions_screen_rename_delete_resume(app: HelixApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, ALZ_QUESTION)
        await submit(pilot, "/new")
        await submit(pilot, AMBIGUOUS_QUESTION)
        await pilot.press("escape")
        await pilot.press("ctrl+o")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SessionsScreen)
        assert [s.title for s in screen.sessions] == [AMBIGUOUS_QUESTION, ALZ_QUESTION]

        await pilot.press("down", "r")
        await pilot.pause()
        rename = app.screen.query_one(Input)
        rename.value = "Alzheimer drugs"
        await pilot.press("enter")
        await pilot.pause()
        assert [s.title for s in screen.sessions] == [AMBIGUOUS_QUESTION, "Alzheimer drugs"]

        await pilot.press("up", "d", "y")
        await pilot.pause()
        assert [s.title for s in screen.sessions] == ["Alzheimer drugs"]

        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, SessionsScreen)
        assert questions(app) == [ALZ_QUESTION]
        assert app.chat.sessions.title == "Alzheimer drugs"


async def test_sessions_screen_lists_with_a_cursor(app: HelixApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, ALZ_QUESTION)
        await submit(pilot, "/sessions")
        table = app.screen.query_one(DataTable)
        assert table.row_count == 1
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, SessionsScreen)
