"""Backend-thread jobs behind the side panes: a node's edges, the user's memory facts."""

from __future__ import annotations

from engine.ports import EnginePort
from helix_tui.asking import Post
from helix_tui.facts import FactView
from helix_tui.memory_view import forget_in, forget_preview, memory_facts
from helix_tui.messages import MemoryFacts, Notice
from helix_tui.relations import Namer
from helix_tui.turns import Memories
from helix_tui.widgets.detail_view import description_markdown, node_markdown

__all__ = ["describe_node", "forget_preview", "read_memory"]


def describe_node(
    engine: EnginePort, node_id: str, name: Namer, limit: int = 12, also: tuple[str, ...] = ()
) -> str:
    """The descriptions of ``node_id`` and ``also`` (the other end of a hop), then the node's
    other edges, with names read from the engine."""
    triples = engine.triples(node_id, limit=limit)
    names = engine.node_names(i for t in triples for i in (t[0], t[2]))

    def named(i: str) -> str:
        return names.get(i) or name(i)

    ends = [node_id, *(i for i in also if i != node_id)]
    about = [description_markdown(i, named, engine.node_description(i)) for i in ends]
    return "\n\n".join([*about, node_markdown(node_id, named, triples)])


def read_memory(
    memories: Memories,
    engine: EnginePort,
    user: str,
    post: Post,
    forget: str | FactView | None = None,
) -> MemoryFacts:
    """The user's facts (after forgetting ``forget`` when given), with KG names."""
    memory = memories.get(user, engine)
    if memory is None:
        return MemoryFacts(user, [], {}, memories.errors.get(user))
    if forget is not None:
        done, said = forget_in(memory, forget)
        post(Notice(said, reload=True) if done else Notice(said, "warning"))
    facts, names = memory_facts(memory, engine)
    return MemoryFacts(user, facts, names)
