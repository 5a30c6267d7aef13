"""A user's SQLite stores damaged inside (issue 37, items 1 and 3): with the pages after the
header of ``episodic.sqlite``, ``cache.sqlite`` or ``sessions.sqlite`` overwritten, every front
end says one sentence naming the file and the fix (``helix-chat doctor --verify``), never the
driver's bare "DatabaseError: database disk image is malformed"; over MCP the server stays up
and graph questions are still answered, the memory's fault said beside the answer; the vault
keeps every fact it held."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import anyio
import duckdb
import pytest
from click.testing import CliRunner
from mcp import Client

from engine.config import Settings
from helix_mcp import build_server
from helix_tui.cli import cli
from tests.support import fake_engine

FIX = "helix-chat doctor --verify"
PAGE = 4096


def damage(path: Path) -> None:
    """Overwrite every page after the first (the header and schema stay whole): the tables'
    pages fail SQLite's checks when they are read."""
    size = path.stat().st_size
    assert size > 2 * PAGE, f"{path} is too small to damage inside ({size} bytes)"
    with path.open("r+b") as fh:
        fh.seek(PAGE)
        fh.write(b"\xab" * (size - PAGE))


def one_sentence(text: str) -> None:
    assert "Traceback" not in text and "bug" not in text, text
    assert len([x for x in text.strip().splitlines() if x.strip()]) == 1, text


def _server(home: Path) -> Any:
    return build_server(
        Settings(home=home, trace_exporter="none"), "alice", fake_engine.make_engine
    )


def _fill(home: Path) -> None:
    """Facts in the vault, turns in the episodic log, entries in the answer cache."""

    async def calls() -> None:
        async with Client(_server(home)) as client:
            for i in range(40):
                said = f"Patient MRN {4400 + i} was started on metformin today."
                out = await client.call_tool("memory_store", {"statement": said})
                assert out.structured_content["stored"], out.content[0].text
            for _ in range(3):
                await client.call_tool("ask", {"question": "What treats diabetes?"})

    anyio.run(calls)


def _facts(home: Path) -> int:
    vault = next((home / "users").iterdir()) / "vault.duckdb"
    con = duckdb.connect(str(vault), read_only=True)
    try:
        return int(con.execute("SELECT count(*) FROM facts").fetchone()[0])  # type: ignore[index]
    finally:
        con.close()


@pytest.mark.parametrize("name", ["episodic.sqlite", "cache.sqlite"])
def test_a_damaged_sqlite_store_is_one_sentence_over_mcp_and_the_graph_answers(
    tmp_path: Path, name: str
) -> None:
    home = tmp_path / "home"
    _fill(home)
    held = _facts(home)
    path = next((home / "users").iterdir()) / name
    damage(path)

    async def calls() -> list[Any]:
        async with Client(_server(home)) as client:  # the server stays up through each
            return [
                await client.call_tool(
                    "memory_store", {"statement": "Patient MRN 5000 is allergic to aspirin."}
                ),
                await client.call_tool("memory_search", {"query": "MRN 4401"}),
                await client.call_tool("ask", {"question": "What treats diabetes?"}),
            ]

    stored, searched, asked = anyio.run(calls)
    for out in (stored, searched):
        text = out.content[0].text
        if not out.is_error:
            text = out.structured_content.get("message") or text
        if out is searched and not out.is_error:
            continue  # a search the vault answers alone need not touch the damaged file
        assert str(path) in text and "is damaged" in text and FIX in text, text
        assert "DatabaseError" not in text
        one_sentence(text)
    if not stored.is_error:
        assert stored.structured_content["stored"] is False, stored.structured_content
    assert not asked.is_error, asked.content[0].text
    data = asked.structured_content or json.loads(asked.content[0].text)
    assert data["status"] == "ANSWERED" and "memory" in data["degraded"]
    assert str(path) in data["memory_error"] and "is damaged" in data["memory_error"]
    assert _facts(home) == held  # nothing the vault held is lost


def _session_home(home_copy: Path) -> Path:
    """A real data home whose user ``t`` has a session of a few turns, then damaged."""
    runner = CliRunner()
    for q in ("Which drugs treat asthma?", "What genes does metformin bind?"):
        res = runner.invoke(
            cli, ["--home", str(home_copy), "--user", "t", "ask", "--session", "s1", q], obj={}
        )
        assert res.exit_code == 0, res.output
    user_dir = Settings(home=home_copy).user_dir("t")
    return user_dir / "sessions.sqlite"


def test_a_damaged_sessions_store_is_one_sentence_in_the_cli_and_doctor_finds_it(
    home_copy: Path,
) -> None:
    path = _session_home(home_copy)
    damage(path)
    res = CliRunner().invoke(
        cli,
        ["--home", str(home_copy), "--user", "t", "ask", "--session", "s1", "and asthma?"],
        obj={},
    )
    assert res.exit_code == 1, res.output
    text = res.stderr.replace("Error: ", "")
    assert str(path) in text and "is damaged" in text and FIX in text, text
    one_sentence(text)
    res = CliRunner().invoke(cli, ["--home", str(home_copy), "doctor", "--verify"], obj={})
    flat = " ".join(res.output.split())
    assert res.exit_code == 1 and "sessions.sqlite" in flat and "damaged" in flat, res.output


async def test_the_chat_says_a_damaged_turn_log_and_still_answers_from_the_graph(
    home_copy: Path,
) -> None:
    from textual.widgets import Markdown

    from engine.result import Status
    from helix_tui.app import make_app
    from helix_tui.widgets.assistant_turn import AssistantTurn
    from tests.tui.conftest import settle, submit

    settings = Settings(home=home_copy, trace_exporter="none", user="t")
    app = make_app(settings)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        assert app.chat.engine is not None, app.chat.engine_error
        for i in range(4):  # the log and its indexes span pages from the first turns
            await submit(pilot, f"Patient MRN {4400 + i} was started on metformin today.")
    path = settings.user_dir("t") / "episodic.sqlite"
    with sqlite3.connect(path) as con:  # the log is whole in its file, none in its WAL
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    damage(path)
    app = make_app(settings)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        await submit(pilot, "Patient MRN 5000 is allergic to aspirin.")
        turn = app.chat.query(AssistantTurn)[-1]
        shown = turn.query_one(".answer", Markdown).source
        assert str(path) in shown and "is damaged" in shown and FIX in shown, shown
        assert "DatabaseError" not in shown
        one_sentence(shown)
        await submit(pilot, "Which drugs treat asthma?")  # the graph is still there
        turn = app.chat.query(AssistantTurn)[-1]
        assert turn.result is not None and turn.result.status is Status.ANSWERED
        shown = turn.query_one(".answer", Markdown).source
        assert "Answered from the graph alone" in shown and str(path) in shown, shown
