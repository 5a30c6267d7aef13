"""A stand-in pipeline that emits the engine's step events around real (short) work."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from engine.events import EventSink, StepEvent
from engine.result import Answer, Evidence, Result, Status

DONEPEZIL, ALZ = "Compound::DB00843", "Disease::DOID:10652"

# (step, depth, milliseconds of work, end data)
PLAN: list[tuple[str, int | None, float, dict[str, object]]] = [
    ("memory_read", None, 2, {"hit": False}),
    ("plan", None, 3, {"intent": "one_hop"}),
    ("link", None, 4, {"linked": [ALZ], "method": "exact"}),
    ("predict_edges", None, 3, {"rels": ["CtD^-1", "CpD^-1"], "cache_hits": 1}),
    ("walk", 1, 8, {"nodes_expanded": 12, "budget_used": 0.2}),
    ("walk", 2, 6, {"nodes_expanded": 40, "budget_used": 0.5, "stop_reason": "confident"}),
    ("dense", None, 5, {"passages": 10}),
    ("fuse", None, 1, {"preset": "weighted"}),
    ("review", None, 2, {"confidence": 0.81, "accepted": True}),
    ("explain", None, 2, {}),
    ("memory_write", None, 1, {"vault": 1}),
]


def run_pipeline(
    question: str, on_event: EventSink, *, fail_at: str | None = None, scale: float = 1.0
) -> Result:
    started = time.perf_counter()
    timings: dict[str, float] = {}
    for step, depth, ms, data in PLAN:
        start_data = {"depth": depth} if depth is not None else {}
        on_event(StepEvent(step, "start", data=start_data))
        t = time.perf_counter()
        time.sleep(ms * scale / 1000)
        if step == fail_at:
            raise RuntimeError(f"{step} broke")
        elapsed = (time.perf_counter() - t) * 1000
        timings[step] = timings.get(step, 0.0) + elapsed
        on_event(StepEvent(step, "end", elapsed_ms=elapsed, data={**start_data, **data}))
    return Result(
        question=question,
        status=Status.ANSWERED,
        answers=[Answer(id=DONEPEZIL, name="Donepezil", score=0.9)],
        evidence=[Evidence(kind="triple", triple=(DONEPEZIL, "CtD", ALZ), score=0.9)],
        stop_reason="confident",
        timings=timings,
        latency_ms=(time.perf_counter() - started) * 1000,
    )


@pytest.fixture
def pipeline() -> Callable[..., Result]:
    return run_pipeline
