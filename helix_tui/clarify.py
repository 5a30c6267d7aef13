"""A clarification being answered, and what a line typed into the chat asks for: a slash
command, a pick among the candidates of the clarification, or a question (the same reading
for the Textual chat and ``--inline``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.result import Candidate, Result, Status
from helix_tui import commands

_FILLER = re.compile(r"\b(the|a|an|i|mean|meant|one|please|it's|its|is|it)\b")


@dataclass
class Clarifying:
    """The question the engine asked back about, and the candidates it offered."""

    question: str
    candidates: list[Candidate]

    @classmethod
    def of(cls, typed: str, result: Result) -> Clarifying | None:
        """The clarification ``result`` asks for, if any. Its question is the one the engine
        was asked (a follow-up already read: "which drugs bind MME?", not "… bind it?"),
        which a pick asks again whole."""
        if result.status is not Status.NEEDS_CLARIFICATION or not result.candidates:
            return None
        return cls(result.question or typed, list(result.candidates))


@dataclass(frozen=True)
class Typed:
    """What a typed line asks for: one of ``command``, ``pick`` or ``question``."""

    command: tuple[commands.SlashCommand, str] | None = None
    pick: Candidate | None = None
    question: str | None = None


def read_typed(text: str, clarifying: Clarifying | None) -> Typed:
    """A slash command; else, while ``clarifying``, the candidate the reply picks; else a
    question (which ends the clarification). Raises ``commands.UnknownCommand``."""
    parsed = commands.parse(text)
    if parsed is not None:
        return Typed(command=parsed)
    if clarifying is not None:
        picked = match_candidate(text, clarifying.candidates)
        if picked is not None:
            return Typed(pick=picked)
    return Typed(question=text)


def picked_line(candidate: Candidate | None, node_id: str) -> str:
    """How a pick is shown as the user's turn: ``→ multiple sclerosis (Disease)``."""
    return f"→ {candidate.name} ({candidate.kind})" if candidate else f"→ {node_id}"


def match_candidate(reply: str, candidates: Sequence[Candidate]) -> Candidate | None:
    """The candidate a reply picks: its number, its name, its id, or its kind when unique."""
    text = reply.strip().lower().rstrip(".!?")
    if not text or not candidates:
        return None
    if text.isdigit():
        index = int(text) - 1
        return candidates[index] if 0 <= index < len(candidates) else None
    for cand in candidates:
        if text in (cand.name.lower(), cand.id.lower()):
            return cand
    core = " ".join(_FILLER.sub(" ", text).split())
    if not core:
        return None
    for probe in (core, text):
        by_kind = [c for c in candidates if c.kind.lower() == probe]
        if len(by_kind) == 1:
            return by_kind[0]
        by_name = [c for c in candidates if c.name.lower() == probe]
        if len(by_name) == 1:
            return by_name[0]
    contained = [c for c in candidates if core in c.name.lower() or c.name.lower() in core]
    if len(contained) == 1:
        return contained[0]
    kinds = [c for c in candidates if c.kind.lower() in core.split()]
    return kinds[0] if len(kinds) == 1 else None
