"""The engine's public facade: one object over the stores of a data home.

Everything outside the engine (CLI, TUI, MCP server, memory) talks to ``Helix``.
"""

from __future__ import annotations

from engine.agent.ports import MemoryPort
from engine.config import Mode, Settings
from engine.events import EventSink
from engine.result import Evidence, LinkedEntity, Result, Triple


class Helix:
    """Planner -> Retriever -> Reviewer -> Explainer over the KG and passage stores."""

    @classmethod
    def open(cls, settings: Settings) -> Helix:
        """Open the stores under ``settings.home``, running ingest first when they are missing."""
        raise NotImplementedError

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
    ) -> Result:
        """Answer one question. ``choice`` is a node id picked in reply to a clarification."""
        raise NotImplementedError

    def link(self, text: str, kinds: set[str] | None = None) -> list[LinkedEntity]:
        """Entity mentions in ``text`` linked to KG nodes (exact alias, fuzzy, embedding)."""
        raise NotImplementedError

    def node_name(self, node_id: str) -> str | None:
        raise NotImplementedError

    def triples(
        self, node_id: str, rel: str | None = None, limit: int = 50
    ) -> list[Triple]:
        raise NotImplementedError

    def dense_search(self, text: str, k: int = 10) -> list[Evidence]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError
