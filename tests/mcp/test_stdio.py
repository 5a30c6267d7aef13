"""``python -m helix_mcp`` as a subprocess, driven over stdio by the SDK's own client."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

REPO = Path(__file__).resolve().parents[2]
FAKE_ENGINE = REPO / "tests" / "support" / "fake_engine.py"
TIMEOUT_S = 60


def _params(home, user: str, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "helix_mcp",
            "--user",
            user,
            "--engine-factory",
            f"{FAKE_ENGINE}:make_engine",
            *extra,
        ],
        env={
            "HELIX_HOME": str(home),
            "HELIX_TRACE_EXPORTER": "none",
            "PATH": os.environ.get("PATH", ""),
            "HOME": os.environ.get("HOME", "/tmp"),
        },
        cwd=str(REPO),
    )


async def test_stdio_session_ask_memory_and_errors(tmp_path):
    with anyio.fail_after(TIMEOUT_S):
        async with Client(_params(tmp_path, "alice")) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"ask", "kg_walk", "memory_store", "memory_search"} <= names
            asked = await client.call_tool("ask", {"question": "Which drugs treat diabetes?"})
            assert asked.structured_content["status"] == "ANSWERED"
            assert {a["name"] for a in asked.structured_content["answers"]} == {
                "Metformin",
                "Sitagliptin",
            }
            bad = await client.call_tool("kg_walk", {"start": "metformin", "relations": "CbG"})
            assert bad.is_error and "relations" in bad.content[0].text
            stored = await client.call_tool(
                "memory_store", {"statement": "MRN 4471 was started on metformin today."}
            )
            assert stored.structured_content["stored"] is True
            found = await client.call_tool("memory_search", {"query": "MRN 4471"})
            assert [f["obj"] for f in found.structured_content["facts"]] == ["Compound::DB00331"]

        async with Client(_params(tmp_path, "bob")) as other:
            seen = await other.call_tool("memory_search", {"query": "MRN 4471"})
            assert seen.structured_content["facts"] == []
            asked = await other.call_tool("ask", {"question": "What is MRN 4471 on right now?"})
            assert asked.structured_content["answers"] == []


@pytest.mark.slow
async def test_memory_persists_across_server_processes(tmp_path):
    with anyio.fail_after(TIMEOUT_S):
        async with Client(_params(tmp_path, "alice")) as client:
            await client.call_tool(
                "memory_store", {"statement": "MRN 5120 was started on metformin today."}
            )
        async with Client(_params(tmp_path, "alice")) as again:
            found = await again.call_tool("memory_search", {"query": "MRN 5120"})
    assert [f["obj"] for f in found.structured_content["facts"]] == ["Compound::DB00331"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
async def test_streamable_http_on_loopback(tmp_path):
    port = _free_port()
    params = _params(tmp_path, "alice", "--http", "--port", str(port))
    proc = subprocess.Popen(
        [params.command, *params.args],
        env=params.env,
        cwd=params.cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.1)
        with anyio.fail_after(TIMEOUT_S):
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                res = await client.call_tool("kg_get_triples", {"node": "aricept"})
        assert res.structured_content["node"]["id"] == "Compound::DB00843"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
