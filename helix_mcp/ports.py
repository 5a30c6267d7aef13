"""The MCP server's factories for the engine and for its user's memory.

By default both are opened by ``wiring.open``, as in every front end; tests and
``--engine-factory`` swap the engine for another ``EnginePort``.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.config import Settings
from engine.ports import EngineFactory, EnginePort, UserMemoryPort
from wiring.open import StoresNotBuilt, open_engine, open_memory

__all__ = ["EngineFactory", "MemoryFactory", "StoresNotBuilt", "open_helix", "open_user_memory"]

MemoryFactory = Callable[[Settings, str, EnginePort], UserMemoryPort]


def open_helix(settings: Settings) -> EnginePort:
    """The real engine over the stores of ``settings.home`` (never builds them)."""
    return open_engine(settings)


def open_user_memory(settings: Settings, user: str, engine: EnginePort) -> UserMemoryPort:
    """``user``'s memory over ``engine``, on the wall clock."""
    return open_memory(settings, user, engine)
