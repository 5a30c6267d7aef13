"""A stand-in pipeline that emits step events exactly as the engine does (through the engine's
own ``engine.agent.steps.Steps``: start/end pairs, walk progress per depth, ``duration_ms``)
around real (short) work, in the order of ``engine.agent.loop.AgentLoop``."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from engine.agent.steps import Steps
from engine.events import EventSink
from engine.result import Answer, Evidence, Result, Status

DONEPEZIL, ALZ = "Compound::DB00843", "Disease::DOID:10652"


def run_pipeline(
    question: str, on_event: EventSink, *, fail_at: str | None = None, scale: float = 1.0
) -> Result:
    steps = Steps(on_event)

    def work(ms: float, name: str) -> None:
        time.sleep(ms * scale / 1000)
        if name == fail_at:
            raise RuntimeError(f"{name} broke")

    with steps.step("memory_read", "checking the answer cache") as a:
        work(1, "memory_read")
        a["cache_hit"] = False
    with steps.step("plan", "reading the question") as a:
        work(1, "plan")
        with steps.step("link", "linking entities") as b:
            work(3, "link")
            b["linked"] = [ALZ]
        a.update(intent="one_hop", seeds=[ALZ])
    with steps.step("dense", "searching passages") as a:
        work(5, "dense")
        a["passages"] = 10
    with steps.step("predict_edges", "scoring relations") as a:
        work(2, "predict_edges")
        a["top"] = [("CtD^-1", 0.91), ("CpD^-1", 0.05)]
    with steps.step("walk", "walking the graph") as a:
        for depth, (ms, expanded, found) in enumerate([(6, 12, 0), (8, 40, 5)], start=1):
            work(ms, "walk")
            steps.emit(
                "walk",
                f"depth {depth}: {expanded} nodes expanded, {found} paths",
                depth=depth,
                expanded=expanded,
                paths=found,
            )
        a.update(expanded=52, depth=2, stop_reason="confident", paths=5, cache_hits=3)
    with steps.step("review", "checking the paths") as a:
        work(1, "review")
        a.update(accepted=True, confidence=0.81)
    with steps.step("fuse", "fusing graph and passage evidence") as a:
        work(1, "fuse")
        a["answers"] = 1
    with steps.step("explain", "writing the answer"):
        work(2, "explain")
    with steps.step("memory_write", "remembering the turn"):
        work(1, "memory_write")
    return Result(
        question=question,
        status=Status.ANSWERED,
        answers=[Answer(id=DONEPEZIL, name="Donepezil", score=0.9)],
        evidence=[Evidence(kind="triple", triple=(DONEPEZIL, "CtD", ALZ), score=0.9)],
        stop_reason="confident",
        timings={k: round(v, 3) for k, v in steps.timings.items()},
        latency_ms=round(steps.elapsed(), 3),
    )


@pytest.fixture
def pipeline() -> Callable[..., Result]:
    return run_pipeline
