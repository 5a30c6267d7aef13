"""The subgraph behind an answer, written as GraphML, Cytoscape JSON or GEXF: of the
session's last answer with graph paths (``/export graphml``), or of one answer
(``helix-chat ask --graph FILE``). The graph itself is ``engine.export``'s."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx

from engine.export.formats import to_cytoscape, to_gexf, to_graphml
from engine.export.subgraph import answer_graph
from engine.result import Result
from helix_tui.export import BY_NAME, ExportError, ExportFormat
from helix_tui.services import SessionStorePort, TurnLike

GRAPH_SUFFIXES: dict[str, ExportFormat] = {f.suffix: f for f in BY_NAME.values() if f.graph} | {
    ".json": BY_NAME["cytoscape"]
}
"""What ``ask --graph FILE`` writes, by the file's suffix (there a ``.json`` file can only
mean Cytoscape JSON)."""
NO_GRAPH = "the answer has no graph paths or evidence triples to export"


def graph_text(result: Result, fmt: ExportFormat) -> str:
    """``result``'s subgraph in ``fmt`` (one of the graph formats)."""
    return render_graph(answer_graph(result), fmt)


def render_graph(graph: nx.MultiDiGraph, fmt: ExportFormat) -> str:
    if graph.number_of_edges() == 0:
        raise ExportError(NO_GRAPH)
    if fmt.name == "graphml":
        return to_graphml(graph)
    if fmt.name == "gexf":
        return to_gexf(graph)
    if fmt.name == "cytoscape":
        return json.dumps(to_cytoscape(graph), ensure_ascii=False, indent=1) + "\n"
    raise ExportError(f"{fmt.label} is not a graph format")


def has_graph(result: Result) -> bool:
    return bool(answer_graph(result).number_of_edges() > 0)


def last_graph_turn(store: SessionStorePort, session_id: str) -> tuple[int, TurnLike]:
    """(number from 1, turn) of the session's last answer with graph paths or triples: what
    ``/export graphml|cytoscape|gexf`` writes."""
    turns = list(store.turns(session_id))
    for n in range(len(turns), 0, -1):
        if has_graph(turns[n - 1].result):
            return n, turns[n - 1]
    raise ExportError("no answer in this session has graph paths or evidence triples to export")


def graph_format(path: Path) -> ExportFormat:
    """The graph format ``path``'s suffix names (``ask --graph``)."""
    found = GRAPH_SUFFIXES.get(path.suffix.lower())
    if found is None:
        raise ExportError(
            f"cannot tell the graph format of {path.name!r}: "
            "name it .graphml, .gexf or .cyjs (Cytoscape JSON)"
        )
    return found


def write_graph(result: Result, path: Path) -> tuple[ExportFormat, nx.MultiDiGraph]:
    """Write ``result``'s subgraph to ``path`` in the format its suffix names; returns the
    format and the graph written."""
    fmt = graph_format(path)
    graph = answer_graph(result)
    text = render_graph(graph, fmt)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return fmt, graph
