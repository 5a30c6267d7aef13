"""Broken stores and an unwritable data home: one clear sentence naming the file and the
command that fixes it, never a traceback; an index that cannot be used shows in every answer's
``degraded`` list."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import anyio
import pytest
from click.testing import CliRunner
from mcp import Client

from engine.config import Settings
from engine.index.vectors import IndexMissing, VectorIndex
from helix_mcp import build_server
from helix_tui.cli import cli

FORCE = "helix-chat ingest --force"
QUESTION = "What drugs treat Alzheimer's disease?"


def _run(*args: str):
    return CliRunner().invoke(cli, list(args), obj={})


def _one_sentence(text: str) -> None:
    assert "Traceback" not in text
    assert len([x for x in text.strip().splitlines() if x.strip()]) == 1, text


def _truncate(path: Path, keep: int = 100) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:keep])


@pytest.fixture
def small_index(home_copy: Path) -> Path:
    return home_copy / "stores" / "passages.faiss"


@pytest.mark.parametrize(
    ("breakage", "named"),
    [
        ("truncate", "passages.faiss"),
        ("empty", "passages.faiss"),
        ("garbage", "passages.faiss"),
        ("ids-not-json", "passages.ids.json"),
        ("ids-not-a-list", "passages.ids.json"),
        ("ids-out-of-step", "passages.ids.json"),
        ("ids-missing", "passages.ids.json"),
    ],
)
def test_a_broken_vector_index_is_named_with_the_fix(
    small_index: Path, breakage: str, named: str
) -> None:
    ids = small_index.with_suffix(".ids.json")
    if breakage == "truncate":
        _truncate(small_index)
    elif breakage == "empty":
        small_index.write_bytes(b"")
    elif breakage == "garbage":
        small_index.write_bytes(os.urandom(4096))
    elif breakage == "ids-not-json":
        ids.write_text("[1, 2", encoding="utf-8")
    elif breakage == "ids-not-a-list":
        ids.write_text('{"a": 1}', encoding="utf-8")
    elif breakage == "ids-out-of-step":
        ids.write_text(json.dumps(json.loads(ids.read_text())[:-3]), encoding="utf-8")
    elif breakage == "ids-missing":
        ids.unlink()
    with pytest.raises(IndexMissing) as err:
        VectorIndex.load(small_index)
    text = str(err.value)
    assert named in text and FORCE in text
    _one_sentence(text)


def test_unusable_indexes_show_in_degraded_and_as_warnings(home_copy: Path) -> None:
    stores = home_copy / "stores"
    (stores / "names.faiss").write_bytes(os.urandom(2048))
    ids = stores / "passages.ids.json"
    ids.write_text(json.dumps(json.loads(ids.read_text())[:-1]), encoding="utf-8")
    res = _run("--home", str(home_copy), "--user", "t", "ask", "--json", QUESTION)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert {"index:names", "index:passages"} <= set(data["degraded"])
    warnings = [x for x in res.stderr.splitlines() if x.startswith("warning:")]
    assert any("names.faiss" in w and FORCE in w for w in warnings), res.stderr
    assert any("out of step" in w and FORCE in w for w in warnings), res.stderr
    assert "Traceback" not in res.stderr


def test_a_truncated_graph_store_is_one_sentence_for_ask_and_mcp(home_copy: Path) -> None:
    kg = home_copy / "stores" / "kg.duckdb"
    _truncate(kg, 5000)
    res = _run("--home", str(home_copy), "--user", "t", "ask", QUESTION)
    assert res.exit_code == 1
    assert str(kg) in res.stderr and FORCE in res.stderr
    _one_sentence(res.stderr.replace("Error: ", ""))

    async def call() -> object:
        async with Client(server) as client:
            return await client.call_tool("ask", {"question": QUESTION})

    server = build_server(Settings(home=home_copy, trace_exporter="none"), "alice")
    out = anyio.run(call)
    assert out.is_error and str(kg) in out.content[0].text and FORCE in out.content[0].text
    _one_sentence(out.content[0].text)


def test_ingest_into_an_unwritable_home_fails_at_once(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    res = _run("--home", str(blocker / "home"), "ingest")
    assert res.exit_code == 1
    assert "is not writable" in res.stderr and "HELIX_HOME" in res.stderr
    _one_sentence(res.stderr.replace("Error: ", ""))


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through chmod")
def test_ingest_into_a_read_only_home_fails_at_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    home.chmod(0o500)
    try:
        res = _run("--home", str(home), "ingest")
    finally:
        home.chmod(0o700)
    assert res.exit_code == 1 and "is not writable" in res.stderr


def test_mcp_memory_in_an_unwritable_user_dir_says_why(home_copy: Path) -> None:
    shutil.rmtree(home_copy / "users", ignore_errors=True)
    (home_copy / "users").write_text("in the way")
    from tests.support import fake_engine as module

    async def call() -> object:
        async with Client(server) as client:
            return await client.call_tool("memory_search", {"query": "MRN 4471"})

    server = build_server(
        Settings(home=home_copy, trace_exporter="none"), "alice", module.make_engine
    )
    out = anyio.run(call)
    text = out.content[0].text
    assert out.is_error and "cannot be opened" in text and "users" in text
    assert "make that directory writable" in text
    _one_sentence(text)


def _overwrite_blocks(path: Path, start: int = 3 * 4096) -> None:
    """Overwrite the file from ``start`` on (DuckDB's three header blocks stay whole): every
    data block now fails its checksum, but only when it is read."""
    size = path.stat().st_size
    with path.open("r+b") as fh:
        fh.seek(start)
        fh.write(b"\xab" * (size - start))


def test_a_graph_store_overwritten_inside_is_one_sentence_for_ask_and_mcp(
    home_copy: Path,
) -> None:
    kg = home_copy / "stores" / "kg.duckdb"
    _overwrite_blocks(kg)
    res = _run("--home", str(home_copy), "--user", "t", "ask", QUESTION)
    assert res.exit_code == 1, res.output
    assert str(kg) in res.stderr and FORCE in res.stderr and "Corrupt" in res.stderr
    _one_sentence(res.stderr.replace("Error: ", ""))

    async def calls() -> list[object]:
        async with Client(server) as client:  # the server stays up: the second call answers
            return [await client.call_tool("ask", {"question": QUESTION}) for _ in range(2)]

    server = build_server(Settings(home=home_copy, trace_exporter="none"), "alice")
    for out in anyio.run(calls):
        assert out.is_error  # type: ignore[attr-defined]
        text = out.content[0].text  # type: ignore[attr-defined]
        assert str(kg) in text and FORCE in text and "bug" not in text
        _one_sentence(text)


def test_a_block_that_fails_when_read_after_opening_is_one_sentence(home_copy: Path) -> None:
    from engine.api import Helix
    from engine.graph.store import StoreUnreadable

    kg = home_copy / "stores" / "kg.duckdb"
    helix = Helix.open(Settings(home=home_copy, trace_exporter="none"), auto_ingest=False)
    try:
        _overwrite_blocks(kg)  # the graph is in memory; passages are read on demand
        for call in (lambda: helix.ask("Tell me about asthma"), lambda: helix.dense_search("x")):
            with pytest.raises(StoreUnreadable) as err:
                call()
            assert str(kg) in str(err.value) and FORCE in str(err.value)
            _one_sentence(str(err.value))
    finally:
        helix.close()


async def test_the_chat_says_a_graph_block_gone_bad_and_stays_usable(home_copy: Path) -> None:
    from textual.widgets import Markdown

    from helix_tui.app import make_app
    from helix_tui.widgets.assistant_turn import AssistantTurn
    from tests.tui.conftest import settle, submit

    kg = home_copy / "stores" / "kg.duckdb"
    app = make_app(Settings(home=home_copy, trace_exporter="none", user="t"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        assert app.chat.engine is not None, app.chat.engine_error
        _overwrite_blocks(kg)  # under the running chat
        await submit(pilot, "Tell me about asthma")
        turn = app.chat.query(AssistantTurn)[-1]
        shown = turn.query_one(".answer", Markdown).source
        assert turn.has_class("status-error") and str(kg) in shown and FORCE in shown
        assert "Traceback" not in shown and "StoreUnreadable" not in shown
        _one_sentence(shown)
        await submit(pilot, "Started MRN 4471 on metformin.")  # memory still takes notes
        noted = app.chat.query(AssistantTurn)[-1].query_one(".answer", Markdown).source
        assert noted.startswith("Noted:")
