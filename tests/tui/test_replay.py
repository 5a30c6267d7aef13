"""A replay stream played in the app on a simulated clock."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import pytest
from textual.widgets import Static

from helix_tui.app import make_replay_app
from helix_tui.replay import ReplayPlayer, title
from helix_tui.widgets.assistant_turn import AssistantTurn
from helix_tui.widgets.note import Note
from helix_tui.widgets.user_turn import UserTurn

from .conftest import settle
from .fakes import METFORMIN, SITAGLIPTIN, Harness

EVENTS = [
    {
        "at": "2026-03-02T09:14:00Z",
        "user": "u07",
        "session": "u07-s1",
        "type": "say",
        "text": "Patient Ada Moreno (MRN 4471) was started on metformin today.",
        "fact": ["patient:4471", "takes", METFORMIN],
    },
    {
        "at": "2026-03-05T16:40:00Z",
        "user": "u07",
        "session": "u07-s3",
        "type": "say",
        "text": "Switched MRN 4471 from metformin to sitagliptin.",
        "fact": ["patient:4471", "takes", SITAGLIPTIN],
        "supersedes": ["patient:4471", "takes", METFORMIN],
    },
    {
        "at": "2026-03-09T10:00:00Z",
        "user": "u07",
        "session": "u07-s9",
        "type": "ask",
        "text": "What is MRN 4471 on at the moment?",
        "expect": SITAGLIPTIN,
    },
    {
        "at": "2026-03-09T10:01:00Z",
        "user": "u12",
        "session": "u12-s4",
        "type": "ask",
        "text": "What is MRN 4471 on at the moment?",
        "expect": None,
    },
]


def write_replay(path: Path) -> Path:
    path.write_text("\n".join(json.dumps(e) for e in EVENTS) + "\n", encoding="utf-8")
    return path


def test_the_player_loads_the_stream_on_a_simulated_clock(tmp_path: Path) -> None:
    player = ReplayPlayer.load(write_replay(tmp_path / "r.jsonl"), extract="text", delay=0)
    events = player.events
    assert [e.type for e in events] == ["say", "say", "ask", "ask"]
    assert events[1].supersedes == ("patient:4471", "takes", METFORMIN)
    assert events[3].expect is None
    assert title(events[0]) == "u07 · u07-s1 · 2026-03-02 09:14"
    assert player.clock.now() == events[0].instant
    player.begin(events[2])
    assert player.clock.now() == events[2].instant
    assert player.storer(events[0]) is not None and player.storer(events[2]) is None


@pytest.mark.parametrize("extract", ["fact", "text"])
async def test_replay_plays_visibly_and_scores(
    harness: Harness, tmp_path: Path, extract: Literal["fact", "text"]
) -> None:
    path = write_replay(tmp_path / "r.jsonl")
    app = make_replay_app(harness.settings, path, harness.services, delay=0, extract=extract)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(100):
            await settle(pilot)
            if app.chat.query(Note):
                break
            await pilot.pause(0.05)
        titles = [u.border_title for u in app.chat.query(UserTurn)]
        assert titles[0] == "u07 · u07-s1 · 2026-03-02 09:14"
        notes = [str(t.query_one(".notes", Static).render()) for t in app.chat.query(AssistantTurn)]
        assert notes[2] == f"✓ top answer is {SITAGLIPTIN}"
        assert notes[3] == "✓ expected no answer: none given"
        summary = app.chat.query(Note)[-1].source
        assert summary == "Replay finished: Memory Recall@1 1/1 · leaks 0/1"
        assert not app.chat.query_one("#prompt").disabled
    u07 = harness.memories["u07"].rows
    assert [(f.obj, f.t_start.day, f.t_end.day if f.t_end else None) for f in u07] == [
        (METFORMIN, 2, 5),
        (SITAGLIPTIN, 5, None),
    ]
    assert harness.memories["u12"].rows == []
