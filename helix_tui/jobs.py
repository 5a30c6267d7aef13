"""Backend-thread jobs behind the side panes: a node's edges, the user's memory facts."""

from __future__ import annotations

from engine.ports import EnginePort
from helix_tui.asking import Memories, Post
from helix_tui.facts import FactView
from helix_tui.messages import MemoryFacts, Notice
from helix_tui.relations import Namer, short_id, verb
from helix_tui.widgets.detail_view import description_markdown, node_markdown


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
        target = forget if isinstance(forget, str) else forget.raw
        try:
            outcome = memory.forget(target)
        except KeyError:
            post(Notice(f"Nothing in your memory matches {forget_text(forget)}", "warning"))
        else:
            left = f"; {memory.residue}" if memory.residue and outcome else ""
            post(Notice(forgot(forget, outcome) + left, reload=True))
    facts = [FactView.of(row) for row in memory.facts(include_superseded=True)]
    ids = {i for f in facts for i in (f.subj, f.obj) if "::" in i}
    names = engine.node_names(ids)
    return MemoryFacts(user, facts, names)


def forget_text(target: str | FactView) -> str:
    return target if isinstance(target, str) else f"{target.subj} {target.rel} {target.obj}"


def forgot(target: str | FactView, outcome: object) -> str:
    what = forget_text(target)
    if isinstance(outcome, int) and not isinstance(outcome, bool):
        return f"Forgot {outcome} fact{'s' * (outcome != 1)} about {what}"
    return f"Forgot {what}"


def forget_preview(
    memories: Memories, engine: EnginePort, user: str, target: str, most: int = 8
) -> list[str]:
    """What ``/forget target`` would remove: one readable line per fact (and one saying how
    many more). Raises ``LookupError`` when the memory is unavailable."""
    memory = memories.get(user, engine)
    if memory is None:
        raise LookupError(memories.errors.get(user) or "memory is unavailable")
    facts = [FactView.of(row) for row in memory.search(target)]
    ids = {i for f in facts for i in (f.subj, f.obj) if "::" in i}
    names = engine.node_names(ids)

    def name(node: str, given: str | None) -> str:
        return given or names.get(node) or short_id(node)

    lines = [
        f"{name(f.subj, f.subj_name)} {verb(f.rel)} {name(f.obj, f.obj_name)}"
        + ("" if f.current else " (earlier)")
        for f in facts[:most]
    ]
    if len(facts) > most:
        lines.append(f"…and {len(facts) - most} more")
    return lines
