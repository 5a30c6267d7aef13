"""The hub of an answer: the node(s) most of its paths pass through.

A mechanism answer often runs through one gene or one related drug; saying so in one line
("Most paths pass through PTGS2 (Gene): 7 of 9.") gives the reader the shape of the
mechanism before the list. Counted on the answer's graph (``subgraph.answer_graph``): every
edge knows the ranks of the paths it lies on, so the paths through a node are the union over
its edges, in and out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from engine.result import Hub

if TYPE_CHECKING:  # the chat shows hub lines before it has any graph to build
    import networkx as nx

MIN_PATHS = 3
"""Fewer paths than this have no hub worth a line."""
SHOWN = 3
"""Hub names the line gives before 'and N more'."""


def paths_through(graph: nx.MultiDiGraph, node: str) -> set[int]:
    """Ranks of the answer paths that pass through ``node``."""
    ranks: set[int] = set()
    for edges in (graph.in_edges(node, data="paths"), graph.out_edges(node, data="paths")):
        for _, _, paths in edges:
            ranks.update(paths or ())
    return ranks


def find_hubs(graph: nx.MultiDiGraph) -> list[Hub]:
    """The hubs of an answer's graph (``pick_hubs``): its nodes of ``role`` "path", with the
    answer paths through each."""
    nodes = graph.nodes
    return pick_hubs(
        int(graph.graph.get("paths", 0)),
        (
            (node, nodes[node].get("name") or node, nodes[node].get("kind"))
            for node, role in nodes(data="role")
            if role == "path"
        ),
        lambda node: len(paths_through(graph, node)),
    )


def pick_hubs(
    total: int, candidates: Iterable[tuple[str, str, str | None]], count: Callable[[str], int]
) -> list[Hub]:
    """The ``candidates`` (id, name, kind: the nodes on the way, never the question's own
    entities or the answers) on the most of ``total`` answer paths (``count``) when that is at
    least half of them and the answer has ``MIN_PATHS`` paths or more. Ties are all given, by
    name."""
    if total < MIN_PATHS:
        return []
    counts = {(node, name, kind): count(node) for node, name, kind in candidates}
    best = max(counts.values(), default=0)
    if best < 2 or best * 2 < total:
        return []
    hubs = [
        Hub(id=node, name=name, kind=kind, paths=best, of=total)
        for (node, name, kind), n in counts.items()
        if n == best
    ]
    return sorted(hubs, key=lambda h: (h.name.lower(), h.id))


def hub_line(hubs: Sequence[Hub]) -> str:
    """One sentence naming the hubs, or "" when there are none:
    "Most paths pass through PTGS2 (Gene): 7 of 9.", "All 4 paths pass through ...",
    "Half the paths pass through A (Gene) and B (Compound): 3 of 6 each."."""
    if not hubs:
        return ""
    shown = [f"{h.name} ({h.kind})" if h.kind else h.name for h in hubs[:SHOWN]]
    if len(hubs) > SHOWN:
        shown.append(f"{len(hubs) - SHOWN} more")
    names = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    count, total = hubs[0].paths, hubs[0].of
    each = " each" if len(hubs) > 1 else ""
    if count == total:
        return f"All {total} paths pass through {names}."
    share = "Most paths" if count * 2 > total else "Half the paths"
    return f"{share} pass through {names}: {count} of {total}{each}."
