"""``ask(layers=[...])``: strictly checked like the other arguments; a layer set other than the
server's is answered by an engine opened for it (kept for the next call); an unbuilt layer is
one sentence naming what is built."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from engine.config import Settings
from helix_mcp import build_server
from tests.support.fake_engine import FakeEngine, make_engine


@pytest.fixture
def opened() -> list[FakeEngine]:
    return []


@pytest.fixture
def server(settings: Settings, opened: list[FakeEngine]) -> Any:
    def factory(s: Settings) -> FakeEngine:
        engine = make_engine(s)
        opened.append(engine)
        return engine

    return build_server(settings, "alice", factory)


async def test_layers_are_in_the_ask_schema(server: Any) -> None:
    async with Client(server) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    layers = tools["ask"].input_schema["properties"]["layers"]["anyOf"][0]
    assert layers["type"] == "array" and layers["minItems"] == 1
    assert layers["items"]["pattern"].startswith("^[a-z0-9]")


async def test_a_layer_set_gets_its_own_engine(server: Any, opened: list[FakeEngine]) -> None:
    question = "What treats Alzheimer's disease?"
    async with Client(server) as client:
        plain = await client.call_tool("ask", {"question": question, "use_memory": False})
        both = {"question": question, "use_memory": False, "layers": ["hetionet", "disease-pack"]}
        first = await client.call_tool("ask", both)
        again = await client.call_tool("ask", {**both, "layers": ["disease-pack", "hetionet"]})
    assert not plain.is_error and not first.is_error and not again.is_error
    assert [e.settings.layers for e in opened if e.settings] == ["", "disease-pack,hetionet"]
    assert [c["question"] for c in opened[1].calls] == [question, question]


@pytest.mark.parametrize(
    ("layers", "message"),
    [
        ("hetionet", "'layers'"),  # a string, not a list
        ([], "'layers'"),
        (["Hetionet Layer!"], "layers.0"),
        ([1], "layers.0"),
        (["x"] * 17, "'layers'"),
    ],
)
async def test_malformed_layers_are_refused(server: Any, layers: Any, message: str) -> None:
    async with Client(server) as client:
        res = await client.call_tool("ask", {"question": "What treats asthma?", "layers": layers})
    assert res.is_error
    text = res.content[0].text
    assert message in text and "\n" not in text.strip()


@pytest.mark.integration
async def test_an_unbuilt_layer_is_named_by_the_real_engine(
    small_settings: Settings, tmp_path: Path
) -> None:
    (tmp_path / "stores").symlink_to(small_settings.home / "stores")
    settings = small_settings.model_copy(update={"home": tmp_path, "trace_exporter": "none"})
    server = build_server(settings, "alice")
    async with Client(server) as client:
        bad = await client.call_tool(
            "ask", {"question": "What treats asthma?", "layers": ["no-such-layer"]}
        )
        good = await client.call_tool(
            "ask",
            {"question": "What drugs treat Alzheimer's disease?", "layers": ["hetionet"]},
        )
    assert bad.is_error
    assert "argument 'layers': layer(s) no-such-layer not built" in bad.content[0].text
    assert "built: hetionet" in bad.content[0].text
    assert not good.is_error and good.structured_content["status"] == "ANSWERED"
