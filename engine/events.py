"""Step events emitted while a question is answered (for the TUI and the traces)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

STEPS = (
    "plan",
    "link",
    "predict_edges",
    "walk",
    "dense",
    "fuse",
    "review",
    "explain",
    "memory_read",
    "memory_write",
)


@dataclass(frozen=True)
class StepEvent:
    """One step of the pipeline: ``phase`` is 'start' or 'end'; ``data`` holds its attributes."""

    step: str
    phase: str
    message: str = ""
    elapsed_ms: float = 0.0
    data: dict[str, Any] = field(default_factory=dict)


EventSink = Callable[[StepEvent], None]
"""Told of every step; a sink stops the question by raising ``Cancelled``."""


class Cancelled(Exception):
    """Raised by an event sink (the chat app's, when the user cancels) to stop the question;
    it propagates out of ``ask`` to the caller that set up the sink."""


def null_sink(_: StepEvent) -> None:
    return None
