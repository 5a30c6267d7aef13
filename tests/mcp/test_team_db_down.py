"""A team server whose PostgreSQL stops (issue 37, item 3): every request is answered within
seconds as JSON-RPC, never a plain-text HTTP 500 after the pool's 30 s; graph tools keep
working for a token the server has checked; memory tools are tool errors naming the cause;
a token that cannot be checked gets a JSON-RPC error (HTTP 503); when the database is back,
memory works again with nothing lost. A real server process over a real PostgreSQL that is
stopped and started under it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from memory.store.pg import connect
from memory.store.pg_admin import add_user
from tests.support.postgres import PgServer, find_bindir, free_port, start_server

REPO = Path(__file__).resolve().parents[2]
FAKE_ENGINE = REPO / "tests" / "support" / "fake_engine.py"
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
FACT = {"subj": "patient:4471", "rel": "allergic_to", "obj": "Compound::DB00945"}
PROMPT = 8.0
"""Seconds any request may take with the database down (its timeout is 2 s here)."""


@pytest.fixture(scope="module")
def db() -> Iterator[PgServer]:
    """A PostgreSQL of this module's own: it is stopped and started again."""
    bindir = find_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL not found (no pg_ctl on PATH or in /usr/lib/postgresql/*/bin)")
    server = start_server(bindir)
    yield server
    server.stop()


@contextmanager
def _serving(db: PgServer, home: Path, log: Path) -> Iterator[str]:
    """A team server process (its output in ``log``) on a free port: its URL."""
    port = free_port()
    env = {
        "HELIX_HOME": str(home),
        "HELIX_TRACE_EXPORTER": "none",
        "HELIX_DATABASE_URL": db.app_url,
        "HELIX_DATABASE_TIMEOUT_S": "2",
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", "/tmp"),
        "PYTHONPATH": str(REPO),
    }
    args = ["-m", "helix_mcp", "--http", "--port", str(port)]
    args += ["--engine-factory", f"{FAKE_ENGINE}:make_engine"]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, *args], env=env, cwd=REPO, stdout=out, stderr=subprocess.STDOUT
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            time.sleep(0.1)
    try:
        assert proc.poll() is None, log.read_text(errors="replace")
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def team(db: PgServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with connect(db.owner_url) as conn:
        tokens = {name: add_user(conn, name) for name in ("alice", "bob")}
    log = tmp_path_factory.mktemp("log") / "server.log"
    with _serving(db, tmp_path_factory.mktemp("team"), log) as url:
        yield {"url": url, "tokens": tokens, "log": log}


def _call(team: dict[str, Any], who: str, tool: str, args: dict[str, Any]) -> tuple[Any, float]:
    """(the reply: its JSON-RPC body, or the HTTP response when it is not JSON; seconds)."""
    headers = {**HEADERS, "Authorization": f"Bearer {team['tokens'].get(who, who)}"}
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
    body["params"] = {"name": tool, "arguments": args}  # type: ignore[assignment]
    started = time.monotonic()
    reply = httpx.post(team["url"], headers=headers, content=json.dumps(body), timeout=60)
    took = time.monotonic() - started
    assert reply.headers.get("content-type", "").startswith("application/json"), (
        tool,
        reply.status_code,
        reply.text[:200],
    )
    return (reply.status_code, reply.json()), took


def _result(reply: tuple[int, Any]) -> dict[str, Any]:
    status, body = reply
    assert status == 200 and "result" in body, reply
    return dict(body["result"])


def test_a_database_that_stops_is_said_in_seconds_and_the_graph_goes_on(
    db: PgServer, team: dict[str, Any]
) -> None:
    stored, _ = _call(team, "alice", "memory_store", FACT)
    assert _result(stored)["structuredContent"]["stored"] is True
    db.halt()
    try:
        asked, took = _call(team, "alice", "ask", {"question": "What treats diabetes?"})
        assert took < PROMPT, took
        result = _result(asked)
        assert not result["isError"], result
        data = json.loads(result["content"][0]["text"])
        assert data["status"] == "ANSWERED" and "memory" in data["degraded"]
        assert "cannot be reached" in data["memory_error"], data["memory_error"]

        triples, took = _call(team, "alice", "kg_get_triples", {"node": "metformin"})
        assert took < PROMPT and not _result(triples)["isError"]

        for _ in range(3):  # at once while it stays down, each said in one sentence
            searched, took = _call(team, "alice", "memory_search", {"query": "patient:4471"})
            assert took < PROMPT, took
            result = _result(searched)
            text = result["content"][0]["text"]
            assert result["isError"] and "cannot be reached" in text, text
            assert "start PostgreSQL" in text and "bug" not in text and "PoolTimeout" not in text
            assert len(text.splitlines()) == 1

        refused, _ = _call(team, "alice", "memory_store", {**FACT, "subj": "patient:5000"})
        out = _result(refused)["structuredContent"]
        assert out["stored"] is False and out["message"].startswith("not stored: "), out

        (status, body), took = _call(team, "bob", "memory_search", {"query": "x"})
        assert took < PROMPT and status == 503, (status, body)
        assert body["jsonrpc"] == "2.0" and "could not be checked" in body["error"]["message"]
        assert "cannot be reached" in body["error"]["message"]
    finally:
        db.start()

    deadline = time.monotonic() + 60  # the first try after the pause reopens the pool
    while True:
        searched, _ = _call(team, "alice", "memory_search", {"query": "patient:4471"})
        result = _result(searched)
        if not result["isError"] or time.monotonic() > deadline:
            break
        time.sleep(1)
    facts = result["structuredContent"]["facts"]
    assert [f["obj"] for f in facts] == [FACT["obj"]], result  # nothing was lost
    back, _ = _call(team, "bob", "memory_search", {"query": "x"})
    assert not _result(back)["isError"]
    logged = Path(team["log"]).read_text(errors="replace")
    assert "Traceback" not in logged and "Internal Server Error" not in logged, logged[-2000:]


def test_a_team_server_started_while_the_database_is_down_serves_once_it_is_back(
    db: PgServer, team: dict[str, Any], tmp_path: Path
) -> None:
    log = tmp_path / "server.log"
    db.halt()
    down = True
    try:
        with _serving(db, tmp_path / "home", log) as url:
            late = {**team, "url": url}
            (status, body), took = _call(late, "alice", "ask", {"question": "What treats asthma?"})
            assert took < PROMPT and status == 503 and "cannot" in body["error"]["message"]
            db.start()
            down = False
            asked, _ = _call(late, "alice", "ask", {"question": "What treats diabetes?"})
            assert not _result(asked)["isError"]
    finally:
        if down:
            db.start()
    assert "Traceback" not in log.read_text(errors="replace")
