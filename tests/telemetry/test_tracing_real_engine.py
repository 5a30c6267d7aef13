"""Tracing the real engine (the ``helix`` fixture over ``small_home``)."""

from __future__ import annotations

import pytest

from engine.config import Settings
from engine.telemetry import Tracing, spans_path
from engine.telemetry.store import build_tree, read_spans

pytestmark = pytest.mark.integration


def test_a_real_question_is_fully_traced(helix, tmp_path):
    settings = Settings(home=tmp_path)
    tracing = Tracing.from_settings(settings, environ={})
    question = "Which medicines are used to treat Alzheimer's disease?"
    helix.ask(question)  # warm the embedder so the traced question is a typical one
    with tracing.question(question, mode="hybrid") as trace:
        result = trace.finish(helix.ask(question, on_event=trace.sink))
    tracing.shutdown()
    root = build_tree(read_spans(spans_path(settings)), result.trace_id)
    steps = {c.span.step for c in root.children}
    assert {"plan", "predict_edges", "walk", "review"} <= steps
    walk = next(c for c in root.children if c.span.step == "walk")
    assert [c.span.label for c in walk.children][:1] == ["walk d=1"]
    # the steps account for the question's time, up to the few milliseconds tracing itself
    # takes (a fixed cost: with the question's vectors kept from the warm-up, the answer takes
    # about 30 ms, so a tenth of it is no bound for that cost)
    assert root.children_ms == pytest.approx(root.span.duration_ms, rel=0.10, abs=5.0)
    assert root.span.duration_ms == pytest.approx(result.latency_ms, rel=0.10, abs=2.0)
    assert root.span.attributes["helix.status"] == str(result.status)
