"""The real engine with an LLM edge predictor behind a scripted loopback endpoint."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import pytest

from engine.config import Settings
from engine.events import StepEvent
from engine.result import Status

pytestmark = pytest.mark.integration

QUESTION = "What drugs treat Alzheimer's disease?"


@pytest.fixture
def engine_with_llm(small_settings: Settings, llm_server: Any):  # type: ignore[no-untyped-def]
    from engine.api import Helix

    settings = small_settings.model_copy(
        update={
            "llm_base_url": llm_server.url,
            "llm_model": f"scripted-{uuid.uuid4().hex[:8]}",
            "llm_api_key": "k",
            "llm_timeout_s": 1.5,
            "llm_retries": 0,
            "llm_features": "edges",
            "trace_exporter": "none",
        }
    )
    helix = Helix.open(settings, auto_ingest=False)
    yield helix, llm_server
    helix.close()


def _ask(helix: Any, question: str = QUESTION) -> tuple[Any, list[StepEvent]]:
    events: list[StepEvent] = []
    return helix.ask(question, on_event=events.append), events


def _edges_event(events: list[StepEvent]) -> dict[str, Any]:
    return next(e.data for e in events if e.step == "predict_edges" and e.phase == "end")


def test_llm_edge_scores_are_used(engine_with_llm: Any) -> None:
    helix, server = engine_with_llm
    server.push(
        ("ok", json.dumps([{"rel": "CtD^-1", "prob": 0.95}, {"rel": "CpD^-1", "prob": 0.1}]))
    )
    r, events = _ask(helix)
    assert r.status is Status.ANSWERED
    assert _edges_event(events)["llm"] is True
    assert r.degraded == []
    assert ("Compound::DB00843", "CtD", "Disease::DOID:10652") in r.triples()
    prompt = server.requests[-1]["messages"][-1]["content"]
    assert "Alzheimer" in prompt and "CtD^-1" in prompt


@pytest.mark.parametrize(
    "reply, reason",
    [
        (("raw", b"this is not json"), "llm:edges:"),
        (("status", 500), "llm:edges:http-500"),
        (("ok", '[{"rel": "made-up", "prob": 0.9}]'), "llm:edges:no-rel"),
    ],
)
def test_bad_llm_replies_fall_back_to_local(engine_with_llm: Any, reply: Any, reason: str) -> None:
    helix, server = engine_with_llm
    server.push(reply, reply)
    r, events = _ask(helix)
    assert r.status is Status.ANSWERED
    assert any(d.startswith(reason) for d in r.degraded), r.degraded
    assert _edges_event(events)["llm"] is False
    assert ("Compound::DB00843", "CtD", "Disease::DOID:10652") in r.triples()


def test_hanging_llm_is_cut_at_the_timeout(engine_with_llm: Any) -> None:
    helix, server = engine_with_llm
    server.push(("hang", 12.0))
    t = time.perf_counter()
    r, _ = _ask(helix)
    elapsed = time.perf_counter() - t
    assert r.status is Status.ANSWERED
    assert any(d == "llm:edges:timeout" for d in r.degraded), r.degraded
    # the answer did not wait for the hanging endpoint (12 s); the 1.5 s timeout cut it, with
    # room for a loaded two-core machine
    assert elapsed < 8.0
