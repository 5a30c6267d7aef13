"""The whole app with a fake engine and the real session store: ask, clarify, cancel."""

from __future__ import annotations

import threading

from textual.widgets import Markdown, Static
from textual.widgets._footer import FooterKey

from helix_tui.app import HelixApp, make_app
from helix_tui.screens.clarify import ClarifyScreen
from helix_tui.widgets.assistant_turn import AssistantTurn
from helix_tui.widgets.evidence_table import EvidenceTable
from helix_tui.widgets.keys_footer import KeysFooter
from helix_tui.widgets.path_tree import PathTree
from helix_tui.widgets.prompt import PromptInput
from helix_tui.widgets.run_info import RunInfo
from helix_tui.widgets.sidebar import Sidebar
from helix_tui.widgets.status_line import StatusLine
from helix_tui.widgets.user_turn import UserTurn

from .conftest import settle, submit
from .fakes import (
    ALZ_QUESTION,
    AMBIGUOUS_QUESTION,
    MS,
    SLOW_QUESTION,
    Harness,
    alzheimer_result,
)

SIZE = (120, 40)


def answer_text(turn: AssistantTurn) -> str:
    return turn.query_one(".answer", Markdown).source


def status_text(app: HelixApp) -> str:
    return str(app.chat.query_one(StatusLine).render())


async def test_ask_shows_answer_path_tree_and_evidence(app: HelixApp, harness: Harness) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "Ready" in status_text(app)
        await submit(pilot, ALZ_QUESTION)

        (user,) = app.chat.query(UserTurn)
        assert str(user.render()) == ALZ_QUESTION
        (turn,) = app.chat.query(AssistantTurn)
        assert "Three approved drugs treat Alzheimer's disease" in answer_text(turn)
        assert turn.border_subtitle == "answered · hybrid · 84 ms"

        tree = app.chat.query_one(PathTree)
        labels = [str(node.label) for node in tree.root.children]
        assert labels[0] == "1. Donepezil —treats→ Alzheimer's disease  (hetionet)"  # edge source
        assert labels[3] == "4. Donepezil ⇢ Alzheimer's disease  (2 hops)"  # one hop a line
        hops = [str(n.label) for n in tree.root.children[3].children]
        assert hops == ["—binds→ ACHE", "←associates— Alzheimer's disease"]

        table = app.chat.query_one(EvidenceTable)
        assert table.row_count == 4
        assert "Galantamine —treats→ Alzheimer's disease" in str(table.get_row_at(1)[3])
        assert [str(c) for c in table.get_row_at(3)[:3]] == ["4", "0.41", "text"]

        run = str(app.chat.query_one(RunInfo).render())
        assert "reviewer accepted at depth 1" in run
        assert "“Alzheimer's disease” → Alzheimer's disease (Disease)" in run
        assert harness.engine.calls[-1]["mode"] == "hybrid"


async def test_selecting_evidence_shows_passage_text(app: HelixApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, ALZ_QUESTION)
        app.chat.query_one(Sidebar).show_tab("evidence-tab")
        table = app.chat.query_one(EvidenceTable)
        table.focus()
        table.move_cursor(row=3)
        await pilot.pause()
        detail = app.chat.query_one("#evidence-detail", Markdown)
        assert "Donepezil improved cognition" in detail.source
        table.move_cursor(row=0)
        await pilot.press("enter")
        await settle(pilot)
        assert "—binds→ ACHE" in detail.source  # the node's other edges, read from the engine


async def test_steps_appear_while_the_engine_works(app: HelixApp, harness: Harness) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        prompt = app.chat.query_one(PromptInput)
        prompt.value = SLOW_QUESTION
        await pilot.press("enter")
        assert harness.engine.started.wait(5)
        await pilot.pause(0.1)
        turn = app.chat.query_one(AssistantTurn)
        progress = str(turn.query_one(".progress", Static).render())
        assert "Planning" in progress
        assert "Answering" in status_text(app)
        harness.engine.release.set()
        await settle(pilot)
        assert "Not found" in answer_text(turn)


async def test_clarification_pick_in_dialog(app: HelixApp, harness: Harness) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, AMBIGUOUS_QUESTION)
        assert isinstance(app.screen, ClarifyScreen)
        assert [c.name for c in app.screen.candidates] == ["multiple sclerosis", "mitral stenosis"]
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, ClarifyScreen)
        assert harness.engine.calls[-1]["choice"] == MS
        assert harness.engine.calls[-1]["question"] == AMBIGUOUS_QUESTION
        turns = app.chat.query(AssistantTurn)
        assert "MOG is associated with multiple sclerosis" in answer_text(turns[-1])
        users = [str(u.render()) for u in app.chat.query(UserTurn)]
        assert users[-1] == "→ multiple sclerosis (Disease)"


async def test_clarification_by_typing_the_name(app: HelixApp, harness: Harness) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, AMBIGUOUS_QUESTION)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ClarifyScreen)
        await submit(pilot, "the multiple sclerosis one")
        assert harness.engine.calls[-1]["choice"] == MS
        assert "MOG" in answer_text(app.chat.query(AssistantTurn)[-1])


async def test_escape_cancels_and_the_late_result_is_dropped(
    app: HelixApp, harness: Harness
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        prompt = app.chat.query_one(PromptInput)
        prompt.value = SLOW_QUESTION
        await pilot.press("enter")
        assert harness.engine.started.wait(5)
        await pilot.press("escape")
        await pilot.pause()
        turn = app.chat.query_one(AssistantTurn)
        assert answer_text(turn) == "_Cancelled._"
        assert app.chat.asking is None
        assert "Ready" in status_text(app)
        harness.engine.release.set()
        await settle(pilot)
        assert answer_text(turn) == "_Cancelled._"
        assert app.chat.sessions.turns() == []
        await submit(pilot, ALZ_QUESTION)
        assert "Donepezil" in answer_text(app.chat.query(AssistantTurn)[-1])


async def test_prompt_is_usable_while_the_engine_loads(harness: Harness) -> None:
    gate = threading.Event()
    engine = harness.engine

    def slow_open(_settings: object) -> object:
        gate.wait(5)
        return engine

    services = harness.services.__class__(
        open_engine=slow_open,  # type: ignore[arg-type]
        open_sessions=harness.services.open_sessions,
        open_memory=harness.services.open_memory,
        clock=harness.clock,
    )
    app = make_app(harness.settings, services)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.focused is app.chat.query_one(PromptInput)
        assert "Loading the engine" in status_text(app)
        prompt = app.chat.query_one(PromptInput)
        prompt.value = ALZ_QUESTION
        await pilot.press("enter")
        await pilot.pause()
        turn = app.chat.query_one(AssistantTurn)
        assert "Waiting for the engine" in str(turn.query_one(".progress", Static).render())
        gate.set()
        await settle(pilot)
        assert "Donepezil" in answer_text(turn)


async def test_engine_failure_is_reported(harness: Harness) -> None:
    def broken(_settings: object) -> object:
        raise FileNotFoundError("stores missing under /nowhere")

    services = harness.services.__class__(
        open_engine=broken,  # type: ignore[arg-type]
        open_sessions=harness.services.open_sessions,
        open_memory=harness.services.open_memory,
        clock=harness.clock,
    )
    app = make_app(harness.settings, services)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "Engine failed to load: FileNotFoundError" in status_text(app)
        await submit(pilot, ALZ_QUESTION)
        assert "could not load" in answer_text(app.chat.query_one(AssistantTurn))


async def test_memory_boost_shows_a_banner(app: HelixApp, harness: Harness) -> None:
    harness.engine.answers[ALZ_QUESTION] = alzheimer_result(boosted=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, ALZ_QUESTION)
        banner = app.chat.query_one(AssistantTurn).query_one(".banner", Static)
        assert banner.display
        assert "Boosted by your memory" in str(banner.render())


def footer_keys(app: HelixApp) -> dict[str, bool]:
    """The footer's keys by action, True when enabled."""
    return {
        k.action: not k.has_class("-disabled")
        for k in app.chat.query_one(KeysFooter).query(FooterKey)
    }


async def test_the_footer_is_rebuilt_only_when_its_keys_change(
    app: HelixApp, harness: Harness
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        footer = app.chat.query_one(KeysFooter)
        built = footer.rebuilds
        assert footer_keys(app)["cancel"] is False  # Esc is shown, dimmed, with nothing to cancel
        app.chat.query_one(Sidebar).query_one("#paths").focus()  # focus moves, same keys
        await pilot.pause()
        app.chat.query_one(PromptInput).focus()
        app.chat.refresh_bindings()
        await pilot.pause()
        assert footer.rebuilds == built
        prompt = app.chat.query_one(PromptInput)
        prompt.value = SLOW_QUESTION
        await pilot.press("enter")
        assert harness.engine.started.wait(5)
        await pilot.pause()
        assert footer_keys(app)["cancel"] is True  # a question runs: Esc cancels it
        cancel = next(k for k in footer.query(FooterKey) if k.action == "cancel")
        assert not cancel._disabled  # a click on it cancels, as the key does
        harness.engine.release.set()
        await settle(pilot)
        assert footer_keys(app)["cancel"] is False and cancel._disabled
        assert footer.rebuilds == built  # the same keys, marked in place
        app.set_keymap({"chat.cancel": "f9"})  # another key: rebuilt
        await pilot.pause()
        assert footer.rebuilds == built + 1
        assert [k.key for k in footer.query(FooterKey) if k.action == "cancel"] == ["f9"]
