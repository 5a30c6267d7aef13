"""The ports between Helix's packages, in one place.

What the agent loop needs from one user's memory (``MemoryPort``); what every front end (chat
app, MCP server, eval, replay) uses of the engine (``EnginePort``) and of a user's memory
(``UserMemoryPort``, of which a replay's ``say`` events use ``StatementPort``); the clock that
memory and sessions read. Every capability is declared here, so callers never probe for one:
an optional one says so in its type (``EnginePort.embed`` may return None).

Implemented by ``engine.api.Helix``, ``memory.service.UserMemory`` and ``memory.clock``; the
engine never imports ``memory``: ``wiring.open`` opens both and hands the memory to the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from engine.config import Mode, Settings
from engine.events import EventSink
from engine.result import Evidence, LinkedEntity, Result, Triple

if TYPE_CHECKING:  # numpy stays out of the chat app's start-up
    from engine.providers.embedder.base import Vectors
    from engine.understand.polarity import Directions
    from engine.understand.spelling import Speller

Embed = Callable[[list[str]], "Vectors"]
"""Texts -> L2-normalised vectors (the engine's embedding model)."""


class Clock(Protocol):
    """A source of tz-aware UTC instants (``memory.clock``: the wall clock or a simulated one)."""

    def now(self) -> datetime: ...


class MemoryPort(Protocol):
    """What the agent loop needs from one user's memory."""

    def answer(
        self, question: str, linked: list[LinkedEntity], session: str | None = None
    ) -> Result | None:
        """Answer from this user's own memory (patients, notes, stated facts), or None;
        ``session`` is the conversation whose patient "her" or "my patient" stands for."""
        ...

    def boosts(self, triples: list[Triple], question: str | None = None) -> dict[Triple, float]:
        """Multipliers (e.g. 1.15) for triples backed by a verified (quality-1) vault fact; a
        fact the engine looked up when answering ``question`` never boosts that answer."""
        ...

    def cached(self, question: str, mode: str) -> Result | None:
        """A cached reviewed answer for this (or a near-identical) question, or None."""
        ...

    def record(self, question: str, result: Result, session: str | None) -> None:
        """Store the turn (episodic), and verified triples (vault) when the Reviewer accepted."""
        ...


class FactPort(Protocol):
    """A fact of a user's memory as front ends read it (``memory.vault.Fact``): a triple, the
    names of its ends, and its validity from ``t_start`` until ``t_end`` (None: current)."""

    @property
    def subj(self) -> str: ...
    @property
    def rel(self) -> str: ...
    @property
    def obj(self) -> str: ...
    @property
    def subj_name(self) -> str | None: ...
    @property
    def obj_name(self) -> str | None: ...
    @property
    def t_start(self) -> datetime: ...
    @property
    def t_end(self) -> datetime | None: ...
    @property
    def source(self) -> str:
        """'stated' by the user, or 'reviewed' KG evidence."""
        ...

    @property
    def quality(self) -> float: ...
    @property
    def detail(self) -> str | None:
        """How the value holds as stated (a medication's dose: "5 mg twice daily")."""
        ...

    @property
    def evidence(self) -> str | None:
        """The statement the fact was read from, when it was stated in words."""
        ...


class NotedPort(Protocol):
    """What a statement left in memory (``memory.service.Noted``)."""

    @property
    def facts(self) -> Sequence[FactPort]: ...
    @property
    def unread(self) -> Sequence[str]:
        """The sentences that stated no fact the memory could read."""
        ...


class StatementPort(Protocol):
    """What a user states: a fact extracted from text, or one given in structured form.
    Both return the stored fact, or None when nothing was stored."""

    def state(self, text: str, session: str | None = None) -> FactPort | None: ...

    def state_each(self, text: str, session: str | None = None) -> NotedPort:
        """Every fact of a statement, one per sentence, and the sentences that stated none."""
        ...

    def store_fact(
        self,
        subj: str,
        rel: str,
        obj: str,
        supersedes: Triple | None = None,
        evidence: str | None = None,
        *,
        session: str | None = None,
    ) -> FactPort | None: ...


class UserMemoryPort(MemoryPort, StatementPort, Protocol):
    """One user's memory as the front ends use it (``memory.service.UserMemory``)."""

    def facts(self, include_superseded: bool = True) -> Sequence[FactPort]: ...

    def search(self, query: str, limit: int = 50) -> Sequence[FactPort]: ...

    def forget(self, target: Any) -> int:
        """Forget a fact (as returned by ``facts``, or a triple) or a whole subject (an id or a
        mention); returns the number of facts removed."""
        ...

    residue: str | None
    """What the last ``forget`` could not erase from the stores' files, said plainly."""

    def hold(self) -> AbstractContextManager[object]:
        """Keep the user's stores open for a block of calls (one turn): a file opened once,
        not at every call; each write is still its own transaction."""
        ...

    def close(self) -> None: ...


class AliasEntry(NamedTuple):
    """One name of a graph node as the alias index holds it: what a front end completes."""

    key: str
    """The normalised key the linker looks the alias up by (``engine.util.text.alias_key``)."""
    alias: str
    """The alias as written ("Aricept", "NEP")."""
    node_id: str
    name: str
    """The node's own name ("Donepezil", "MME")."""
    kind: str
    primary: bool
    """The alias is the node's own name."""


class EnginePort(Protocol):
    """The engine (``engine.api.Helix``) as front ends and memory use it."""

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
        user: str | None = None,
        among: Sequence[str] = (),
    ) -> Result:
        """``user``: who asked, whose directory keeps the question's trace (default: the
        settings' user), so that forgetting a patient finds it there; ``among``: keep the
        answers to these nodes (a follow-up picking from the last answers)."""
        ...

    def link(self, text: str, kinds: set[str] | None = None) -> list[LinkedEntity]: ...

    def fit(self, text: str) -> float | None:
        """How well ``text`` reads as a graph question (higher is better); None when it is
        none."""
        ...

    def aliases(self, key: str) -> list[tuple[str, bool, str]]:
        """Exact alias-table hits ``(node_id, primary, source)`` for a normalised key."""
        ...

    def alias_entries(self) -> list[AliasEntry]:
        """Every name of the alias index with its node, for completing names as they are typed
        (a few hundred thousand rows; read once)."""
        ...

    def node_name(self, node_id: str) -> str | None: ...

    def node_names(self, node_ids: Iterable[str]) -> dict[str, str]:
        """The names of the graph nodes among ``node_ids`` (other ids are left out)."""
        ...

    def node_kind(self, node_id: str) -> str | None: ...

    def node_description(self, node_id: str) -> str | None: ...

    def triples(self, node_id: str, rel: str | None = None, limit: int = 50) -> list[Triple]: ...

    def dense_search(self, text: str, k: int = 10) -> list[Evidence]: ...

    def embed(self) -> Embed | None:
        """The embedding function, or None when the model could not be loaded."""
        ...

    def speller(self, words: Iterable[str]) -> Speller | None:
        """The engine's typo corrector widened to another reader's question words (memory's),
        also correcting a letter left out or typed twice; None without a semantic reader."""
        ...

    def directions(self) -> Directions | None:
        """The engine's reading of which way a question says an amount moves, and of which
        way its one-hop relations go; None without a semantic reader."""
        ...

    def close(self) -> None: ...


EngineFactory = Callable[[Settings], EnginePort]
"""Opens the engine over a data home (``wiring.open.open_engine``, or a test's fake)."""
