"""A plan: what the planner made of a question, and what the retriever and explainer act on."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.graph.metapaths import Metapath
from engine.graph.walk import Budget
from engine.result import Candidate, LinkedEntity
from engine.understand.mentions import LinkResult
from engine.understand.parse import Features
from engine.understand.reading import Reading


@dataclass
class Plan:
    question: str
    qhash: str
    intent: str
    features: Features
    link: LinkResult
    seeds: list[LinkedEntity] = field(default_factory=list)
    targets: list[LinkedEntity] = field(default_factory=list)
    dist: list[tuple[Metapath, float]] = field(default_factory=list)
    parse_score: float | None = None
    clarification: str | None = None
    candidates: list[Candidate] = field(default_factory=list)
    unlinked: list[str] = field(default_factory=list)
    budget: Budget = field(default_factory=Budget)
    note: str = ""
    uncovered: list[str] = field(default_factory=list)
    reading: Reading | None = None
    """What the question means by the exemplar bank (None without an embedder)."""
    action: str | None = None
    """The drug-target action type asked ('inhibitor'), whose edges the walk keeps when the
    seed has any (``note`` says which)."""
