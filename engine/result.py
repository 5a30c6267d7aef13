"""The result object every answer produces (the contract of ``../shared/bench/README.md``).

``Result.to_contract()`` gives exactly the benchmark's JSON shape plus Helix's extra fields
(explanation text, linked entities, stop reason, timings, trace id, degradations).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field

Triple = tuple[str, str, str]
Path = list[Triple]


class Status(StrEnum):
    ANSWERED = "ANSWERED"
    NEEDS_CLARIFICATION = "NEEDS_CLARIFICATION"
    NOT_ANSWERED = "NOT_ANSWERED"


class Answer(BaseModel):
    id: str
    name: str
    score: float
    kind: str | None = None
    source: Literal["kg", "memory", "dense"] = "kg"
    why: str | None = None
    """Where the evidence puts a graph answer among equally scored ones: its sources, score,
    action type, structural links and specificity (``engine/ranking/evidence.py``)."""


class Evidence(BaseModel):
    kind: Literal["triple", "passage", "memory"]
    score: float
    triple: Triple | None = None
    id: str | None = None
    text: str | None = None
    source: str | None = None
    """Where it came from: 'hetionet', a passage corpus name, 'vault', ..."""
    relevant: bool | None = None
    """For a passage: whether it passed the relevance floor (only those may support an answer)."""


class Candidate(BaseModel):
    """One entity the user may have meant, offered in a clarification."""

    id: str
    name: str
    kind: str
    detail: str | None = None


class LinkedEntity(BaseModel):
    mention: str
    id: str
    name: str
    kind: str
    score: float
    method: Literal["exact", "fuzzy", "embedding", "dense-seed", "user"]
    start: int = -1
    end: int = -1


class Hub(BaseModel):
    """A node many of an answer's paths pass through (``engine/export/hub.py``)."""

    id: str
    name: str
    kind: str | None = None
    paths: int
    """How many of the answer's paths pass through it."""
    of: int
    """How many paths the answer has."""


class Result(BaseModel):
    id: str | None = None
    question: str = ""
    status: Status
    answers: list[Answer] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    paths: list[Path] = Field(default_factory=list)
    clarification: str | None = None
    latency_ms: float = 0.0
    # --- Helix extras (ignored by the benchmark scorer) ----------------------------------
    text: str = ""
    """Plain-language answer produced by the Explainer."""
    candidates: list[Candidate] = Field(default_factory=list)
    """Choices offered with a clarification."""
    linked: list[LinkedEntity] = Field(default_factory=list)
    intent: str | None = None
    mode: str | None = None
    stop_reason: str | None = None
    timings: dict[str, float] = Field(default_factory=dict)
    trace_id: str | None = None
    degraded: list[str] = Field(default_factory=list)
    understood: list[str] = Field(default_factory=list)
    """How the question was read where it was not taken word for word ("Reading 'its' as
    Metformin.")."""
    memory_boosted: bool = False
    cached: bool = False
    hubs: list[Hub] = Field(default_factory=list)
    """The node(s) that most of the answer's paths pass through, other than the question's
    own entities and the answers: at least half of three paths or more (ties all listed)."""
    names: dict[str, str] = Field(default_factory=dict)
    """Node id -> name for every node the result mentions (answers, linked entities,
    candidates, path and evidence triples), filled by the engine so that front ends never
    look names up one by one."""

    def triples(self) -> list[Triple]:
        return [e.triple for e in self.evidence if e.kind == "triple" and e.triple]

    def known_names(self) -> dict[str, str]:
        """Names the result carries on its own: answers, then linked entities, candidates."""
        pairs = [(a.id, a.name) for a in self.answers]
        pairs += [(e.id, e.name) for e in self.linked]
        pairs += [(c.id, c.name) for c in self.candidates]
        names: dict[str, str] = {}
        for node_id, name in pairs:
            if name:
                names.setdefault(node_id, name)
        return names

    def all_names(self) -> dict[str, str]:
        """``names`` with the names the result carries over them (all a result has that was
        stored before the engine named its nodes)."""
        return {**self.names, **self.known_names()}

    def node_ids(self) -> Iterator[str]:
        """Ids of the nodes on the result's paths and triple evidence (with repeats)."""
        for path in self.paths:
            for subj, _, obj in path:
                yield subj
                yield obj
        for triple in self.triples():
            yield triple[0]
            yield triple[2]

    def name_nodes(self, names_of: Callable[[list[str]], Mapping[str, str]]) -> None:
        """Fill ``names``: the names carried, then ``names_of`` (one call) for the other nodes."""
        names = self.known_names()
        missing = [n for n in dict.fromkeys(self.node_ids()) if n not in names]
        found = names_of(missing) if missing else {}
        names.update((n, found[n]) for n in missing if found.get(n))
        self.names = names

    def to_contract(self) -> dict[str, Any]:
        """The JSON object of the benchmark contract (plus extra keys)."""
        data = self.model_dump(mode="json", exclude={"question"})
        for ev in data["evidence"]:
            for key in ("triple", "id", "text", "source", "relevant"):
                if ev.get(key) is None:
                    ev.pop(key, None)
        return data
