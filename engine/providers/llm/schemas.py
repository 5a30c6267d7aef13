"""Pydantic schemas of the LLM replies; each prompt's front-matter names one (``response:``).

Replies are validated here (shape, ranges, lengths); checks that need the call's context
(is this relation one of those offered? is this id one of the candidates?) live in ``adapters``.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, RootModel, model_validator


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)


class EdgeScore(_Reply):
    rel: str = Field(min_length=1, max_length=16)
    """A relation abbreviation, optionally directed (``CtD``, ``CtD^-1``)."""
    prob: float = Field(ge=0.0, le=1.0)


class EdgeScores(RootModel[list[EdgeScore]]):
    """``[{"rel": "CtD", "prob": 0.9}, ...]``; ``{"edges": [...]}`` is accepted too (JSON mode)."""

    @model_validator(mode="before")
    @classmethod
    def _unwrap(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for key in ("edges", "scores", "relations"):
                if isinstance(data.get(key), list):
                    return data[key]
        return data


class ClarifyDecision(_Reply):
    """The Planner's clarification pass over the candidate readings of a mention."""

    ambiguous: bool
    question: str | None = Field(default=None, max_length=300)
    """The question to ask back when ``ambiguous``."""
    options: list[str] = Field(default_factory=list, max_length=8)
    """Candidate ids to offer, best first."""
    choice: str | None = None
    """The candidate id meant, when the question makes it clear."""

    @model_validator(mode="after")
    def _question_when_ambiguous(self) -> ClarifyDecision:
        if self.ambiguous and not self.question:
            raise ValueError("an ambiguous decision needs a question")
        return self


class ExtractedFact(_Reply):
    """One fact stated in a chat message, or all-null when the message states none."""

    subj: str | None = Field(default=None, max_length=200)
    rel: str | None = Field(default=None, max_length=64)
    obj: str | None = Field(default=None, max_length=200)
    supersedes: tuple[str, str, str] | None = None
    """The older fact this one replaces ("switched from A to B")."""

    @model_validator(mode="after")
    def _all_or_none(self) -> ExtractedFact:
        present = [v is not None and v != "" for v in (self.subj, self.rel, self.obj)]
        if any(present) and not all(present):
            raise ValueError("subj, rel and obj must be given together")
        return self

    @property
    def empty(self) -> bool:
        return self.subj is None or self.subj == ""


class ReviewVerdict(_Reply):
    """The Reviewer's yes/no: does the evidence support the answer to the question?"""

    supported: bool
    confidence: float = Field(ge=0.0, le=1.0)
    reason: str = Field(default="", max_length=400)


class Explanation(_Reply):
    """The Explainer's phrasing; ``cites`` are 1-based numbers of the evidence lines used."""

    text: str = Field(min_length=1, max_length=1500)
    cites: list[int] = Field(default_factory=list)


class SessionSummary(_Reply):
    text: str = Field(min_length=1, max_length=1800)


RESPONSE_SCHEMAS: dict[str, type[BaseModel]] = {
    "edge_scores": EdgeScores,
    "clarify_decision": ClarifyDecision,
    "extracted_fact": ExtractedFact,
    "review_verdict": ReviewVerdict,
    "explanation": Explanation,
    "session_summary": SessionSummary,
}
"""Response names used in prompt front-matter -> schema."""
