"""The app over the real engine, memory and session store on a data home built from a slice."""

from __future__ import annotations

import pytest
from textual.widgets import Markdown

from engine.config import Settings
from engine.result import Status
from helix_tui.app import make_app
from helix_tui.screens.clarify import ClarifyScreen
from helix_tui.widgets.assistant_turn import AssistantTurn
from helix_tui.widgets.evidence_table import EvidenceTable
from helix_tui.widgets.fact_table import FactTable
from helix_tui.widgets.path_tree import PathTree

from .conftest import settle, submit

pytestmark = pytest.mark.integration

DONEPEZIL = "Compound::DB00843"


async def test_real_engine_answers_clarifies_and_remembers(small_settings: Settings) -> None:
    settings = small_settings.model_copy(update={"user": "tui-integration"})
    app = make_app(settings)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        assert app.chat.engine is not None, app.chat.engine_error

        await submit(pilot, "Which medicines are used to treat Alzheimer's disease?")
        turn = app.chat.query(AssistantTurn)[-1]
        assert turn.result is not None and turn.result.status is Status.ANSWERED
        assert DONEPEZIL in [a.id for a in turn.result.answers]
        assert "Donepezil" in turn.query_one(".answer", Markdown).source
        tree = app.chat.query_one(PathTree)
        assert any("—treats→ Alzheimer's disease" in str(n.label) for n in tree.root.children)
        assert app.chat.query_one(EvidenceTable).row_count > 0

        await submit(pilot, "What is known about SIII?")
        assert isinstance(app.screen, ClarifyScreen)
        first = app.screen.candidates[0]
        await pilot.press("enter")
        await settle(pilot, rounds=200)
        turn = app.chat.query(AssistantTurn)[-1]
        assert turn.result is not None and turn.result.status is Status.ANSWERED
        assert first.id in {i for path in turn.result.paths for t in path for i in (t[0], t[2])}

        await submit(pilot, "Started MRN 4471 on metformin.")
        noted = app.chat.query(AssistantTurn)[-1]
        assert noted.query_one(".answer", Markdown).source.startswith("Noted:")
        await submit(pilot, "/memory")
        await settle(pilot, rounds=200)
        table = app.chat.query_one(FactTable)
        assert "patient:4471" in [f.subj for f in table.facts]
        assert app.chat.sessions.store.turns(app.chat.sessions.session_id or "")
