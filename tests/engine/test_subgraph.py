"""The subgraph behind an answer (``engine/export``): built from a hand-made result, written as
GraphML, GEXF and Cytoscape JSON and read back by NetworkX, and the hub of its paths."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest

from engine.export.formats import to_cytoscape, to_gexf, to_graphml
from engine.export.hub import find_hubs, hub_line
from engine.export.subgraph import answer_graph, curie, path_hubs
from engine.result import Answer, Evidence, Hub, LinkedEntity, Result, Status

ASPIRIN, PAIN_DISEASE = "Compound::DB00945", "Disease::DOID:0050"
PTGS1, PTGS2, IBUPROFEN = "Gene::5742", "Gene::5743", "Compound::DB01050"
NAPROXEN = "Compound::DB00788"
NAMES = {
    ASPIRIN: "Acetylsalicylic acid",
    PAIN_DISEASE: "arthritis",
    PTGS1: "PTGS1",
    PTGS2: "PTGS2",
    IBUPROFEN: "Ibuprofen",
    NAPROXEN: "Naproxen",
}


def _seed(node: str, kind: str) -> LinkedEntity:
    return LinkedEntity(
        mention=NAMES[node], id=node, name=NAMES[node], kind=kind, score=1.0, method="exact"
    )


def mechanism_result() -> Result:
    """Aspirin -binds-> gene <-binds- drug -treats-> disease, four ways; PTGS2 on three."""
    paths = [
        [(ASPIRIN, "CbG", PTGS2), (IBUPROFEN, "CbG", PTGS2), (IBUPROFEN, "CtD", PAIN_DISEASE)],
        [(ASPIRIN, "CbG", PTGS2), (NAPROXEN, "CbG", PTGS2), (NAPROXEN, "CtD", PAIN_DISEASE)],
        [(ASPIRIN, "CbG", PTGS1), (IBUPROFEN, "CbG", PTGS1), (IBUPROFEN, "CtD", PAIN_DISEASE)],
        [(ASPIRIN, "CbG", PTGS2), (NAPROXEN, "CbG", PTGS2), (NAPROXEN, "CpD", PAIN_DISEASE)],
    ]
    triples = list(dict.fromkeys(t for p in paths for t in p))
    evidence = [
        Evidence(kind="triple", triple=t, score=0.9 - i / 100, source="hetionet")
        for i, t in enumerate(triples)
        if t[1] != "CpD"  # on a path only
    ]
    evidence[0].source = "hetionet; DrugCentral: inhibitor"
    evidence += [
        Evidence(kind="passage", id="pubmedqa:1:0", score=0.4, text="Aspirin inhibits COX."),
        Evidence(
            kind="memory",
            triple=("patient:4471", "takes", ASPIRIN),
            score=1.0,
            source="vault",
        ),
    ]
    return Result(
        question="How could aspirin act on arthritis?",
        status=Status.ANSWERED,
        answers=[Answer(id=PAIN_DISEASE, name="arthritis", score=0.8, kind="Disease")],
        evidence=evidence,
        paths=paths,
        linked=[_seed(ASPIRIN, "Compound"), _seed(PAIN_DISEASE, "Disease")],
        intent="mechanism",
        names=NAMES,
    )


def edge_set(graph: nx.MultiDiGraph) -> set[tuple[str, str, str]]:
    return {(u, v, k) for u, v, k in graph.edges(keys=True)}


def test_the_graph_holds_the_paths_and_triple_evidence_and_never_the_memory() -> None:
    graph = answer_graph(mechanism_result())
    assert set(graph) == {ASPIRIN, PAIN_DISEASE, PTGS1, PTGS2, IBUPROFEN, NAPROXEN}
    assert "patient:4471" not in graph
    assert len(edge_set(graph)) == 8  # CtD and CpD link Naproxen to arthritis in parallel
    assert graph.graph["paths"] == 4 and graph.graph["status"] == "ANSWERED"
    binds = graph.edges[ASPIRIN, PTGS2, "CbG"]
    assert binds["label"] == "binds" and binds["paths"] == [1, 2, 4]
    assert binds["sources"] == ["hetionet", "DrugCentral: inhibitor"]
    assert binds["evidence"] is True and binds["score"] == pytest.approx(0.9)
    palliates = graph.edges[NAPROXEN, PAIN_DISEASE, "CpD"]
    assert palliates["evidence"] is False and "score" not in palliates
    assert palliates["sources"] == [] and palliates["paths"] == [4]
    gene = graph.nodes[PTGS2]
    assert gene["name"] == "PTGS2" and gene["kind"] == "Gene" and gene["role"] == "path"
    assert gene["ids"] == [PTGS2, "ncbigene:5743"] and gene["paths"] == [1, 2, 4]
    assert gene["sources"] == ["hetionet", "DrugCentral: inhibitor"] and gene["hub"] is True
    assert graph.nodes[ASPIRIN]["role"] == "seed"
    assert graph.nodes[PAIN_DISEASE]["role"] == "seed and answer"
    assert graph.nodes[PAIN_DISEASE]["ids"] == [PAIN_DISEASE, "DOID:0050"]
    assert graph.graph["hub"] == "Most paths pass through PTGS2 (Gene): 3 of 4."


def test_an_answer_without_graph_triples_is_an_empty_graph() -> None:
    result = Result(question="x", status=Status.NOT_ANSWERED, text="Not found.")
    graph = answer_graph(result)
    assert graph.number_of_nodes() == 0 and graph.graph["paths"] == 0
    assert path_hubs(result) == []


def test_curies_name_the_source_namespace() -> None:
    assert curie("Compound::DB00843") == "drugbank:DB00843"
    assert curie("Biological Process::GO:0000002") == "GO:0000002"
    assert curie("Side Effect::C0000727") == "umls:C0000727"
    assert curie("Pathway::PC7_10399") is None
    assert curie("patient:4471") is None


def test_graphml_reads_back_with_the_same_nodes_edges_and_attributes(tmp_path: Path) -> None:
    graph = answer_graph(mechanism_result())
    path = tmp_path / "m.graphml"
    path.write_text(to_graphml(graph), encoding="utf-8")
    back = nx.read_graphml(path, force_multigraph=True)
    assert set(back) == set(graph) and edge_set(back) == edge_set(graph)
    assert back.nodes[PTGS2]["ids"] == "Gene::5743; ncbigene:5743"
    assert back.nodes[PTGS2]["hub"] is True and back.nodes[ASPIRIN]["hub"] is False
    edge = back.edges[ASPIRIN, PTGS2, "CbG"]
    assert edge["paths"] == "1; 2; 4" and edge["score"] == pytest.approx(0.9)
    assert edge["relation"] == "CbG" and edge["sources"] == "hetionet; DrugCentral: inhibitor"
    assert back.graph["hub"] == "Most paths pass through PTGS2 (Gene): 3 of 4."


def test_cytoscape_json_loads_with_networkx() -> None:
    graph = answer_graph(mechanism_result())
    data = json.loads(json.dumps(to_cytoscape(graph)))
    back = nx.cytoscape_graph(data)
    assert set(back) == set(graph) and edge_set(back) == edge_set(graph)
    edge = back.edges[ASPIRIN, PTGS2, "CbG"]
    assert edge["source"] == ASPIRIN and edge["sources"] == ["hetionet", "DrugCentral: inhibitor"]
    assert back.nodes[PTGS2]["name"] == "PTGS2" and back.nodes[PTGS2]["paths"] == [1, 2, 4]


def test_gexf_reads_back_with_names_as_labels(tmp_path: Path) -> None:
    graph = answer_graph(mechanism_result())
    path = tmp_path / "m.gexf"
    path.write_text(to_gexf(graph), encoding="utf-8")
    back = nx.read_gexf(path)
    assert set(back) == set(graph) and edge_set(back) == edge_set(graph)
    assert back.nodes[PTGS2]["label"] == "PTGS2" and back.nodes[PTGS2]["kind"] == "Gene"


def hand_graph(total: int, through: dict[str, list[int]], roles: dict[str, str]) -> nx.MultiDiGraph:
    """Paths as edges from a seed through each node: ``through[node]`` = ranks of its paths."""
    graph = nx.MultiDiGraph(paths=total)
    graph.add_node("seed", role="seed", name="seed")
    for node, ranks in through.items():
        graph.add_node(node, role=roles.get(node, "path"), name=node.upper(), kind="Gene")
        graph.add_edge("seed", node, key="CbG", paths=ranks)
    return graph


def test_the_hub_lies_on_at_least_half_of_three_paths_or_more() -> None:
    hubs = find_hubs(hand_graph(9, {"ptgs2": [1, 2, 3, 4, 5, 6, 7], "ptgs1": [8, 9]}, {}))
    assert hubs == [Hub(id="ptgs2", name="PTGS2", kind="Gene", paths=7, of=9)]
    assert hub_line(hubs) == "Most paths pass through PTGS2 (Gene): 7 of 9."
    assert find_hubs(hand_graph(9, {"a": [1, 2, 3, 4], "b": [5, 6]}, {})) == []
    assert find_hubs(hand_graph(2, {"a": [1, 2]}, {})) == []
    assert find_hubs(hand_graph(4, {"a": [1, 2, 3, 4]}, {"a": "answer"})) == []


def test_tied_hubs_are_all_named() -> None:
    hubs = find_hubs(hand_graph(6, {"b": [1, 2, 3], "a": [4, 5, 6], "c": [1]}, {}))
    assert [h.id for h in hubs] == ["a", "b"]
    assert hub_line(hubs) == "Half the paths pass through A (Gene) and B (Gene): 3 of 6 each."
    every = find_hubs(hand_graph(3, {n: [1, 2, 3] for n in "abcd"}, {}))
    assert hub_line(every) == "All 3 paths pass through A (Gene), B (Gene), C (Gene) and 1 more."
    assert hub_line([]) == ""


def test_the_engine_result_carries_its_hubs() -> None:
    result = mechanism_result()
    assert path_hubs(result) == [Hub(id=PTGS2, name="PTGS2", kind="Gene", paths=3, of=4)]
    result.hubs = path_hubs(result)
    assert Result.model_validate_json(result.model_dump_json()).hubs == result.hubs
    assert result.to_contract()["hubs"][0]["id"] == PTGS2
