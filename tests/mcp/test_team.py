"""The team server: ``python -m helix_mcp --http`` with ``HELIX_DATABASE_URL``, as a real
process over a real PostgreSQL, each request's user named by its bearer token."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from memory.store.pg import connect
from memory.store.pg_admin import add_user

REPO = Path(__file__).resolve().parents[2]
FAKE_ENGINE = REPO / "tests" / "support" / "fake_engine.py"
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def team(pg_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    pg_server.reset()
    with connect(pg_server.owner_url) as conn:
        tokens = {name: add_user(conn, name) for name in ("alice", "bob")}
    port = _free_port()
    env = {
        "HELIX_HOME": str(tmp_path_factory.mktemp("team")),
        "HELIX_TRACE_EXPORTER": "none",
        "HELIX_DATABASE_URL": pg_server.app_url,
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", "/tmp"),
        "PYTHONPATH": str(REPO),
    }
    args = ["-m", "helix_mcp", "--http", "--port", str(port)]
    args += ["--engine-factory", f"{FAKE_ENGINE}:make_engine"]
    proc = subprocess.Popen(
        [sys.executable, *args],
        env=env,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            time.sleep(0.1)
    try:
        yield {"url": f"http://127.0.0.1:{port}/mcp", "tokens": tokens}
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _call(url: str, token: str | None, tool: str, args: dict[str, Any]) -> httpx.Response:
    headers = dict(HEADERS)
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
    body["params"] = {"name": tool, "arguments": args}  # type: ignore[assignment]
    return httpx.post(url, headers=headers, content=json.dumps(body), timeout=30)


def test_requests_without_a_valid_token_get_401(team: dict[str, Any]) -> None:
    url = team["url"]
    assert _call(url, None, "memory_search", {"query": "x"}).status_code == 401
    assert _call(url, "hx_forged-token", "memory_search", {"query": "x"}).status_code == 401
    alice = team["tokens"]["alice"]
    assert _call(url, alice[:-2] + "zz", "memory_search", {"query": "x"}).status_code == 401
    assert _call(url, alice, "memory_search", {"query": "x"}).status_code == 200


def test_each_token_acts_for_its_own_user_only(team: dict[str, Any]) -> None:
    url, tokens = team["url"], team["tokens"]
    fact = {"subj": "patient:4471", "rel": "allergic_to", "obj": "Compound::DB00945"}
    stored = _call(url, tokens["alice"], "memory_store", fact).json()
    assert stored["result"]["structuredContent"]["stored"] is True
    found = _call(url, tokens["alice"], "memory_search", {"query": "patient:4471"}).json()
    assert [f["obj"] for f in found["result"]["structuredContent"]["facts"]] == [fact["obj"]]
    other = _call(url, tokens["bob"], "memory_search", {"query": "patient:4471"}).json()
    assert other["result"]["structuredContent"]["facts"] == []
    # a client-supplied user is not an argument the tools take
    spoof = _call(url, tokens["bob"], "memory_search", {"query": "4471", "user": "alice"}).json()
    assert spoof["result"]["isError"] is True or spoof["result"]["structuredContent"]["facts"] == []


def test_a_user_argument_is_refused_naming_the_token_not_mcp_user(team: dict[str, Any]) -> None:
    url, tokens = team["url"], team["tokens"]
    spoof = _call(url, tokens["bob"], "memory_search", {"query": "4471", "user": "alice"}).json()
    assert spoof["result"]["isError"] is True
    text = spoof["result"]["content"][0]["text"]
    assert "unknown argument 'user'" in text and "bearer token" in text
    assert "--user" not in text


def test_a_team_server_shares_the_engines_of_other_layers_and_keeps_few_open(
    tmp_path: Path,
) -> None:
    from engine.config import Settings
    from helix_mcp.engines import MAX_LAYERED
    from helix_mcp.team import TeamTools
    from tests.support.fake_engine import make_engine

    opened: list[Any] = []

    def factory(settings: Settings) -> Any:
        engine = make_engine(settings)
        engine.layers = tuple(settings.layer_set or ("hetionet",))  # type: ignore[attr-defined]
        opened.append(engine)
        return engine

    team = TeamTools(Settings(home=tmp_path, trace_exporter="none"), factory)
    users = [f"user{i}" for i in range(5)]
    for user in users:  # as TeamTools.current makes them for each token
        team.tools_of(user).engine_for(["hetionet", "disease-pack"])
    assert len(opened) == 2  # the shared engine and one for the other layers, for everyone
    for i, user in enumerate(users):
        team.tools_of(user).engine_for(["hetionet", f"pack-{i}"])
    layered = opened[1:]
    assert len(layered) == 1 + len(users)
    assert sum(not e.closed for e in layered) == MAX_LAYERED  # the older ones were closed
    team.close()
    assert all(engine.closed for engine in opened)


def test_a_team_server_answers_several_users_at_once(tmp_path: Path) -> None:
    """One user's slow question does not hold up another's (each user's calls are serialised,
    not the engine's), and an engine of other layers dropped while it answers stays open
    until that answer is given."""
    from engine.config import Settings
    from helix_mcp.engines import MAX_LAYERED
    from helix_mcp.team import TeamTools
    from tests.support.fake_engine import make_engine

    slow = "What drugs treat Alzheimer's disease slowly?"
    opened: list[Any] = []

    def factory(settings: Settings) -> Any:
        engine = make_engine(settings)
        engine.slow = slow  # type: ignore[attr-defined]
        engine.layers = tuple(settings.layer_set or ("hetionet",))  # type: ignore[attr-defined]
        opened.append(engine)
        return engine

    team = TeamTools(Settings(home=tmp_path, trace_exporter="none"), factory)
    asked: dict[str, Any] = {}

    def ask_slowly() -> None:
        asked["slow"] = team.tools_of("alice").ask(slow, use_memory=False, layers=["pack-0"])

    waiting = threading.Thread(target=ask_slowly)
    waiting.start()
    try:
        busy = None
        for _ in range(500):
            busy = next((e for e in opened if e.started.is_set()), None)
            if busy is not None:
                break
            time.sleep(0.01)
        assert busy is not None, "the slow question never started"

        def ask_bob() -> None:
            asked["other"] = team.tools_of("bob").ask(
                "What drugs treat diabetes?", use_memory=False
            )
            for i in range(1, MAX_LAYERED + 2):  # bob's layer sets push alice's engine out
                team.tools_of("bob").ask("What treats it?", use_memory=False, layers=[f"p{i}"])

        bob = threading.Thread(target=ask_bob, daemon=True)
        bob.start()
        bob.join(timeout=30)
        assert not bob.is_alive(), "bob's questions waited for alice's"
        assert asked["other"]["status"] == "ANSWERED"
        assert not busy.closed  # still answering alice
    finally:
        busy_engines = [e for e in opened if e.started.is_set()]
        for e in busy_engines:
            e.release.set()
        waiting.join(timeout=30)
    assert asked["slow"]["question"] == slow
    assert busy_engines and all(e.closed for e in busy_engines)  # closed once it answered
    team.close()


def test_a_team_server_runs_at_most_its_workers_calls_at_once(tmp_path: Path) -> None:
    """With one worker, another user's question waits for the one being answered, then runs."""
    from engine.config import Settings
    from helix_mcp.team import TeamTools
    from tests.support.fake_engine import make_engine

    slow = "What drugs treat Alzheimer's disease slowly?"
    engine = make_engine(Settings(home=tmp_path))
    engine.slow = slow  # type: ignore[attr-defined]
    team = TeamTools(
        Settings(home=tmp_path, trace_exporter="none", team_workers=1), lambda _: engine
    )
    alice = threading.Thread(
        target=lambda: team.tools_of("alice").ask(slow, use_memory=False), daemon=True
    )
    alice.start()
    assert engine.started.wait(10)
    asked: dict[str, Any] = {}
    bob = threading.Thread(
        target=lambda: asked.update(
            bob=team.tools_of("bob").ask("What drugs treat diabetes?", use_memory=False)
        ),
        daemon=True,
    )
    bob.start()
    bob.join(timeout=1.0)
    assert bob.is_alive() and "bob" not in asked  # waiting for the one worker
    engine.release.set()
    alice.join(timeout=30)
    bob.join(timeout=30)
    assert asked["bob"]["status"] == "ANSWERED"
    team.close()
