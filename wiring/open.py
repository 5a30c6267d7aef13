"""Opening the engine over a data home, and one user's memory over an open engine.

Every front end opens them here, so they are opened one way: the engine never builds stores
inside a call (``StoresNotBuilt`` names the command), is warmed before the first question,
and every memory links statements through the engine's alias table, reads questions by
meaning with the engine's embedder, and scrubs the user's chat sessions when it forgets.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.config import Mode, Settings
from engine.ports import Clock, Embed, EnginePort

if TYPE_CHECKING:  # importing this module loads neither the engine nor memory
    from engine.api import Helix
    from engine.understand.polarity import Directions
    from engine.understand.prepared import Prepared
    from engine.understand.spelling import Speller
    from memory.asks import AskScorer
    from memory.linking import StatementLinker
    from memory.replay.run import OpenMemory
    from memory.service import UserMemory


class StoresNotBuilt(RuntimeError):
    """The data home has no stores yet; building them takes minutes, so opening the engine
    never does it: the message names the command instead."""


def open_engine(settings: Settings, *, modes: Collection[Mode] = (), warm: bool = True) -> Helix:
    """The engine over the stores of ``settings.home`` (never builds them).

    ``modes``: retrieval modes that will be asked for besides ``settings.mode`` (the dense
    baseline is made ready now when one is ``dense``); ``warm`` loads the embedding model now
    rather than on the first question. Raises ``StoresNotBuilt``, and the store's own errors
    (``UnknownLayer``, ``StoreUnreadable``) as one sentence each."""
    from engine.api import Helix
    from engine.ingest.ready import stores_ready

    if not stores_ready(settings):
        raise StoresNotBuilt(
            f"the stores under {settings.stores_dir} are not built yet; build them once with "
            f"`HELIX_HOME={settings.home} helix-chat ingest` (a few minutes), then call again"
        )
    helix = Helix.open(settings, auto_ingest=False, modes=modes)
    if warm:
        helix.warm()
    return helix


def prepare(settings: Settings) -> Prepared:
    """Make what opening the engine and a user's first question read rather than compute,
    right after ingest: ``engine.api.prepare`` (the alias index, the semantic reader's
    temperature, ...), then every bank of wordings memory embeds through the engine
    (``AskScorer.prepare``), which its ``embed`` keeps under the stores directory. Without
    them the first question of the first user after an ingest embedded the memory bank
    (about 6 s on two cores). Returns the engine's part of the work (what it computed)."""
    from engine.api import prepare as prepare_engine

    made = prepare_engine(settings)
    helix = open_engine(settings, warm=False)
    try:
        parts = memory_parts(helix)
        if parts.asks is not None:
            parts.asks.prepare()
    finally:
        helix.close()
    return made


@dataclass(frozen=True)
class MemoryParts:
    """What every user's memory takes from one open engine; share it between the users of a
    process (the exemplar bank is embedded once)."""

    linker: StatementLinker
    embed: Embed | None
    asks: AskScorer | None
    speller: Speller | None = None
    directions: Directions | None = None


def memory_parts(engine: EnginePort) -> MemoryParts:
    from memory.asks import AskScorer, load_slots, question_words
    from memory.linking import engine_linker

    embed = engine.embed()
    return MemoryParts(
        engine_linker(engine),
        embed,
        AskScorer(embed) if embed else None,
        engine.speller(question_words(load_slots())),
        engine.directions(),
    )


def open_memory(
    settings: Settings,
    user: str,
    engine: EnginePort,
    clock: Clock | None = None,
    *,
    parts: MemoryParts | None = None,
    warm: bool = False,
) -> UserMemory:
    """``user``'s memory (under ``settings.user_dir(user)``) over ``engine``, on ``clock``
    (default: the wall clock; a replay's simulated one), with ``parts`` shared between users
    (default: made for this memory alone). ``warm`` does now what its first question would
    otherwise wait for (``UserMemory.warm``): for a front end that opens memory ahead of the
    first question (the chat), not for one that opens it to answer one (``ask``)."""
    from memory.clock import SystemClock
    from memory.service import UserMemory
    from sessions.store import mention_scrubber

    parts = parts or memory_parts(engine)
    clock = clock or SystemClock()
    memory = UserMemory(
        settings,
        user,
        clock=clock,
        linker=parts.linker,
        embed=parts.embed,
        asks=parts.asks,
        forget_elsewhere=mention_scrubber(settings, user, clock),
        speller=parts.speller,
        directions=parts.directions,
    )
    if warm:
        memory.warm()
    return memory


def memory_opener(engine: EnginePort) -> OpenMemory:
    """``open_memory`` over ``engine`` for many users, sharing one ``MemoryParts``."""
    parts = memory_parts(engine)

    def open_one(settings: Settings, user: str, clock: Clock) -> UserMemory:
        return open_memory(settings, user, engine, clock, parts=parts)

    return open_one
