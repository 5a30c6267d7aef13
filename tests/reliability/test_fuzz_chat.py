"""What users type into the chat, not only the CLI (issue 37, item 7): the real app (Pilot) over
the real engine and memory takes hostile inputs; each ends in a turn that says something, in
one sentence when it is refused, and the app stays responsive (a plain question still
answers). A statement too long for ``ask`` and MCP is refused in the chat too (item 6)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Markdown

from engine.config import Settings
from engine.result import Status
from helix_tui.app import make_app
from helix_tui.widgets.assistant_turn import AssistantTurn
from tests.tui.conftest import settle, submit

pytestmark = pytest.mark.integration

FACTS = " ".join(f"MRN {1000 + i} is allergic to aspirin." for i in range(50))
HOSTILE: list[tuple[str, str, bool]] = [
    # (what, text, refused in one sentence)
    ("lone surrogate", "Which drugs treat asthma\ud800?", True),
    ("100k paste", "asthma " * 14_300, True),
    ("50k statement", "Patient MRN 4471 was started on metformin. " * 1_200, True),
    ("control characters", "Which drugs\x00 treat\x1b[31m asthma\x07?", True),
    ("right-to-left marks", "\u202eWhich drugs treat asthma?\u202c\u200f", False),
    ("only punctuation", "?!.,;:—…", False),
    ("fifty facts", FACTS, False),
]


def _shown(turn: AssistantTurn) -> str:
    return turn.query_one(".answer", Markdown).source


async def test_hostile_chat_inputs_end_in_one_sentence_and_the_app_answers(
    small_settings: Settings, tmp_path: Path
) -> None:
    settings = small_settings.model_copy(update={"user": "fuzz-chat", "home": tmp_path / "home"})
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "stores").symlink_to(small_settings.home / "stores")
    app = make_app(settings)
    tried = 0
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        assert app.chat.engine is not None, app.chat.engine_error
        for what, text, refused in HOSTILE:
            before = len(app.chat.query(AssistantTurn))
            await submit(pilot, text)
            await settle(pilot, rounds=200)
            turns = app.chat.query(AssistantTurn)
            assert len(turns) == before + 1, what
            turn = turns[-1]
            shown = _shown(turn).strip()
            assert shown, f"{what}: the turn says nothing"
            assert "Traceback" not in shown and not turn.has_class("status-error"), (what, shown)
            if refused:
                assert turn.result is not None and turn.result.status is Status.NOT_ANSWERED
                assert len(shown.splitlines()) == 1 and "Noted" not in shown, (what, shown)
            tried += 1
        await submit(pilot, "Which drugs treat asthma?")
        await settle(pilot, rounds=200)
        last = app.chat.query(AssistantTurn)[-1]
        assert last.result is not None and last.result.status is Status.ANSWERED
    assert tried == len(HOSTILE)
    print(f"\nchat inputs tried: {tried} hostile + 1 plain question")
