"""A forgotten patient is gone from every file of the server's data home (issue 37, item 4):
each question is traced in the directory of the user who asked it, not of whoever runs the
server, so ``memory_forget`` finds and drops those traces, over stdio (``python -m helix_mcp
--user``) and on the team server (whose memory is in PostgreSQL, its traces in files). Over
the real engine (it traces every question) on a copy of the ``small_home`` stores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from engine.config import Settings
from helix_mcp import build_server
from helix_mcp.ports import open_helix
from helix_mcp.team import TeamTools

pytestmark = pytest.mark.integration

SAID = "Patient MRN 4471 was started on metformin."
ASKED = ("what is MRN 4471 on?", "Is MRN 4471 on metformin?")


def _holding(home: Path, needle: bytes) -> list[str]:
    """The files under ``home`` (but its stores) whose bytes hold ``needle``."""
    return sorted(
        str(p.relative_to(home))
        for p in home.rglob("*")
        if p.is_file() and "stores" not in p.parts and needle in p.read_bytes()
    )


def test_over_stdio_the_traces_of_a_forgotten_patient_are_dropped(real_home: Path) -> None:
    settings = Settings(home=real_home, user="host", trace_exporter="jsonl")  # runs the server

    async def calls() -> list[Any]:
        async with Client(build_server(settings, "alice", open_helix)) as client:
            out = [await client.call_tool("memory_store", {"statement": SAID})]
            out += [await client.call_tool("ask", {"question": q}) for q in ASKED]
            held = _holding(real_home, b"4471")
            out.append(await client.call_tool("memory_forget", {"subject": "MRN 4471"}))
            return [*out, held]

    *replies, held = anyio.run(calls)
    assert all(not r.is_error for r in replies), [r.content[0].text for r in replies]
    assert any("traces" in p for p in held), held  # the questions were traced
    assert all(Settings(home=real_home).user_dir("alice").name in p for p in held), held
    assert replies[-1].structured_content["removed"] == 1
    assert _holding(real_home, b"4471") == []


def test_on_the_team_server_the_traces_of_a_forgotten_patient_are_dropped(
    real_home: Path, pg_server: Any
) -> None:
    from memory.store.pg import close_backends

    pg_server.reset()
    settings = Settings(
        home=real_home, user="host", trace_exporter="jsonl", database_url=pg_server.app_url
    )
    team = TeamTools(settings, open_helix)
    try:
        alice = team.tools_of("alice")
        assert alice.memory_store(statement=SAID).stored
        for question in ASKED:
            alice.ask(question)
        held = _holding(real_home, b"4471")
        assert held and all(settings.user_dir("alice").name in p for p in held), held
        assert alice.memory_forget(subject="MRN 4471").removed == 1
    finally:
        team.close()
        close_backends()
    assert _holding(real_home, b"4471") == []
