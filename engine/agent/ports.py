"""Ports the agent loop talks to; implemented outside the engine (memory) or by providers.

The engine never imports ``memory``: a per-user memory object satisfying ``MemoryPort`` is
passed in by whoever builds the pipeline (CLI, TUI, MCP server).
"""

from __future__ import annotations

from typing import Protocol

from engine.result import LinkedEntity, Result, Triple


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
