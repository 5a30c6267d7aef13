"""An answer's subgraph as a NetworkX ``MultiDiGraph``: what Cytoscape and Gephi open.

Built from the ``Result`` alone (so a stored answer exports as well as a fresh one):

- edges: every triple of the answer's paths and of its triple evidence, in the direction the
  graph stores it, keyed by relation (two nodes may be linked by several relations), with
  ``relation`` (``CbG``), ``label`` (``binds``), ``sources`` (who states it, from the
  evidence), ``score`` (the evidence score; absent when the triple is on a path only),
  ``evidence`` (whether it is in the evidence) and ``paths`` (ranks of the answer paths it is
  on, 1 = best);
- nodes: ``name``, ``kind``, ``ids`` (the Helix id and the id in its source's namespace,
  ``ncbigene:5743``), ``role`` (``seed`` = named in the question, ``answer``,
  ``seed and answer``, ``path`` = reached on the way), ``sources`` (of its edges here),
  ``paths`` (ranks of the paths through it) and ``hub``;
- the graph: ``format``, ``question``, ``status``, ``intent``, ``paths`` (how many) and
  ``hub`` (the hub line, ``hub.hub_line``).

Memory evidence and any triple with an end that is not a graph node (a patient, a note) are
left out: they are the user's private notes, and a graph file is made to be shared.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from engine.export.hub import MIN_PATHS, find_hubs, hub_line, paths_through, pick_hubs
from engine.graph.relations import verb_phrase
from engine.result import Hub, Result, Triple
from engine.util.ids import kind_of

if TYPE_CHECKING:  # imported when a graph is built: an answer's hubs are counted without it
    import networkx as nx

FORMAT = "helix-subgraph/1"

NAMESPACES = {
    "Compound": "drugbank",
    "Gene": "ncbigene",
    "Symptom": "mesh",
    "Side Effect": "umls",
    "Pharmacologic Class": "ndfrt",
}
"""The namespace of a Hetionet id whose local part is bare (``Gene::5743``); ids such as
``Disease::DOID:10652`` carry theirs."""


def curie(node_id: str) -> str | None:
    """``Gene::5743`` -> ``ncbigene:5743``, ``Disease::DOID:10652`` -> ``DOID:10652``; None
    when the id's namespace is not known (``Pathway::PC7_7459``)."""
    kind, sep, local = node_id.partition("::")
    if not sep or not local:
        return None
    if ":" in local:
        return local
    prefix = NAMESPACES.get(kind)
    return f"{prefix}:{local}" if prefix else None


def _in_graph(triple: Triple) -> bool:
    return kind_of(triple[0]) is not None and kind_of(triple[2]) is not None


def _graph_paths(result: Result) -> Iterator[tuple[int, list[Triple]]]:
    """(rank, graph triples) of each path that has any; the rank is the path's place in the
    answer, as the chat and ``ask`` number them."""
    for rank, path in enumerate(result.paths, start=1):
        kept = [t for t in path if _in_graph(t)]
        if kept:
            yield rank, kept


def _edge(graph: nx.MultiDiGraph, triple: Triple) -> dict[str, Any]:
    subj, rel, obj = triple
    if not graph.has_edge(subj, obj, key=rel):
        graph.add_edge(
            subj,
            obj,
            key=rel,
            relation=rel,
            label=verb_phrase(rel),
            sources=[],
            evidence=False,
            paths=[],
        )
    data: dict[str, Any] = graph.edges[subj, obj, rel]
    return data


def answer_graph(result: Result) -> nx.MultiDiGraph:
    """The subgraph behind ``result`` (see the module's docstring); empty when the answer has
    no graph paths or triple evidence."""
    return _graph_and_hubs(result)[0]


def _graph_and_hubs(result: Result) -> tuple[nx.MultiDiGraph, list[Hub]]:
    import networkx as nx

    paths = list(_graph_paths(result))
    graph = nx.MultiDiGraph(
        format=FORMAT,
        question=result.question,
        status=result.status.value,
        intent=result.intent or "",
        paths=len(paths),
    )
    for rank, path in paths:
        for triple in path:
            on = _edge(graph, triple)["paths"]
            if rank not in on:
                on.append(rank)
    for ev in result.evidence:
        if ev.kind != "triple" or ev.triple is None or not _in_graph(ev.triple):
            continue
        data = _edge(graph, ev.triple)
        data["evidence"] = True
        data["score"] = max(ev.score, data.get("score", ev.score))
        for source in (ev.source or "").split("; "):
            if source and source not in data["sources"]:
                data["sources"].append(source)
    _describe_nodes(graph, result)
    hubs = find_hubs(graph)
    for hub in hubs:
        graph.nodes[hub.id]["hub"] = True
    graph.graph["hub"] = hub_line(hubs)
    return graph, hubs


def _roles(result: Result) -> tuple[dict[str, str], dict[str, str | None], set[str], set[str]]:
    """(names, kinds, seeds, answers) of the nodes ``result`` names."""
    names = result.all_names()
    kinds = {e.id: e.kind for e in result.linked} | {a.id: a.kind for a in result.answers}
    return names, kinds, {e.id for e in result.linked}, {a.id for a in result.answers}


def _describe_nodes(graph: nx.MultiDiGraph, result: Result) -> None:
    names, kinds, seeds, answers = _roles(result)
    for node, data in graph.nodes(data=True):
        roles = [r for r, ids in (("seed", seeds), ("answer", answers)) if node in ids]
        sources: list[str] = []
        for edges in (graph.in_edges(node, data="sources"), graph.out_edges(node, data="sources")):
            for _, _, said in edges:
                sources += [s for s in said if s not in sources]
        data.update(
            name=names.get(node) or node,
            kind=kinds.get(node) or kind_of(node) or "",
            ids=[node, *filter(None, [curie(node)])],
            role=" and ".join(roles) or "path",
            sources=sources,
            paths=sorted(paths_through(graph, node)),
            hub=False,
        )


def path_hubs(result: Result) -> list[Hub]:
    """The hubs of ``result``'s paths: what ``hub.find_hubs`` finds on its subgraph, counted
    on the paths themselves (no graph is built, so answering never imports NetworkX)."""
    paths = list(_graph_paths(result))
    if len(paths) < MIN_PATHS:
        return []
    through: dict[str, set[int]] = {}
    for rank, path in paths:
        for subj, _, obj in path:
            through.setdefault(subj, set()).add(rank)
            through.setdefault(obj, set()).add(rank)
    names, kinds, seeds, answers = _roles(result)
    return pick_hubs(
        len(paths),
        (
            (node, names.get(node) or node, kinds.get(node) or kind_of(node) or "")
            for node in through
            if node not in seeds and node not in answers
        ),
        lambda node: len(through[node]),
    )
