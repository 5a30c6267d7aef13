"""The engines a server answers from: its own, opened on first use, and those opened for the
other layer sets ``ask(layers=...)`` names, of which the last ``MAX_LAYERED`` stay open (the
one dropped is closed at once). A single-user server keeps one ``Engines``; a team server
keeps one for all its users, so a layer set several users ask for is opened once and the
engines open stay bounded however many users there are. Callers hold the tools' lock."""

from __future__ import annotations

from collections.abc import Sequence

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

    def main(self) -> EnginePort:
        """The server's engine (its configured layers)."""
        if self._main is None:
            try:
                self._main = self._factory(self.settings)
            except Exception as exc:
                raise ToolError(f"the Helix engine could not be opened: {_reason(exc)}") from exc
        return self._main

    def for_layers(self, layers: Sequence[str] | None) -> EnginePort:
        """The engine answering from ``layers``: the server's own when they are its layers,
        else one opened for them."""
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
            self.layered.pop(next(iter(self.layered))).close()
        return found

    def close(self) -> None:
        """Close every engine (the server stops)."""
        for engine in self.layered.values():
            engine.close()
        self.layered.clear()
        if self._main is not None:
            self._main.close()
            self._main = None
