"""Memory faults said truly over MCP (issue 37, item 3): on a disk that fills up, each write's
reply says what was stored, checked against the vault afterwards; with the user's directory
read-only, graph questions are still answered, the memory's fault said beside the answer."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import anyio
import duckdb
from mcp import Client

from engine.config import Settings
from helix_mcp import build_server
from tests.support import fake_engine


def _server(home: Path) -> Any:
    return build_server(
        Settings(home=home, trace_exporter="none"), "alice", fake_engine.make_engine
    )


def _fill(disk: Path, leave: int) -> Path:
    """Fill ``disk`` until only ``leave`` bytes are free."""
    filler = disk / "filler"
    free = shutil.disk_usage(disk).free
    with filler.open("wb") as fh:
        fh.write(b"\0" * max(0, free - leave))
    return filler


def test_each_write_on_a_filling_disk_says_truly_whether_it_was_stored(small_disk: Path) -> None:
    home = small_disk / "home"
    replies: list[tuple[str, dict[str, Any]]] = []

    async def writes() -> None:
        async with Client(_server(home)) as client:
            first = {"subj": "patient:1", "rel": "allergic_to", "obj": "Compound::DB00945"}
            assert (await client.call_tool("memory_store", first)).structured_content["stored"]
            _fill(small_disk, 150 * 1024)
            for i in range(2, 300):
                subj = f"patient:{i}"
                out = await client.call_tool(
                    "memory_store",
                    {"subj": subj, "rel": "allergic_to", "obj": "Compound::DB00945"},
                )
                text = out.content[0].text
                assert "bug" not in text and "cannot rollback" not in text, text
                assert not out.is_error, text
                replies.append((subj, out.structured_content))
                if not out.structured_content["stored"]:
                    break

    anyio.run(writes)
    (small_disk / "filler").unlink()
    vault = next((home / "users").iterdir()) / "vault.duckdb"
    con = duckdb.connect(str(vault), read_only=True)
    try:
        rows = con.execute("SELECT subj FROM facts WHERE t_end IS NULL").fetchall()
        kept = {str(r[0]) for r in rows}
    finally:
        con.close()
    assert replies and not replies[-1][1]["stored"], "the disk should have filled up"
    last = replies[-1][1]["message"]
    assert last.startswith("not stored: ") and "the disk is full" in last, last
    for subj, reply in replies:
        assert reply["stored"] == (subj in kept), (subj, reply)


def test_a_read_only_user_directory_leaves_graph_questions_answered(small_disk: Path) -> None:
    home = small_disk / "home"
    home.mkdir()
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)

    async def calls() -> list[Any]:
        async with Client(_server(home)) as client:
            return [
                await client.call_tool("ask", {"question": "Which drugs treat asthma?"}),
                await client.call_tool("memory_search", {"query": "MRN 4471"}),
            ]

    asked, searched = anyio.run(calls)
    assert not asked.is_error, asked.content[0].text
    data = asked.structured_content or json.loads(asked.content[0].text)
    assert data["status"] != "ERROR" and "memory" in data["degraded"]
    assert "cannot be opened" in data["memory_error"] and "graph alone" in data["memory_error"]
    assert searched.is_error and "cannot be opened" in searched.content[0].text
    assert "Traceback" not in searched.content[0].text


def test_a_damaged_vault_is_one_sentence_and_graph_questions_still_answer(tmp_path: Path) -> None:
    home = tmp_path / "home"

    async def store() -> None:
        async with Client(_server(home)) as client:
            fact = {"subj": "patient:1", "rel": "allergic_to", "obj": "Compound::DB00945"}
            assert (await client.call_tool("memory_store", fact)).structured_content["stored"]

    anyio.run(store)
    vault = next((home / "users").iterdir()) / "vault.duckdb"
    size = vault.stat().st_size
    with vault.open("r+b") as fh:  # every block after the three headers fails its checksum
        fh.seek(3 * 4096)
        fh.write(b"\xab" * (size - 3 * 4096))

    async def calls() -> list[Any]:
        async with Client(_server(home)) as client:
            return [
                await client.call_tool("memory_search", {"query": "patient:1"}),
                await client.call_tool("ask", {"question": "Which drugs treat asthma?"}),
            ]

    searched, asked = anyio.run(calls)
    text = searched.content[0].text
    assert searched.is_error and str(vault) in text and "is damaged" in text, text
    assert "doctor --verify" in text and "bug" not in text and len(text.splitlines()) == 1
    assert not asked.is_error, asked.content[0].text
    data = asked.structured_content or json.loads(asked.content[0].text)
    assert "memory" in data["degraded"] and "is damaged" in data["memory_error"]
