"""``python -m helix_mcp`` over stdio, driven line by line: requests the SDK's client cannot
even send (a lone surrogate, broken JSON) still get a reply, and a first use on an empty data
home answers at once with the command that builds the stores."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

from tests.reliability.conftest import REPO

FAKE_ENGINE = REPO / "tests" / "support" / "fake_engine.py"
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "wire", "version": "1"},
    },
}


def _env(home: Path) -> dict[str, str]:
    return {
        "HELIX_HOME": str(home),
        "HELIX_TRACE_EXPORTER": "none",
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "PYTHONPATH": str(REPO),
    }


class Wire:
    """A server subprocess spoken to in raw JSON-RPC lines."""

    def __init__(self, home: Path, *extra: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "helix_mcp", "--user", "alice", *extra],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=_env(home),
            cwd=str(REPO),
        )

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode("utf-8") + b"\n")
        self.proc.stdin.flush()

    def reply(self, timeout: float = 20.0) -> dict:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        assert ready, "no reply"
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=10)


def test_requests_the_sdk_parser_refuses_still_get_a_reply(tmp_path: Path) -> None:
    wire = Wire(tmp_path, "--engine-factory", f"{FAKE_ENGINE}:make_engine")
    try:
        wire.send(json.dumps(INIT))
        assert wire.reply(60)["id"] == 1
        wire.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        call = (
            '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":%s}}'
        )
        for rid, tool, args in [
            (2, "ask", '{"question":"What treats \\ud800?"}'),
            (3, "memory_search", '{"query":"MRN \\udcff"}'),
            (4, "memory_store", '{"statement":"MRN 1 \\ud800 started metformin"}'),
        ]:
            wire.send(call % (rid, tool, args))
            got = wire.reply()
            assert got["id"] == rid
            assert "not valid Unicode" in got["error"]["message"]
        wire.send('{"jsonrpc":"2.0","id":5,"method":"tools/call",')
        broken = wire.reply()
        assert broken["id"] is None and "not valid JSON" in broken["error"]["message"]
        wire.send(call % (6, "kg_get_triples", '{"node":"aricept"}'))
        assert wire.reply()["result"]["structuredContent"]["node"]["name"] == "Donepezil"
    finally:
        wire.close()


async def test_first_use_on_an_empty_home_names_the_ingest_command(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "helix_mcp", "--user", "alice"],
        env=_env(tmp_path),
        cwd=str(REPO),
    )
    started = time.monotonic()
    with anyio.fail_after(60):
        async with Client(params) as client:
            initialised = time.monotonic() - started
            t = time.monotonic()
            res = await client.call_tool("ask", {"question": "What treats asthma?"})
            call_s = time.monotonic() - t
            search = await client.call_tool("memory_search", {"query": "MRN 1"})
    assert res.is_error and search.is_error
    text = res.content[0].text
    assert "not built yet" in text and "helix-chat ingest" in text and str(tmp_path) in text
    assert call_s < 5, f"the call took {call_s:.1f} s"
    print(f"initialize {initialised:.1f} s, first tool call {call_s:.2f} s")
    assert not (tmp_path / "stores" / "kg.duckdb").exists()
