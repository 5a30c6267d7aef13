"""The engines a server answers from: its own, opened on first use, and those opened for the
other layer sets ``ask(layers=...)`` names, of which the last ``MAX_LAYERED`` stay open (the
one dropped is closed as soon as no call is using it). A single-user server keeps one
``Engines``; a team server keeps one for all its users, so a layer set several users ask for
is opened once and the engines open stay bounded however many users there are.

An open engine answers calls from several threads at once (``engine.api``); only opening and
dropping engines is serialised here."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from mcp.server.mcpserver.exceptions import ToolError

from engine.config import Settings
from engine.ports import EngineFactory, EnginePort

MAX_LAYERED = 2
"""Engines kept open for layer sets asked by ``ask(layers=...)`` besides the server's own."""


def _reason(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


class Engines:
    def __init__(self, settings: Settings, factory: EngineFactory) -> None:
        self.settings = settings
        self._factory = factory
        self._main: EnginePort | None = None
        self.layered: dict[frozenset[str], EnginePort] = {}
        """Engines restricted to other layer sets than the server's, oldest first."""
        self._lock = threading.RLock()
        self._calls: dict[int, int] = {}
        """id(engine) -> calls using it now (``using``)."""
        self._dropped: dict[int, EnginePort] = {}
        """Engines dropped from ``layered`` while in use: closed when their last call ends."""

    def main(self) -> EnginePort:
        """The server's engine (its configured layers)."""
        with self._lock:
            if self._main is None:
                try:
                    self._main = self._factory(self.settings)
                except Exception as exc:
                    raise ToolError(
                        f"the Helix engine could not be opened: {_reason(exc)}"
                    ) from exc
            return self._main

    def for_layers(self, layers: Sequence[str] | None) -> EnginePort:
        """The engine answering from ``layers``: the server's own when they are its layers,
        else one opened for them."""
        with self._lock:
            engine = self.main()
            wanted = frozenset(layers or ())
            if not wanted or wanted == frozenset(getattr(engine, "layers", ())):
                return engine
            found = self.layered.pop(wanted, None)
            if found is None:
                settings = self.settings.model_copy(update={"layers": ",".join(sorted(wanted))})
                try:
                    found = self._factory(settings)
                except Exception as exc:
                    raise ToolError(f"argument 'layers': {_reason(exc)}") from exc
            self.layered[wanted] = found
            while len(self.layered) > MAX_LAYERED:
                self._drop(self.layered.pop(next(iter(self.layered))))
            return found

    @contextmanager
    def using(self, layers: Sequence[str] | None) -> Iterator[EnginePort]:
        """``for_layers(layers)`` for the length of one call: an engine dropped meanwhile
        (other layer sets asked for) stays open until the call ends."""
        with self._lock:
            engine = self.for_layers(layers)
            self._calls[id(engine)] = self._calls.get(id(engine), 0) + 1
        try:
            yield engine
        finally:
            with self._lock:
                left = self._calls.pop(id(engine)) - 1
                if left:
                    self._calls[id(engine)] = left
                elif id(engine) in self._dropped:
                    self._dropped.pop(id(engine)).close()

    def _drop(self, engine: EnginePort) -> None:
        if self._calls.get(id(engine)):
            self._dropped[id(engine)] = engine
        else:
            engine.close()

    def close(self) -> None:
        """Close every engine (the server stops)."""
        with self._lock:
            for engine in [*self.layered.values(), *self._dropped.values()]:
                engine.close()
            self.layered.clear()
            self._dropped.clear()
            if self._main is not None:
                self._main.close()
                self._main = None
