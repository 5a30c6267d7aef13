"""Memory faults said truly over MCP (issue 37, item 3): on a disk that fills up, each write's
reply says what was stored, checked against the vault afterwards; with the user's directory
read-only, graph questions are still answered, the memory's fault said beside the answer. A
server started when nothing can be written (the disk full, or mounted read-only) still reads
the user's memory: a memory question is answered from it, a search finds what is stored, and
a write says "not stored: <why>"; once space is freed the same server stores again."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import anyio
import duckdb
import pytest
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


STATED = (
    "Patient MRN 5170 was started on metformin.",
    "Patient MRN 5171 was started on sitagliptin.",
)


def _replies(home: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    async def run() -> list[Any]:
        async with Client(_server(home)) as client:
            return [await client.call_tool(tool, args) for tool, args in calls]

    return anyio.run(run)


def _data(out: Any) -> dict[str, Any]:
    assert not out.is_error, out.content[0].text
    return dict(out.structured_content or json.loads(out.content[0].text))


def _current(home: Path) -> set[tuple[str, str]]:
    vault = next((home / "users").iterdir()) / "vault.duckdb"
    con = duckdb.connect(str(vault), read_only=True)
    try:
        rows = con.execute("SELECT subj, obj FROM facts WHERE t_end IS NULL").fetchall()
    finally:
        con.close()
    return {(str(s), str(o)) for s, o in rows}


@pytest.mark.parametrize("fault", ["full disk", "read-only"])
def test_a_server_started_when_nothing_can_be_written_still_reads_memory(
    small_disk: Path, fault: str
) -> None:
    home = small_disk / "home"
    said = [("memory_store", {"statement": s}) for s in STATED]
    for out in _replies(home, [*said, ("ask", {"question": "Which drugs treat diabetes?"})]):
        _data(out)  # stored, and a turn logged; the server has closed every file since
    before = _current(home)
    if fault == "full disk":
        _fill(small_disk, 0)
    else:
        subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    try:
        asked, searched, stored, stated, graph = _replies(
            home,
            [
                ("ask", {"question": "what is MRN 5170 on?"}),
                ("memory_search", {"query": "MRN 5171"}),
                ("memory_store", {"statement": "Patient MRN 5172 was started on metformin."}),
                ("ask", {"question": "Patient MRN 5173 was started on metformin."}),
                ("ask", {"question": "Which drugs treat diabetes?"}),
            ],
        )
    finally:
        if fault == "full disk":
            (small_disk / "filler").unlink()
        else:
            subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
    cause = "the disk is full" if fault == "full disk" else "mounted read-only"
    answer = _data(asked)
    assert answer["status"] == "ANSWERED" and "Metformin" in answer["text"], answer
    assert not answer.get("memory_error"), answer
    found = _data(searched)["facts"]
    assert [f["obj_name"] for f in found] == ["Sitagliptin"], found
    refused = _data(stored)
    assert refused["stored"] is False, refused
    assert refused["message"].startswith("not stored: ") and cause in refused["message"], refused
    text = stated.content[0].text
    assert stated.is_error and cause in text and "nothing new was kept" in text, text
    assert "Traceback" not in text and len(text.splitlines()) == 1, text
    assert _data(graph)["status"] == "ANSWERED"
    assert _current(home) == before  # nothing lost, nothing refused kept


def test_a_server_started_on_a_full_disk_stores_again_once_space_is_freed(
    small_disk: Path,
) -> None:
    home = small_disk / "home"
    _data(_replies(home, [("memory_store", {"statement": STATED[0]})])[0])
    filler = _fill(small_disk, 0)

    async def run() -> list[Any]:
        async with Client(_server(home)) as client:
            store = {"statement": STATED[1]}
            refused = await client.call_tool("memory_store", store)
            filler.unlink()
            return [
                refused,
                await client.call_tool("memory_store", store),
                await client.call_tool("ask", {"question": "Which drugs treat diabetes?"}),
            ]

    refused, stored, asked = anyio.run(run)
    assert _data(refused)["stored"] is False
    assert _data(stored)["stored"] is True, stored.content[0].text
    assert not _data(asked).get("memory_error"), asked.content[0].text
    patients = {s for s, _ in _current(home) if s.startswith("patient:")}
    assert patients == {"patient:5170", "patient:5171"}


def test_a_cached_answer_is_served_on_a_full_disk(
    small_disk: Path,
) -> None:
    """A hit's count is bookkeeping: a cache open when the disk fills up, or one opened once
    it is full, still serves its answers."""
    import sqlite3

    from memory.cache import AnswerCache
    from memory.clock import SimulatedClock
    from tests.memory.test_cache import _kg_result

    clock = SimulatedClock()
    path = small_disk / "cache.sqlite"
    open_before = AnswerCache(path, clock)
    try:
        for i in range(20):
            assert open_before.put(f"question {i}", "hybrid", _kg_result())
        with sqlite3.connect(path) as con:  # its WAL empty: a hit's count needs new space
            assert con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0
        filler = _fill(small_disk, 0)
        hit = open_before.get("question 3", "hybrid")
        assert hit is not None and hit.cached
    finally:
        open_before.close()
    opened_after = AnswerCache(path, clock)
    try:
        hit = opened_after.get("question 4", "hybrid")
        assert hit is not None and hit.answers[0].id == "Compound::DB00843"
    finally:
        opened_after.close()
        filler.unlink()


def test_an_immutable_user_directory_is_said_as_read_only_and_memory_is_still_read(
    tmp_path: Path,
) -> None:
    """A directory nothing can be created in (``chattr +i``: root cannot either), its files
    whole: DuckDB cannot make the vault's WAL ("Operation not permitted"). A write says the
    directory is read-only, never a bare driver error, and a memory question is answered."""
    home = tmp_path / "home"
    for out in _replies(home, [("memory_store", {"statement": STATED[0]})]):
        _data(out)
    where = next((home / "users").iterdir())
    if subprocess.run(["chattr", "+i", str(where)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available on this file system")
    try:
        stored, asked = _replies(
            home,
            [
                ("memory_store", {"statement": "Patient MRN 5172 was started on metformin."}),
                ("ask", {"question": "what is MRN 5170 on?"}),
            ],
        )
    finally:
        subprocess.run(["chattr", "-i", str(where)], check=True)
    refused = _data(stored)
    assert refused["stored"] is False, refused
    message = refused["message"]
    assert message.startswith("not stored: your memory store ") and "Exception" not in message
    assert "cannot be written: its directory is read-only" in message, message
    answer = _data(asked)
    assert answer["status"] == "ANSWERED" and "Metformin" in answer["text"], answer
