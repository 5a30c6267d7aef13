"""Hostile MCP tool arguments, in process through the SDK's own client, over the real engine
(the session's small stores) and real per-user memory: every call gets an answer, and every
error is one sentence with no traceback and no bare "Error executing tool"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from engine.config import Settings
from helix_mcp import build_server
from tests.reliability.strategies import json_values, nasty_text

FUZZ = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)
ARGS = {
    "ask": ["question", "mode", "session", "choice", "use_memory", "layers"],
    "kg_get_triples": ["node", "rel", "limit"],
    "kg_walk": ["start", "relations", "max_paths", "fanout"],
    "dense_search": ["text", "k"],
    "memory_store": ["statement", "subj", "rel", "obj", "supersedes", "session"],
    "memory_search": ["query", "limit"],
    "memory_forget": ["subject", "subj", "rel", "obj"],
}


class SharedEngine:
    """The session's engine, not closed when one client's server shuts down."""

    def __init__(self, helix: Any) -> None:
        self._helix = helix

    def __getattr__(self, name: str) -> Any:
        return getattr(self._helix, name)

    def close(self) -> None:
        return None


@pytest.fixture
def mcp_settings(small_settings: Settings, tmp_path: Path) -> Settings:
    """The small stores with per-user memory and traces in a private home."""
    (tmp_path / "stores").symlink_to(small_settings.home / "stores")
    return small_settings.model_copy(update={"home": tmp_path, "trace_exporter": "none"})


def _assert_clear(res: Any, tool: str, args: dict[str, Any]) -> None:
    if not res.is_error:
        assert res.structured_content is not None, (tool, args)
        return
    text = res.content[0].text
    assert text.strip() and "\n" not in text.strip(), (tool, args, text)
    assert "Traceback" not in text, (tool, args, text)
    assert text.strip() != f"Error executing tool {tool}", (tool, args)


async def _call_all(server: Any, calls: list[tuple[str, dict[str, Any]]]) -> None:
    async with Client(server) as client:
        for tool, args in calls:
            with anyio.fail_after(60):
                res = await client.call_tool(tool, args)
            _assert_clear(res, tool, args)
        ok = await client.call_tool("kg_get_triples", {"node": "Alzheimer's disease"})
        assert not ok.is_error, ok.content  # the server carries on


tool_calls = st.sampled_from(sorted(ARGS)).flatmap(
    lambda tool: st.tuples(
        st.just(tool),
        st.dictionaries(
            st.sampled_from([*ARGS[tool], "user", "x"]) | st.text(max_size=6),
            json_values,
            max_size=4,
        ),
    )
)


@FUZZ
@given(calls=st.lists(tool_calls, min_size=1, max_size=4))
def test_fuzzed_arguments_get_clear_answers(helix, mcp_settings, calls) -> None:
    server = build_server(mcp_settings, "fuzz", lambda _s: SharedEngine(helix))
    anyio.run(_call_all, server, calls)


@settings(FUZZ, max_examples=25)
@given(text=nasty_text)
def test_fuzzed_text_in_every_text_argument(helix, mcp_settings, text) -> None:
    calls = [
        ("ask", {"question": text}),
        ("kg_get_triples", {"node": text}),
        ("dense_search", {"text": text}),
        ("memory_store", {"statement": text}),
        ("memory_store", {"subj": text, "rel": "takes", "obj": text}),
        ("memory_search", {"query": text}),
        ("memory_forget", {"subject": text}),
    ]
    server = build_server(mcp_settings, "fuzz", lambda _s: SharedEngine(helix))
    anyio.run(_call_all, server, calls)


def _user_calls(helix: Any, mcp_settings: Settings, user: str) -> None:
    calls = [
        ("memory_store", {"subj": "patient:1", "rel": "takes", "obj": "Compound::DB00331"}),
        ("memory_search", {"query": "patient:1"}),
        ("ask", {"question": "What is patient 1 taking?"}),
    ]
    server = build_server(mcp_settings, user, lambda _s: SharedEngine(helix))
    anyio.run(_call_all, server, calls)


@settings(FUZZ, max_examples=5)
@given(user=nasty_text)
def test_fuzzed_user_ids_never_give_a_bare_error(helix, mcp_settings, user) -> None:
    """Each new user opens its memory (seconds): a few here, more in the slow variant."""
    _user_calls(helix, mcp_settings, user)


@pytest.mark.slow
@settings(FUZZ, max_examples=50)
@given(user=nasty_text)
def test_fuzzed_user_ids_never_give_a_bare_error_many(helix, mcp_settings, user) -> None:
    _user_calls(helix, mcp_settings, user)


@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("ask", {"question": "What treats asthma?", "user": "bob"}, "unknown argument 'user'"),
        ("ask", {"question": "What treats asthma?", "use_memory": "yes"}, "'use_memory'"),
        ("kg_get_triples", {"node": "asthma", "limit": "5"}, "'limit'"),
        ("kg_get_triples", {"node": "asthma", "limit": True}, "'limit'"),
        ("memory_search", {"query": 42}, "'query'"),
        ("ask", {"question": "What treats \ud800?"}, "not valid Unicode"),
        ("ask", {}, "missing argument 'question'"),
    ],
)
def test_wrong_arguments_are_refused_in_one_sentence(
    helix, mcp_settings, tool, args, expected
) -> None:
    async def call() -> Any:
        async with Client(server) as client:
            return await client.call_tool(tool, args)

    server = build_server(mcp_settings, "alice", lambda _s: SharedEngine(helix))
    res = anyio.run(call)
    assert res.is_error
    assert expected in res.content[0].text
    assert "\n" not in res.content[0].text


def test_unknown_arguments_are_closed_in_the_schema(helix, mcp_settings) -> None:
    async def listed() -> Any:
        async with Client(server) as client:
            return (await client.list_tools()).tools

    server = build_server(mcp_settings, "alice", lambda _s: SharedEngine(helix))
    tools = anyio.run(listed)
    assert {t.name for t in tools} == set(ARGS)
    assert all(t.input_schema["additionalProperties"] is False for t in tools)
