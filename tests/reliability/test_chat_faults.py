"""The chat with its memory out of reach (issue 37, item 3): a database that does not answer
(``HELIX_DATABASE_URL`` where nothing listens) leaves the app usable (it crashed on the first
question, opening the session store); a statement that cannot be noted says why in one
sentence, a graph question is answered from the graph alone, the reason said first, and that
the conversation is not saved is said once. On a full disk the chat still answers from what
memory holds, and a statement says in one sentence that it was not noted."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.widgets import Markdown

from engine.config import Settings
from engine.result import Status
from helix_tui.app import make_app
from helix_tui.widgets.assistant_turn import AssistantTurn
from tests.support.postgres import free_port
from tests.tui.conftest import settle, submit


def _shown(app: object) -> tuple[AssistantTurn, str]:
    turn = app.chat.query(AssistantTurn)[-1]  # type: ignore[attr-defined]
    return turn, turn.query_one(".answer", Markdown).source


async def test_the_chat_with_a_database_down_says_so_and_answers_from_the_graph(
    home_copy: Path,
) -> None:
    url = f"postgresql://helix_app@127.0.0.1:{free_port()}/helix"  # nothing listens there
    settings = Settings(home=home_copy, trace_exporter="none", user="t", database_url=url)
    app = make_app(settings)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        assert app.chat.engine is not None, app.chat.engine_error
        await submit(pilot, "Patient MRN 4471 is allergic to aspirin.")
        turn, shown = _shown(app)
        assert "HELIX_DATABASE_URL" in shown and "Connection refused" in shown, shown
        assert "Traceback" not in shown and len(shown.strip().splitlines()) == 1, shown
        assert "Noted" not in shown
        await submit(pilot, "Which drugs treat asthma?")
        turn, shown = _shown(app)
        assert turn.result is not None and turn.result.status is Status.ANSWERED
        assert shown.startswith("Answered from the graph alone: ") and "HELIX_DATABASE_URL" in shown
        told = [n.message for n in app._notifications if n.message.startswith("Not saved: ")]
        assert len(told) == 1 and "Connection refused" in told[0], told  # said once


def test_the_inline_chat_with_a_database_down_goes_on_to_the_last_line(home_copy: Path) -> None:
    from click.testing import CliRunner

    from helix_tui.cli import cli

    url = f"postgresql://helix_app@127.0.0.1:{free_port()}/helix"
    lines = [
        "Patient MRN 4471 is allergic to aspirin.",
        "Which drugs treat asthma?",
        "/sessions",
        "/history asthma",
        "What treats gout?",
    ]
    res = CliRunner().invoke(
        cli,
        ["--home", str(home_copy), "--user", "t", "--inline"],
        input="\n".join(lines) + "\n",
        env={"HELIX_DATABASE_URL": url, "HELIX_TRACE_EXPORTER": "none"},
        obj={},
    )
    out = res.output
    assert res.exit_code == 0, out
    assert "Traceback" not in out and "Error: " not in out, out
    assert out.count("Not saved: ") == 1, out
    assert out.count("Answered from the graph alone") == 2, out  # both questions, to the last


async def test_the_chat_on_a_full_disk_answers_from_memory_and_says_what_was_not_noted(
    home_copy: Path, small_disk: Path
) -> None:
    (small_disk / "users").mkdir()
    (home_copy / "users").symlink_to(small_disk / "users")  # the user's files on a small disk
    settings = Settings(home=home_copy, trace_exporter="none", user="t")
    app = make_app(settings)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        assert app.chat.engine is not None, app.chat.engine_error
        await submit(pilot, "Patient MRN 5170 was started on metformin.")
        assert "Noted" in _shown(app)[1]
    filler = small_disk / "filler"
    with filler.open("wb") as fh:
        fh.write(b"\0" * shutil.disk_usage(small_disk).free)
    app = make_app(settings)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, rounds=200)
            await submit(pilot, "what is MRN 5170 on?")
            turn, shown = _shown(app)
            assert turn.result is not None and turn.result.status is Status.ANSWERED, shown
            assert "Metformin" in shown and "graph alone" not in shown, shown
            await submit(pilot, "Patient MRN 5171 is allergic to aspirin.")
            turn, shown = _shown(app)
            assert "the disk is full" in shown and "Noted" not in shown, shown
            assert "Traceback" not in shown and len(shown.strip().splitlines()) == 1, shown
            await submit(pilot, "Which drugs treat asthma?")
            turn, shown = _shown(app)
            assert turn.result is not None and turn.result.status is Status.ANSWERED, shown
            told = [n.message for n in app._notifications if n.message.startswith("Not saved: ")]
            assert len(told) == 1 and "the disk is full" in told[0], told  # said once
    finally:
        filler.unlink()
