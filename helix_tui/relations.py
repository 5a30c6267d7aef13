"""Relations and node ids as the chat app shows them: verbs, short ids, triples and paths as
readable chains. The verbs and the triple form are the engine's (``engine.graph.relations``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.graph.relations import backward_hop, forward_hop, triple_text
from engine.graph.relations import verb_phrase as verb
from engine.util.ids import kind_of

__all__ = [
    "Namer",
    "TripleLike",
    "kind_of",
    "path_steps",
    "path_text",
    "short_id",
    "triple_text",
    "verb",
]

Namer = Callable[[str], str]
TripleLike = Sequence[str]


def short_id(node_id: str) -> str:
    """A readable stand-in for a node without a name.

    ``Compound::DB00843`` -> ``DB00843``, ``patient:4471`` -> ``MRN 4471``,
    ``note:crispr-screen`` -> ``note crispr-screen``; other ids unchanged.
    """
    if "::" in node_id:
        return node_id.split("::", 1)[1]
    if node_id.startswith("patient:"):
        return f"MRN {node_id.removeprefix('patient:')}"
    if node_id.startswith("note:"):
        return f"note {node_id.removeprefix('note:')}"
    return node_id


def path_text(path: Sequence[TripleLike], name: Namer) -> str:
    """A path as one chain, each hop oriented the way it is walked.

    ``Donepezil —binds→ ACHE ←associates— Alzheimer's disease``
    """
    return " ".join(path_steps(path, name))


def path_end(path: Sequence[TripleLike]) -> str:
    """The node a path leads to, walked from its start."""
    node = _start(path) if path else ""
    for subj, _, obj in path:
        node = obj if subj == node else subj
    return node


def path_steps(path: Sequence[TripleLike], name: Namer) -> list[str]:
    """The start node, then one step per hop as it is walked: ``["Donepezil", "—binds→ ACHE",
    "←associates— Alzheimer's disease"]`` (short lines, for a path shown one hop a line)."""
    if not path:
        return []
    node = _start(path)
    parts = [name(node)]
    for subj, rel, obj in path:
        if subj == node:
            parts.append(f"{forward_hop(rel)} {name(obj)}")
            node = obj
        else:
            parts.append(f"{backward_hop(rel)} {name(subj)}")
            node = subj
    return parts


def _start(path: Sequence[TripleLike]) -> str:
    subj, _, obj = path[0]
    if len(path) == 1:
        return subj
    nxt = {path[1][0], path[1][2]}
    return obj if subj in nxt and obj not in nxt else subj
