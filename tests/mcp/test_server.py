"""The MCP server in-process, through the SDK's own ``Client``, over the fake engine and the real
per-user memory (``memory.service.UserMemory``) in a temp data home."""

from __future__ import annotations

import json

import pytest
from mcp import Client

from helix_mcp import build_server

TOOLS = {
    "ask",
    "kg_get_triples",
    "kg_walk",
    "dense_search",
    "memory_store",
    "memory_search",
    "memory_forget",
}


@pytest.fixture
def server(settings, fake_engine_module):
    return build_server(settings, "alice", fake_engine_module.make_engine)


async def test_tools_are_listed_with_typed_schemas_and_descriptions(server):
    async with Client(server) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.description and len(tool.description) > 40
        assert tool.input_schema["type"] == "object"
    ask = tools["ask"].input_schema
    assert ask["required"] == ["question"]
    assert ask["properties"]["mode"]["anyOf"][0]["enum"] == ["hybrid", "graph", "dense"]
    walk = tools["kg_walk"].input_schema["properties"]
    assert walk["relations"]["type"] == "array" and walk["relations"]["maxItems"] == 4
    assert tools["kg_get_triples"].annotations.read_only_hint is True
    assert tools["memory_forget"].annotations.destructive_hint is True
    assert tools["kg_get_triples"].output_schema["title"] == "TriplesOut"


async def test_ask_returns_the_result_object(server):
    async with Client(server) as client:
        res = await client.call_tool("ask", {"question": "What treats Alzheimer's disease?"})
    assert not res.is_error
    data = res.structured_content
    assert data["status"] == "ANSWERED"
    assert data["answers"][0] == {
        "id": "Compound::DB00843",
        "name": "Donepezil",
        "score": 0.9,
        "kind": None,
        "source": "kg",
        "why": None,
    }
    assert data["evidence"][0]["triple"] == ["Compound::DB00843", "CtD", "Disease::DOID:10652"]
    assert data["question"] == "What treats Alzheimer's disease?"
    assert "latency_ms" in data and "trace_id" in data


async def test_ask_can_return_the_answers_subgraph_as_cytoscape_json(server):
    import networkx as nx

    question = "What treats Alzheimer's disease?"
    async with Client(server) as client:
        plain = await client.call_tool("ask", {"question": question})
        res = await client.call_tool("ask", {"question": question, "include_graph": True})
        none = await client.call_tool(
            "ask", {"question": "What is aspirin?", "include_graph": True}
        )
    assert "graph" not in plain.structured_content
    data = res.structured_content
    graph = nx.cytoscape_graph(data["graph"])
    assert {(u, k, v) for u, v, k in graph.edges(keys=True)} == {
        tuple(e["triple"]) for e in data["evidence"] if e["kind"] == "triple"
    }
    assert graph.nodes["Disease::DOID:10652"]["role"] == "seed"
    assert graph.nodes["Compound::DB00843"]["name"] == "Donepezil"
    assert none.structured_content["status"] == "NOT_ANSWERED"
    assert none.structured_content["graph"]["elements"] == {"nodes": [], "edges": []}


async def test_kg_tools(server):
    async with Client(server) as client:
        by_name = await client.call_tool("kg_get_triples", {"node": "Aricept", "rel": "CtD"})
        walked = await client.call_tool(
            "kg_walk", {"start": "metformin", "relations": ["CbG", "DaG^-1"]}
        )
        capped = await client.call_tool(
            "kg_get_triples", {"node": "Disease::DOID:9352", "limit": 1}
        )
        passages = await client.call_tool("dense_search", {"text": "metformin glucose", "k": 1})
    got = by_name.structured_content
    assert got["node"] == {"id": "Compound::DB00843", "name": "Donepezil", "kind": "Compound"}
    assert got["triples"] == [
        {
            "subj": "Compound::DB00843",
            "rel": "CtD",
            "obj": "Disease::DOID:10652",
            "subj_name": "Donepezil",
            "obj_name": "Alzheimer's disease",
        }
    ]
    assert capped.structured_content["truncated"] is True
    paths = walked.structured_content["paths"]
    assert [[(t["subj"], t["rel"], t["obj"]) for t in p] for p in paths] == [
        [
            ("Compound::DB00331", "CbG", "Gene::5468"),
            ("Disease::DOID:9352", "DaG", "Gene::5468"),
        ]
    ]
    assert passages.structured_content["passages"][0]["id"] == "pubmedqa:2:0"


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("ask", {}, "question"),
        ("ask", {"question": "x", "mode": "psychic"}, "mode"),
        ("kg_get_triples", {"node": "Aricept", "limit": "lots"}, "limit"),
        ("kg_get_triples", {"node": "Aricept", "rel": "TREATS"}, "unknown relation 'TREATS'"),
        ("kg_get_triples", {"node": "unobtainium"}, "no knowledge-graph node matches"),
        ("kg_walk", {"start": "metformin", "relations": []}, "relations"),
        ("kg_walk", {"start": "metformin", "relations": ["DaG"]}, "goes from Disease to Gene"),
        ("memory_store", {}, "give a statement"),
        ("memory_store", {"subj": "patient:1"}, "together"),
        ("memory_forget", {}, "give a subject"),
        ("nonexistent_tool", {}, "Unknown tool"),
    ],
)
async def test_malformed_calls_are_clear_tool_errors(server, tool, args, message):
    async with Client(server) as client:
        res = await client.call_tool(tool, args)
        assert res.is_error
        assert message in res.content[0].text
        again = await client.call_tool("kg_get_triples", {"node": "Aricept"})
        assert not again.is_error  # the server carries on


async def test_memory_store_search_forget(server):
    async with Client(server) as client:
        stored = await client.call_tool(
            "memory_store",
            {"statement": "Patient Ada Moreno (MRN 4471) was started on metformin today."},
        )
        assert not stored.is_error, stored.content
        assert stored.structured_content["stored"] is True
        fact = stored.structured_content["fact"]
        assert (fact["subj"], fact["rel"], fact["obj"]) == (
            "patient:4471",
            "takes",
            "Compound::DB00331",
        )
        found = await client.call_tool("memory_search", {"query": "MRN 4471"})
        assert [f["obj"] for f in found.structured_content["facts"]] == ["Compound::DB00331"]
        asked = await client.call_tool("ask", {"question": "What is MRN 4471 on at the moment?"})
        assert asked.structured_content["answers"][0]["id"] == "Compound::DB00331"
        gone = await client.call_tool("memory_forget", {"subject": "patient:4471"})
        assert gone.structured_content["removed"] >= 1
        empty = await client.call_tool("memory_search", {"query": "MRN 4471"})
        assert empty.structured_content["facts"] == []


async def test_memory_store_reports_each_fact_and_what_it_could_not_read(server):
    async with Client(server) as client:
        stored = await client.call_tool(
            "memory_store",
            {
                "statement": "Patient MRN 4471 was started on metformin 500 mg twice daily. "
                "Patient MRN 5170 takes sitagliptin. The weather is lovely."
            },
        )
        out = stored.structured_content
        assert [(f["subj"], f["obj"], f["detail"]) for f in out["facts"]] == [
            ("patient:4471", "Compound::DB00331", "500 mg twice daily"),
            ("patient:5170", "Compound::DB01261", None),
        ]
        assert out["unread"] == ["The weather is lovely."]
        assert out["message"].startswith("stored 2 of 3 statements")
        assert out["message"].endswith("could not read: The weather is lovely.")
        unknown = await client.call_tool("memory_search", {"query": "MRN 447"})
        assert unknown.structured_content["facts"] == []


async def test_ask_notes_a_statement_and_answers_the_question_of_the_same_turn(server):
    async with Client(server) as client:
        res = await client.call_tool(
            "ask", {"question": "Mr. Lindqvist (MRN 5521) was started on sitagliptin."}
        )
        assert res.structured_content["intent"] == "statement"
        assert res.structured_content["noted"]["obj"] == "Compound::DB01261"
        both = await client.call_tool(
            "ask",
            {"question": "MRN 5521 started on metformin. What is MRN 5521 taking right now?"},
        )
        assert both.structured_content["noted"]["obj"] == "Compound::DB00331"
        assert both.structured_content["answers"][0]["id"] == "Compound::DB00331"


async def test_structured_store_with_supersession(server):
    async with Client(server) as client:
        first = {"subj": "patient:9", "rel": "takes", "obj": "Compound::DB00331"}
        await client.call_tool("memory_store", first)
        res = await client.call_tool(
            "memory_store",
            {
                "subj": "patient:9",
                "rel": "takes",
                "obj": "Compound::DB01261",
                "supersedes": ["patient:9", "takes", "Compound::DB00331"],
                "statement": "Switched patient 9 from metformin to sitagliptin.",
            },
        )
        assert res.structured_content["stored"] is True
        facts = (await client.call_tool("memory_search", {"query": "patient:9"})).structured_content
    current = {f["obj"]: f["current"] for f in facts["facts"]}
    assert current == {"Compound::DB00331": False, "Compound::DB01261": True}


async def test_one_users_memory_is_invisible_to_another(settings, fake_engine_module):
    alice = build_server(settings, "alice", fake_engine_module.make_engine)
    bob = build_server(settings, "bob", fake_engine_module.make_engine)
    async with Client(alice) as a:
        await a.call_tool("memory_store", {"statement": "MRN 4471 was started on metformin."})
    async with Client(bob) as b:
        found = await b.call_tool("memory_search", {"query": "MRN 4471"})
        asked = await b.call_tool("ask", {"question": "What is MRN 4471 on at the moment?"})
    assert found.structured_content["facts"] == []
    assert asked.structured_content["status"] == "NOT_ANSWERED"
    assert asked.structured_content["answers"] == []


async def test_resources(server):
    async with Client(server) as client:
        listed = [str(r.uri) for r in (await client.list_resources()).resources]
        templates = [
            t.uri_template for t in (await client.list_resource_templates()).resource_templates
        ]
        rels = json.loads((await client.read_resource("helix://relations")).contents[0].text)
        card = json.loads(
            (await client.read_resource("helix://node/Disease::DOID:9352")).contents[0].text
        )
    assert listed == ["helix://relations"] and templates == ["helix://node/{node_id}"]
    assert len(rels["relations"]) == 24
    assert {"code": "CtD^-1", "from": "Disease", "to": "Compound"} in rels["directed_uses"]
    assert card["name"] == "type 2 diabetes mellitus" and card["kind"] == "Disease"
    assert card["relation_counts"] == {"CtD": 2, "DaG": 1, "DrD": 1}


def test_mcp_command_is_registered_with_help():
    from click.testing import CliRunner

    from helix_tui.cli import cli

    out = CliRunner().invoke(cli, ["mcp", "--help"], obj={})
    assert out.exit_code == 0
    assert "--http" in out.output and "--user" in out.output and "MCP server" in out.output


async def test_ask_asks_the_whole_text_when_its_statement_notes_nothing(settings):
    from tests.support.fake_engine import FakeEngine

    engine = FakeEngine(settings)
    server = build_server(settings, "alice", lambda _s: engine)
    busy = "The clinic was busy this morning. What treats Alzheimer's disease?"
    listed = "Medicines that treat Alzheimer's disease."
    async with Client(server) as client:
        for text in (busy, listed):
            res = await client.call_tool("ask", {"question": text})
            assert res.structured_content["answers"][0]["id"] == "Compound::DB00843"
            assert res.structured_content["question"] == text
            assert "noted" not in res.structured_content
        off = await client.call_tool("ask", {"question": busy, "use_memory": False})
        assert off.structured_content["status"] == "ANSWERED"
    assert [c["question"] for c in engine.calls] == [busy, listed, busy]


async def test_ask_with_a_choice_resumes_the_question_and_notes_nothing(settings):
    from tests.support.fake_engine import FakeEngine

    engine = FakeEngine(settings)
    server = build_server(settings, "alice", lambda _s: engine)
    text = "MRN 5521 started on metformin. What treats Alzheimer's disease?"
    async with Client(server) as client:
        res = await client.call_tool("ask", {"question": text, "choice": "Disease::DOID:10652"})
        assert "noted" not in res.structured_content
        found = await client.call_tool("memory_search", {"query": "MRN 5521"})
    assert found.structured_content["facts"] == []
    assert [(c["question"], c["choice"]) for c in engine.calls] == [(text, "Disease::DOID:10652")]
