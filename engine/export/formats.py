"""An answer's subgraph as file text: GraphML (Cytoscape, yEd, Gephi), GEXF (Gephi) and
Cytoscape JSON (``.cyjs``, Cytoscape's own; also what the MCP ``ask`` tool returns).

GraphML and GEXF hold only strings, numbers and booleans: list attributes are joined with
``"; "`` (``paths`` = ``"1; 4"``) and absent values are left out. Cytoscape JSON keeps lists.
"""

from __future__ import annotations

from typing import Any

import networkx as nx

LIST_SEPARATOR = "; "


def _flat(value: Any) -> str | int | float | bool | None:
    if isinstance(value, list | tuple | set):
        return LIST_SEPARATOR.join(str(v) for v in value)
    return value  # type: ignore[no-any-return]


def flattened(graph: nx.MultiDiGraph, *, labels: bool = False) -> nx.MultiDiGraph:
    """A copy whose attribute values are all scalars; ``labels`` also gives each node a
    ``label`` (its name: what Gephi shows)."""
    flat = nx.MultiDiGraph()
    flat.graph.update({k: _flat(v) for k, v in graph.graph.items() if v is not None})
    for node, data in graph.nodes(data=True):
        attrs = {k: _flat(v) for k, v in data.items() if v is not None}
        if labels:
            attrs["label"] = data.get("name") or node
        flat.add_node(node, **attrs)
    for subj, obj, key, data in graph.edges(keys=True, data=True):
        flat.add_edge(subj, obj, key=key, **{k: _flat(v) for k, v in data.items() if v is not None})
    return flat


def to_graphml(graph: nx.MultiDiGraph) -> str:
    return "\n".join(nx.generate_graphml(flattened(graph))) + "\n"


def to_gexf(graph: nx.MultiDiGraph) -> str:
    return "\n".join(nx.generate_gexf(flattened(graph, labels=True))) + "\n"


def to_cytoscape(graph: nx.MultiDiGraph) -> dict[str, Any]:
    """Cytoscape.js JSON (``networkx.cytoscape_data``); it loads back with
    ``networkx.cytoscape_graph``. An edge's endpoints are its ``source`` and ``target``, so
    who states it is ``sources``."""
    data: dict[str, Any] = nx.cytoscape_data(graph)
    return data
