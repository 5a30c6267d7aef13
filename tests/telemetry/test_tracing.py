"""Step events -> spans -> OTLP/JSON lines under the data home."""

from __future__ import annotations

import base64
import itertools
import json

import pytest
from opentelemetry import trace as otel_trace

from engine.config import Settings
from engine.events import StepEvent
from engine.telemetry import Tracing, spans_path
from engine.telemetry.store import build_tree, read_spans, resolve_trace_id

QUESTION = "Which medicines are used to treat Alzheimer's disease?"


def _traced(settings, pipeline, **kw):
    tracing = Tracing.from_settings(settings, environ={})
    with tracing.question(QUESTION, qid="q1", mode="hybrid", session="s1") as trace:
        result = pipeline(QUESTION, trace.sink, **kw)
        trace.finish(result)
    tracing.shutdown()
    return result


def test_every_step_is_a_child_span_and_timings_add_up(tmp_path, pipeline):
    settings = Settings(home=tmp_path)
    result = _traced(settings, pipeline)
    spans = read_spans(spans_path(settings))
    assert result.trace_id and len(result.trace_id) == 32
    assert {s.trace_id for s in spans} == {result.trace_id}
    root = build_tree(spans, result.trace_id)
    assert root is not None and root.span.name == "helix.ask"
    labels = [c.span.label for c in root.children]
    assert labels == [
        "memory_read",
        "plan",
        "dense",
        "predict_edges",
        "walk",
        "review",
        "fuse",
        "explain",
        "memory_write",
    ]
    plan, walk = root.children[1], root.children[4]
    assert [c.span.label for c in plan.children] == ["link"]
    assert [c.span.label for c in walk.children] == ["walk d=1", "walk d=2"]
    # the steps follow one another inside the question's span without overlapping, and account
    # for its time (the only gaps are the interpreter's between two steps: loose, since a loaded
    # machine widens them), and the root matches the reported latency
    kids = [c.span for c in root.children]
    assert root.span.start_ns <= kids[0].start_ns and kids[-1].end_ns <= root.span.end_ns
    assert all(a.end_ns <= b.start_ns for a, b in itertools.pairwise(kids))
    assert root.children_ms >= 0.5 * root.span.duration_ms
    assert root.span.duration_ms == pytest.approx(result.latency_ms, rel=0.10)
    # the depth sub-spans tile the walk
    assert walk.children_ms == pytest.approx(walk.span.duration_ms, rel=0.10)
    d2 = walk.children[1].span
    assert d2.attributes["helix.depth"] == 2 and d2.attributes["helix.expanded"] == 40
    assert walk.span.attributes["helix.stop_reason"] == "confident"
    assert walk.span.attributes["helix.cache_hits"] == 3
    assert root.children[3].span.attributes["helix.top"] == '[["CtD^-1", 0.91], ["CpD^-1", 0.05]]'
    assert root.span.attributes["helix.status"] == "ANSWERED"
    assert root.span.attributes["helix.top_answer"] == "Compound::DB00843"
    assert root.span.attributes["helix.qid"] == "q1"
    assert root.span.attributes["helix.timing.walk_ms"] == pytest.approx(
        walk.span.duration_ms, rel=0.10
    )


def test_each_line_is_an_otlp_json_export_request(tmp_path, pipeline):
    settings = Settings(home=tmp_path)
    _traced(settings, pipeline)
    lines = spans_path(settings).read_text().splitlines()
    assert len(lines) == 13  # 9 steps, link inside plan, 2 walk depths, the root: one per line
    record = json.loads(lines[0])
    span = record["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    assert set(span) >= {
        "traceId",
        "spanId",
        "parentSpanId",
        "name",
        "kind",
        "startTimeUnixNano",
        "endTimeUnixNano",
        "attributes",
        "status",
    }
    assert int(span["endTimeUnixNano"]) >= int(span["startTimeUnixNano"])
    resource = {a["key"]: a["value"] for a in record["resourceSpans"][0]["resource"]["attributes"]}
    assert resource["service.name"] == {"stringValue": "helix"}


def test_lines_parse_as_the_otlp_protobuf_message(tmp_path, pipeline):
    json_format = pytest.importorskip("google.protobuf.json_format")
    trace_service = pytest.importorskip("opentelemetry.proto.collector.trace.v1.trace_service_pb2")
    settings = Settings(home=tmp_path)
    result = _traced(settings, pipeline)

    def b64(hex_id: str) -> str:  # OTLP/JSON uses hex ids; protobuf's JSON mapping wants base64
        return base64.b64encode(bytes.fromhex(hex_id)).decode() if hex_id else ""

    names = []
    for line in spans_path(settings).read_text().splitlines():
        data = json.loads(line)
        for rs in data["resourceSpans"]:
            for ss in rs["scopeSpans"]:
                for s in ss["spans"]:
                    for key in ("traceId", "spanId", "parentSpanId"):
                        s[key] = b64(s[key])
        msg = json_format.Parse(json.dumps(data), trace_service.ExportTraceServiceRequest())
        span = msg.resource_spans[0].scope_spans[0].spans[0]
        assert span.trace_id.hex() == result.trace_id
        names.append(span.name)
    assert names[-1] == "helix.ask" and "helix.walk" in names


def test_nesting_pairing_progress_and_orphan_ends(tmp_path):
    settings = Settings(home=tmp_path)
    tracing = Tracing.from_settings(settings, environ={})
    with tracing.question("q") as trace:
        trace.sink(StepEvent("walk", "start"))
        trace.sink(StepEvent("predict_edges", "start"))
        trace.sink(StepEvent("predict_edges", "end"))
        trace.sink(StepEvent("walk", "progress", "depth 1", data={"depth": 1, "expanded": 3}))
        trace.sink(StepEvent("walk", "progress", "note without depth", data={"n": 1}))
        trace.sink(StepEvent("walk", "end", data={"depth": 1}))  # pairs with the depth-less start
        trace.sink(StepEvent("fuse", "end", data={"duration_ms": 3.0}))  # never started
        trace.sink(StepEvent("plan", "progress", "no plan open"))
        trace.sink(StepEvent("explain", "start"))  # never ended
    root = build_tree(read_spans(spans_path(settings)), trace.trace_id)
    by_label = {c.span.label: c for c in root.children}
    assert set(by_label) == {"walk", "fuse", "explain"}
    assert by_label["explain"].span.attributes["helix.unclosed"] is True
    assert {c.span.label for c in by_label["walk"].children} == {"predict_edges", "walk d=1"}
    assert by_label["fuse"].span.duration_ms == pytest.approx(3.0, abs=1.0)  # from duration_ms


def test_a_failing_question_marks_the_root_and_closes_open_steps(tmp_path, pipeline):
    settings = Settings(home=tmp_path)
    tracing = Tracing.from_settings(settings, environ={})
    with pytest.raises(RuntimeError, match="walk broke"), tracing.question("q") as trace:
        pipeline("q", trace.sink, fail_at="walk")
    spans = read_spans(spans_path(settings))
    root = build_tree(spans, trace.trace_id)
    assert root.span.status == 2  # ERROR
    assert [c.span.label for c in root.children][-1] == "walk"  # closed by the engine's finally
    assert "review" not in {c.span.label for c in root.children}


def test_a_broken_sink_input_never_raises(tmp_path):
    tracing = Tracing.from_settings(Settings(home=tmp_path), environ={})
    with tracing.question("q") as trace:
        trace.sink(StepEvent("walk", "start", data={"weird": object(), "nested": {"a": [1, "x"]}}))
        trace.sink(StepEvent("walk", "sideways"))
        trace.sink(StepEvent("walk", "end"))
    spans = read_spans(spans_path(Settings(home=tmp_path)))
    walk = next(s for s in spans if s.name == "helix.walk")
    assert json.loads(str(walk.attributes["helix.nested"])) == {"a": [1, "x"]}


def test_tee_feeds_both_sinks(tmp_path):
    seen = []
    tracing = Tracing.from_settings(Settings(home=tmp_path), environ={})
    with tracing.question("q") as trace:
        sink = trace.tee(seen.append)
        sink(StepEvent("plan", "start"))
        sink(StepEvent("plan", "end"))
    assert [e.phase for e in seen] == ["start", "end"]
    assert [s.name for s in read_spans(tracing.jsonl)] == ["helix.plan", "helix.ask"]


def test_exporter_none_writes_nothing_but_keeps_a_trace_id(tmp_path, pipeline):
    settings = Settings(home=tmp_path, trace_exporter="none")
    result = _traced(settings, pipeline)
    assert result.trace_id and not spans_path(settings).exists()


def test_the_global_tracer_provider_is_never_touched(tmp_path, pipeline):
    before = otel_trace.get_tracer_provider()
    _traced(Settings(home=tmp_path), pipeline)
    assert otel_trace.get_tracer_provider() is before


def test_every_question_is_its_own_trace(tmp_path, pipeline):
    settings = Settings(home=tmp_path)
    first = _traced(settings, pipeline)
    second = _traced(settings, pipeline)
    spans = read_spans(spans_path(settings))
    assert first.trace_id != second.trace_id
    assert resolve_trace_id(spans, None) == second.trace_id
    assert resolve_trace_id(spans, first.trace_id[:10]) == first.trace_id
    assert resolve_trace_id(spans, "zzzz") is None


def test_otlp_export_to_a_loopback_collector(tmp_path, pipeline, monkeypatch):
    pytest.importorskip("opentelemetry.exporter.otlp.proto.http.trace_exporter")
    import os
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

    received: list[tuple[str, bytes]] = []

    class Collector(BaseHTTPRequestHandler):
        def log_message(self, *args):
            return None

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            received.append((self.path, body))
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", "0")
            self.end_headers()

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02})
    thread.start()
    try:
        port = httpd.server_address[1]
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", f"http://127.0.0.1:{port}")
        monkeypatch.setenv("OTEL_SERVICE_NAME", "helix-test")
        settings = Settings(home=tmp_path)  # jsonl by default; the endpoint adds OTLP
        tracing = Tracing.from_settings(settings, environ=os.environ)
        with tracing.question(QUESTION) as trace:
            trace.finish(pipeline(QUESTION, trace.sink))
        tracing.flush()
        tracing.shutdown()
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
    assert received and all(path == "/v1/traces" for path, _ in received)
    spans, services = [], set()
    for _, body in received:
        request = ExportTraceServiceRequest.FromString(body)
        for rs in request.resource_spans:
            for kv in rs.resource.attributes:
                if kv.key == "service.name":
                    services.add(kv.value.string_value)
            for ss in rs.scope_spans:
                spans.extend(ss.spans)
    assert services == {"helix-test"}
    assert len(spans) == 13
    assert {sp.trace_id.hex() for sp in spans} == {trace.trace_id}
    assert len(read_spans(spans_path(settings))) == 13  # the JSONL file still gets them
