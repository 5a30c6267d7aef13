"""Step timing and events: every pipeline step runs inside ``Steps.step(name)``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engine.events import EventSink, StepEvent, null_sink


class Steps:
    def __init__(self, sink: EventSink | None) -> None:
        self.sink = sink or null_sink
        self.timings: dict[str, float] = {}
        self.t0 = time.perf_counter()

    @contextmanager
    def step(self, name: str, message: str = "", **data: Any) -> Iterator[dict[str, Any]]:
        attrs: dict[str, Any] = dict(data)
        self.sink(StepEvent(name, "start", message, self.elapsed(), dict(data)))
        t = time.perf_counter()
        try:
            yield attrs
        finally:
            ms = (time.perf_counter() - t) * 1000
            self.timings[name] = self.timings.get(name, 0.0) + ms
            attrs["duration_ms"] = round(ms, 3)
            self.sink(StepEvent(name, "end", message, self.elapsed(), attrs))

    def emit(self, name: str, message: str, **data: Any) -> None:
        self.sink(StepEvent(name, "progress", message, self.elapsed(), data))

    def elapsed(self) -> float:
        return (time.perf_counter() - self.t0) * 1000
