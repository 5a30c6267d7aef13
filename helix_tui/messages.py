"""Typed messages posted from workers to the chat screen."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from textual.message import Message

from engine.events import StepEvent
from engine.ports import EnginePort
from engine.result import Result
from helix_tui.facts import FactView


@dataclass(eq=False)
class HelixMessage(Message):
    """Base of Helix's messages; ``Message.__post_init__`` sets up a dataclass message."""


@dataclass(eq=False)
class EngineReady(HelixMessage):
    engine: EnginePort


@dataclass(eq=False)
class EngineFailed(HelixMessage):
    error: str


@dataclass(eq=False)
class StepProgress(HelixMessage):
    ask_id: int
    event: StepEvent


@dataclass(eq=False)
class FactsNoted(HelixMessage):
    ask_id: int
    notes: list[str]


@dataclass(eq=False)
class AnswerReady(HelixMessage):
    ask_id: int
    result: Result
    names: dict[str, str] = field(default_factory=dict)


@dataclass(eq=False)
class AskFailed(HelixMessage):
    ask_id: int
    error: str


@dataclass(eq=False)
class MemoryFacts(HelixMessage):
    user: str
    facts: list[FactView]
    names: dict[str, str] = field(default_factory=dict)
    error: str | None = None


@dataclass(eq=False)
class NodeDetails(HelixMessage):
    node_id: str
    markdown: str
    target: str


@dataclass(eq=False)
class Notice(HelixMessage):
    text: str
    severity: Literal["information", "warning", "error"] = "information"
    reload: bool = False
    """Show the current session again (forgetting also removes turns that mention it)."""


@dataclass(eq=False)
class ForgetPreview(HelixMessage):
    """What ``/forget target`` would remove, for the confirmation dialog."""

    target: str
    facts: list[str]
    error: str | None = None
