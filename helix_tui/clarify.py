"""Matching a typed reply against the candidates of a clarification."""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.result import Candidate

_FILLER = re.compile(r"\b(the|a|an|i|mean|meant|one|please|it's|its|is|it)\b")


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
