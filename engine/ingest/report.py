"""What an ingest reports as it goes (``Progress``) and when it is done (``IngestReport``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


class Progress(Protocol):
    def start(self, step: str, total: int) -> None: ...
    def advance(self, n: int) -> None: ...
    def finish(self, step: str, note: str = "") -> None: ...


class SilentProgress:
    def start(self, step: str, total: int) -> None:
        return None

    def advance(self, n: int) -> None:
        return None

    def finish(self, step: str, note: str = "") -> None:
        return None


@dataclass
class IngestReport:
    steps: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    triples: int = 0
    nodes: int = 0
    aliases: int = 0
    passages: int = 0
    layers: dict[str, dict[str, object]] = field(default_factory=dict)
    """Per added layer: new nodes per kind, triples per source, skipped rows per reason."""
