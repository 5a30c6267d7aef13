"""Reviewer: decides whether the retrieved paths answer the question, and how confidently.

Pure functions over walk output. A yes/no claim is accepted only from a path that verifies it;
nothing else counts as support.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.graph.metapaths import Metapath
from engine.graph.walk import WalkPath
from engine.result import Result, Status

UNFLOORED_INTENTS = frozenset({"mechanism", "overview"})
"""Questions answered with whatever paths the walk found: no confidence floor."""

MECHANISM_MIN_PATHS = 5
"""A mechanism question's walk goes on until it has found this many paths (others: one)."""

LLM_VETO_CONFIDENCE = 0.7
"""An LLM reviewer's 'not supported' withdraws the graph answer at this confidence or more."""


def path_floor(intent: str | None, threshold: float) -> float:
    """The confidence a best path needs for ``intent`` (``threshold``: the settings' tau)."""
    return 0.0 if intent in UNFLOORED_INTENTS else threshold


def min_paths(intent: str | None) -> int:
    return MECHANISM_MIN_PATHS if intent == "mechanism" else 1


def llm_vetoes(supported: bool, confidence: float) -> bool:
    return not supported and confidence >= LLM_VETO_CONFIDENCE


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    confidence: float
    reason: str


def walk_acceptor(dist: Sequence[tuple[Metapath, float]], min_paths: int = 1):  # type: ignore[no-untyped-def]
    """Accept at depth d once the most probable reading of length <= d has instances and no
    longer reading is more probable than the best one found."""

    def accept(paths: list[WalkPath], depth: int) -> bool:
        if len(paths) < min_paths:
            return False
        found = {p.uses for p in paths}
        best_found = max((p for mp, p in dist if mp.uses in found), default=0.0)
        pending = max((p for mp, p in dist if len(mp) > depth), default=0.0)
        return best_found >= pending

    return accept


def review_paths(paths: Sequence[WalkPath], threshold: float) -> Verdict:
    if not paths:
        return Verdict(False, 0.0, "no path reaches an answer")
    conf = max(p.conf for p in paths)
    if conf < threshold:
        return Verdict(False, conf, f"best path confidence {conf:.2f} is below {threshold:.2f}")
    return Verdict(True, conf, "answered")


def review_claim(verified: bool) -> Verdict:
    if verified:
        return Verdict(True, 1.0, "claim verified by a KG edge")
    return Verdict(False, 0.0, "no verifying path")


def supported(result: Result) -> bool:
    """The one rule every ANSWERED result obeys: it shows an answer, a path, or a passage that
    passed the relevance floor. Anything else is not an answer."""
    if result.status != Status.ANSWERED:
        return True
    if result.answers or result.paths:
        return True
    return any(e.kind == "passage" and e.relevant for e in result.evidence)
