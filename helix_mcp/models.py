"""Typed outputs of the MCP tools (their JSON schemas are what clients see)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field


class NodeRef(BaseModel):
    id: str
    name: str | None = None
    kind: str


class TripleOut(BaseModel):
    subj: str
    rel: str
    obj: str
    subj_name: str | None = None
    obj_name: str | None = None


class TriplesOut(BaseModel):
    node: NodeRef
    triples: list[TripleOut]
    truncated: bool = Field(description="True when more triples exist beyond the limit.")


class WalkOut(BaseModel):
    start: NodeRef
    relations: list[str]
    paths: list[list[TripleOut]]
    expanded: int = Field(description="Nodes expanded by the search.")
    truncated: bool = Field(description="True when a bound (fanout, max_paths) cut the search.")


class PassageOut(BaseModel):
    id: str | None
    score: float
    text: str | None = None
    source: str | None = None


class PassagesOut(BaseModel):
    passages: list[PassageOut]


class FactOut(BaseModel):
    subj: str
    rel: str
    obj: str
    subj_name: str | None = None
    obj_name: str | None = None
    current: bool = True
    since: datetime | None = None
    until: datetime | None = None
    source: str | None = None
    quality: float | None = None
    detail: str | None = None
    """How the value holds as stated (a dose: "5 mg twice daily")."""
    said_by: str | None = None
    """Whose word it is: "you said" (the user stated it) or "looked up" (the engine found it
    in the graph for one of the user's questions)."""


class MemoryStoreOut(BaseModel):
    stored: bool
    fact: FactOut | None = None
    """The first fact stored."""
    facts: list[FactOut] = Field(default_factory=list)
    """Every fact stored, one per sentence that stated one."""
    unread: list[str] = Field(default_factory=list)
    """The sentences that stated no fact: nothing of them was stored."""
    message: str


class FactsOut(BaseModel):
    facts: list[FactOut]


class ForgetOut(BaseModel):
    removed: int = Field(description="Facts (all their time intervals) removed from memory.")
    left_behind: str | None = Field(
        default=None,
        description="What could not be erased from the stores' files, if anything.",
    )
