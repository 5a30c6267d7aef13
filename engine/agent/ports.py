"""Ports the agent loop talks to; implemented outside the engine (memory) or by providers.

The engine never imports ``memory``: a per-user memory object satisfying ``MemoryPort`` is
passed in by whoever builds the pipeline (CLI, TUI, MCP server).
"""

from __future__ import annotations

from typing import Protocol

from engine.config import Mode
from engine.events import EventSink
from engine.result import Evidence, LinkedEntity, Result, Triple


class MemoryPort(Protocol):
    """What the agent loop needs from one user's memory."""

    def answer(self, question: str, linked: list[LinkedEntity]) -> Result | None:
        """Answer from this user's own memory (patients, notes, stated facts), or None."""
        ...

    def boosts(self, triples: list[Triple]) -> dict[Triple, float]:
        """Multipliers (e.g. 1.15) for triples backed by a verified (quality-1) vault fact."""
        ...

    def cached(self, question: str, mode: str) -> Result | None:
        """A cached reviewed answer for this (or a near-identical) question, or None."""
        ...

    def record(self, question: str, result: Result, session: str | None) -> None:
        """Store the turn (episodic), and verified triples (vault) when the Reviewer accepted."""
        ...


class EnginePort(Protocol):
    """The part of ``engine.api.Helix`` that front ends (chat app, MCP server) use."""

    def ask(
        self,
        question: str,
        *,
        mode: Mode | None = None,
        memory: MemoryPort | None = None,
        session: str | None = None,
        choice: str | None = None,
        qid: str | None = None,
        on_event: EventSink | None = None,
    ) -> Result: ...

    def link(self, text: str, kinds: set[str] | None = None) -> list[LinkedEntity]: ...

    def node_name(self, node_id: str) -> str | None: ...

    def triples(self, node_id: str, rel: str | None = None, limit: int = 50) -> list[Triple]: ...

    def dense_search(self, text: str, k: int = 10) -> list[Evidence]: ...

    def close(self) -> None: ...
