"""Entry point used by ``helix-chat``: run the chat app (or play a replay in it)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from engine.config import Settings
from helix_tui.app import make_app, make_replay_app


def launch(
    settings: Settings,
    *,
    session_id: str | None = None,
    resume: bool = False,
    replay: Path | None = None,
    extract: Literal["fact", "text"] = "fact",
    delay: float = 0.8,
) -> None:
    """Run the app for ``settings.user`` until it exits.

    ``session_id`` opens that session, ``resume`` the user's latest one; ``replay`` plays a
    ``*.replay.jsonl`` stream visibly on a simulated clock instead.
    """
    if replay is not None:
        make_replay_app(settings, replay, extract=extract, delay=delay).run()
    else:
        make_app(settings, session_id=session_id, resume=resume).run()
