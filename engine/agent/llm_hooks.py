"""The model's uses inside one question, under one time budget.

The model is a ``LanguageModel``: an endpoint, or the local pipeline, which enables no feature
and so leaves every decision to the local steps. All calls of a question share
``settings.llm_timeout_s``; after a timeout or connection failure the rest of the question stays
local. Every fallback is recorded in ``Result.degraded``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from engine.agent.llm_adapters import llm_clarify, llm_edge_scores, llm_explain, llm_review
from engine.config import Settings
from engine.graph.edges import Calibration, calibrate
from engine.graph.metapaths import Metapath
from engine.graph.relations import BY_ABBREV, uses_from
from engine.providers.llm.base import LanguageModel
from engine.providers.llm.schemas import ClarifyDecision, ReviewVerdict
from engine.result import Candidate, Result

T = TypeVar("T")
FATAL = ("timeout", "connection")


def offered_relations(kind: str) -> list[tuple[str, str]]:
    """The relation uses leaving a node of ``kind``, as (code, meaning) for an LLM prompt."""
    return [
        (u.key, f"{BY_ABBREV[u.rel].description} ({u.src} -> {u.dst})") for u in uses_from(kind)
    ]


class LLMSession:
    def __init__(
        self,
        llm: LanguageModel,
        settings: Settings,
        result: Result,
        calibration: Calibration | None = None,
    ) -> None:
        self.llm = llm
        self.settings = settings
        self.result = result
        self.calibration = calibration or Calibration()
        self.deadline = time.monotonic() + settings.llm_timeout_s
        self.broken = False

    def enabled(self, feature: str) -> bool:
        return self.llm.enabled(feature)

    def _call(
        self, feature: str, fn: Callable[[LanguageModel, float], tuple[T | None, str | None]]
    ) -> T | None:
        """``fn``'s value, or None (no opinion) when the model does not do ``feature``, the
        question's budget is spent, or the call failed (its reason then in ``degraded``)."""
        if not self.llm.enabled(feature):
            return None
        left = self.deadline - time.monotonic()
        if self.broken or left <= 0.05:
            self.result.degraded.append(f"llm:{feature}:budget")
            return None
        value, why = fn(self.llm, left)
        if why:
            self.result.degraded.append(why)
            if why.rsplit(":", 1)[-1] in FATAL:
                self.broken = True
        return value

    def edge_dist(
        self, question: str, seed_name: str, seed_kind: str, dist: list[tuple[Metapath, float]]
    ) -> list[tuple[Metapath, float]] | None:
        """Blend the LLM's first-hop relation probabilities into the metapath prior."""
        offered = offered_relations(seed_kind)
        scores = self._call(
            "edges",
            lambda llm, t: llm_edge_scores(llm, question, seed_name, seed_kind, offered, timeout=t),
        )
        if not scores:
            return None
        temp = self.calibration.temperature
        cal = {k: calibrate(p, temp) for k, p in scores.items()}
        blended = [(mp, p * (0.5 + 0.5 * cal.get(mp.uses[0].key, 0.0))) for mp, p in dist]
        z = sum(p for _, p in blended) or 1.0
        return [(mp, p / z) for mp, p in blended]

    def clarify(
        self, question: str, mention: str, candidates: list[Candidate]
    ) -> ClarifyDecision | None:
        return self._call(
            "clarify", lambda llm, t: llm_clarify(llm, question, mention, candidates, timeout=t)
        )

    def review(self, question: str, name_of: Callable[[str], str | None]) -> ReviewVerdict | None:
        result = self.result
        return self._call(
            "review",
            lambda llm, t: llm_review(llm, question, result, name_of=name_of, timeout=t),
        )

    def explain(self, question: str, name_of: Callable[[str], str | None]) -> str | None:
        result = self.result
        return self._call(
            "explain",
            lambda llm, t: llm_explain(llm, question, result, name_of=name_of, timeout=t),
        )
