"""A real mechanism answer's subgraph, out through NetworkX and back: the engine on real
stores (``small_home``), and ``helix-chat ask --graph``."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

from engine.export.formats import to_cytoscape, to_gexf, to_graphml
from engine.export.hub import find_hubs
from engine.export.subgraph import answer_graph
from engine.result import Status
from helix_tui.cli import cli

pytestmark = pytest.mark.integration

MECHANISM = "How might Donepezil work against Alzheimer's disease?"
DONEPEZIL, ALZHEIMER = "Compound::DB00843", "Disease::DOID:10652"


def edges(graph: nx.MultiDiGraph) -> set[tuple[str, str, str]]:
    return {(u, k, v) for u, v, k in graph.edges(keys=True)}


def relations(graph: nx.DiGraph) -> set[tuple[str, str, str]]:
    """The edges by their ``relation``: GEXF read back is a ``DiGraph`` when no two nodes are
    linked twice, with no keys."""
    return {(u, r, v) for u, v, r in graph.edges(data="relation")}


def test_a_mechanism_answer_reads_back_in_every_format(helix, tmp_path: Path) -> None:
    result = helix.ask(MECHANISM)
    assert result.status is Status.ANSWERED and result.intent == "mechanism"
    graph = answer_graph(result)
    triples = {t for p in result.paths for t in p} | set(result.triples())
    assert edges(graph) == triples and len(triples) > len(result.paths)
    assert graph.nodes[DONEPEZIL]["role"] == "seed"
    assert graph.nodes[ALZHEIMER]["role"] == "seed"
    # the answers are what Donepezil acts through on the way to the disease
    assert graph.nodes[result.answers[0].id]["role"] == "answer"
    assert result.hubs == find_hubs(graph)

    (tmp_path / "m.graphml").write_text(to_graphml(graph), encoding="utf-8")
    back = nx.read_graphml(tmp_path / "m.graphml", force_multigraph=True)
    assert set(back) == set(graph) and edges(back) == edges(graph)
    for node, data in graph.nodes(data=True):
        assert back.nodes[node]["name"] == data["name"] == result.names[node]
        assert back.nodes[node]["kind"] == data["kind"] == node.split("::")[0]
    assert back.graph["question"] == MECHANISM and back.graph["paths"] == len(result.paths)

    cyjs = json.loads(json.dumps(to_cytoscape(graph)))
    loaded = nx.cytoscape_graph(cyjs)
    assert set(loaded) == set(graph) and edges(loaded) == edges(graph)

    (tmp_path / "m.gexf").write_text(to_gexf(graph), encoding="utf-8")
    gexf = nx.read_gexf(tmp_path / "m.gexf")
    assert set(gexf) == set(graph) and relations(gexf) == edges(graph)


def test_ask_graph_writes_the_file_its_suffix_names(small_home: Path, tmp_path: Path) -> None:
    def run(*args: str):  # type: ignore[no-untyped-def]
        env = {"HELIX_TRACE_EXPORTER": "none"}
        return CliRunner().invoke(cli, ["--home", str(small_home), *args], obj={}, env=env)

    refused = run("ask", "--graph", str(tmp_path / "m.png"), MECHANISM)
    assert refused.exit_code == 2 and "name it .graphml, .gexf or .cyjs" in refused.output
    assert not (tmp_path / "m.png").exists()

    out = tmp_path / "out" / "m.graphml"
    res = run("ask", "--json", "--graph", str(out), MECHANISM)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout.strip().splitlines()[-1])
    graph = nx.read_graphml(out, force_multigraph=True)
    triples = {tuple(t) for p in data["paths"] for t in p}
    triples |= {tuple(e["triple"]) for e in data["evidence"] if e["kind"] == "triple"}
    assert edges(graph) == triples
    said = f"({graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges) as GraphML"
    assert said in res.stderr
