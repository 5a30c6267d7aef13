"""What a user's memory holds and what forgetting would remove, as readable rows and lines with
the graph's names: the same for the chat's memory pane and ``--inline``'s ``/memory``.
Backend thread (memory and the engine are read)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.ports import EnginePort, UserMemoryPort
from helix_tui.facts import FactView, day
from helix_tui.relations import short_id, verb
from helix_tui.turns import Memories


def memory_facts(
    memory: UserMemoryPort, engine: EnginePort
) -> tuple[list[FactView], dict[str, str]]:
    """Every fact of ``memory`` (superseded ones too) and the graph names of their ends."""
    facts = [FactView.of(row) for row in memory.facts(include_superseded=True)]
    ids = {i for f in facts for i in (f.subj, f.obj) if "::" in i}
    return facts, engine.node_names(ids)


@dataclass(frozen=True)
class FactRow:
    """A fact as the memory table shows it."""

    current: bool
    subject: str
    relation: str
    object: str
    since: str
    until: str
    source: str


@dataclass(frozen=True)
class MemoryTable:
    facts: list[FactView]
    """Current facts first, then superseded ones."""
    rows: list[FactRow]
    """One per fact, in the same order."""
    summary: str
    """``alice: 2 current facts, 1 superseded``."""


def memory_table(facts: list[FactView], names: dict[str, str], user: str) -> MemoryTable:
    """``facts`` as rows named by the graph (``names``) or by the names memory learned."""
    from memory.origin import LOOKED_UP, said_as  # memory loads when a table is shown

    learned = {f.subj: f.subj_name for f in facts if f.subj_name}
    learned |= {f.obj: f.obj_name for f in facts if f.obj_name}
    known = learned | names

    def label(node_id: str) -> str:
        return known.get(node_id) or short_id(node_id)

    said = [f for f in facts if f.source != LOOKED_UP]
    looked = [f for f in facts if f.source == LOOKED_UP]
    # what the user said first (current, then superseded), then what the engine looked up
    ordered = [f for f in said if f.current] + [f for f in said if not f.current]
    ordered += [f for f in looked if f.current] + [f for f in looked if not f.current]
    rows = [
        FactRow(
            f.current,
            label(f.subj),
            verb(f.rel),
            label(f.obj) + (f" {f.detail}" if f.detail else ""),
            day(f.t_start),
            day(f.t_end),
            said_as(f.source),
        )
        for f in ordered
    ]
    current = sum(f.current for f in said)
    summary = f"{user}: {current} current fact{'s' * (current != 1)} you said"
    if len(said) > current:
        summary += f", {len(said) - current} superseded"
    if looked:
        summary += f"; {len(looked)} looked up by Helix (/forget looked-up drops them)"
    if not ordered:
        summary = f"{user}: no facts yet. State one, e.g. “Patient MRN 4471 takes metformin.”"
    return MemoryTable(ordered, rows, summary)


def forget_in(memory: UserMemoryPort, target: str | FactView) -> tuple[bool, str]:
    """Forget ``target`` (a subject, or one fact) in ``memory``: whether anything was forgotten,
    and the sentence that says so (with what the stores' files could not erase)."""
    try:
        outcome = memory.forget(target if isinstance(target, str) else target.raw)
    except KeyError:
        return False, f"Nothing in your memory matches {forget_text(target)}"
    left = f"; {memory.residue}" if memory.residue and outcome else ""
    return True, forgot(target, outcome) + left


def forget_text(target: str | FactView) -> str:
    return target if isinstance(target, str) else f"{target.subj} {target.rel} {target.obj}"


def forgot(target: str | FactView, outcome: object) -> str:
    from memory.origin import kind_named, said_as  # memory loads when something is forgotten

    what = forget_text(target)
    kind = kind_named(target) if isinstance(target, str) else None
    if isinstance(outcome, int) and not isinstance(outcome, bool):
        plural = "s" * (outcome != 1)
        if kind is not None:
            return f"Forgot {outcome} fact{plural} {said_as(kind)}"
        return f"Forgot {outcome} fact{plural} about {what}"
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
