"""The stdio server over the real engine and memory, on a copy of the ``small_home`` stores."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def _params(home, user: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "helix_mcp", "--user", user],
        env={
            "HELIX_HOME": str(home),
            "PATH": os.environ.get("PATH", ""),
            "HOME": os.environ.get("HOME", "/tmp"),
        },
        cwd=str(REPO),
    )


async def test_real_engine_over_stdio(real_home):
    with anyio.fail_after(240):
        async with Client(_params(real_home, "alice"), read_timeout_seconds=180) as client:
            asked = await client.call_tool(
                "ask", {"question": "Which medicines are used to treat Alzheimer's disease?"}
            )
            assert not asked.is_error, asked.content
            data = asked.structured_content
            assert data["status"] == "ANSWERED" and data["answers"] and "trace_id" in data
            triples = await client.call_tool("kg_get_triples", {"node": data["answers"][0]["id"]})
            assert not triples.is_error and triples.structured_content["triples"]
            stored = await client.call_tool(
                "memory_store",
                {"subj": "patient:4471", "rel": "takes", "obj": "Compound::DB00331"},
            )
            assert stored.structured_content["stored"] is True, stored.structured_content
            mine = await client.call_tool("memory_search", {"query": "patient:4471"})
            assert [f["obj"] for f in mine.structured_content["facts"]] == ["Compound::DB00331"]
        async with Client(_params(real_home, "bob"), read_timeout_seconds=180) as other:
            found = await other.call_tool("memory_search", {"query": "patient:4471"})
            assert found.structured_content["facts"] == []
