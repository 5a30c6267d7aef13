"""The MCP server's factories for the engine and for its user's memory.

By default both are opened by ``wiring.open``, as in every front end; tests and
``--engine-factory`` swap the engine for another ``EnginePort``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from engine.config import Settings
from engine.ports import EngineFactory, EnginePort, UserMemoryPort
from wiring.open import MemoryParts, StoresNotBuilt, memory_parts, open_engine, open_memory

__all__ = [
    "EngineFactory",
    "MemoryFactory",
    "StoresNotBuilt",
    "open_helix",
    "open_user_memory",
    "shared_parts",
]

MemoryFactory = Callable[[Settings, str, EnginePort], UserMemoryPort]


def open_helix(settings: Settings) -> EnginePort:
    """The real engine over the stores of ``settings.home`` (never builds them)."""
    return open_engine(settings)


def open_user_memory(settings: Settings, user: str, engine: EnginePort) -> UserMemoryPort:
    """``user``'s memory over ``engine``, on the wall clock."""
    return open_memory(settings, user, engine)


KEPT_PARTS = 4
"""Engines whose memory parts ``shared_parts`` keeps (the latest opened)."""


def shared_parts() -> MemoryFactory:
    """``open_user_memory`` for the many users of one server process: what every user's memory
    takes from an engine (``wiring.open.MemoryParts``: the bank of memory questions embedded,
    the linker) is made once per engine, not at each user's first call."""
    made: dict[int, tuple[EnginePort, MemoryParts]] = {}  # the engine kept: its id stays its own
    lock = threading.Lock()

    def open_one(settings: Settings, user: str, engine: EnginePort) -> UserMemoryPort:
        with lock:
            found = made.get(id(engine))
            if found is None:
                found = made[id(engine)] = (engine, memory_parts(engine))
                while len(made) > KEPT_PARTS:  # engines of other layer sets come and go
                    made.pop(next(iter(made)))
        # warmed: the first questions of many users at once do not each wait for the work
        # (router patterns, shared cues) the first of them would do for all
        return open_memory(settings, user, engine, parts=found[1], warm=True)

    return open_one
