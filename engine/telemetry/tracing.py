"""Spans from the engine's step events: one ``helix.ask`` root per question, a child per step.

The engine already reports every step as ``StepEvent`` start/end pairs (and walk progress per
depth) through its ``on_event`` callback; ``QuestionTrace.sink`` is such a callback. A start
opens a span under the innermost open one (so a step nested in another nests in the tree), the
matching end closes it, and the event's ``data`` become ``helix.*`` attributes. Timestamps are
taken when the events arrive, so span durations are wall time as the engine experienced it.

``Tracing`` owns a private ``TracerProvider`` (the global one is never touched) whose exporters
are chosen from ``Settings.trace_exporter`` and the standard ``OTEL_*`` environment.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from opentelemetry import trace as otel_trace
from opentelemetry.sdk.resources import SERVICE_NAME, Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter
from opentelemetry.trace import Span, Status, StatusCode

from engine.config import Settings
from engine.events import EventSink, StepEvent
from engine.result import Result
from engine.telemetry.jsonl import JsonlSpanExporter, PerTraceProcessor

log = logging.getLogger(__name__)

SCOPE = "helix.engine"
ROOT_SPAN = "helix.ask"
MAX_ATTR_CHARS = 1000
OTLP_ENDPOINT_VARS = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")

AttrValue = str | bool | int | float | list[str] | list[bool] | list[int] | list[float]


def spans_path(settings: Settings, user: str | None = None) -> Path:
    """The JSONL trace file of ``user`` (default: the settings' user), inside their directory."""
    return settings.user_dir(user or settings.user) / "traces" / "spans.jsonl"


def attr_value(value: object) -> AttrValue | None:
    """``value`` as an OTel attribute value (primitives, homogeneous lists, else JSON text)."""
    if value is None:
        return None
    if isinstance(value, str):
        return value[:MAX_ATTR_CHARS]
    if isinstance(value, bool | int | float):
        return value
    if isinstance(value, list | tuple | set | frozenset):
        items = list(value)
        for kind in (str, bool, int, float):
            if items and all(type(v) is kind for v in items):
                return items
    try:
        text = json.dumps(value, default=str, ensure_ascii=False)
    except (TypeError, ValueError):
        text = str(value)
    return text[:MAX_ATTR_CHARS]


def step_attributes(data: Mapping[str, object]) -> dict[str, AttrValue]:
    out: dict[str, AttrValue] = {}
    for key, value in data.items():
        converted = attr_value(value)
        if converted is not None:
            out[f"helix.{key}"] = converted
    return out


@dataclass
class _Open:
    step: str
    depth: object
    span: Span
    start_ns: int
    mark_ns: int
    """When the last progress sub-span of this step ended (its start, before any)."""


class QuestionTrace:
    """The spans of one question; ``sink`` receives the engine's step events.

    - ``start``/``end`` pairs become spans named ``helix.<step>``; an end closes the innermost
      open span of the same step (preferring one started with the same ``depth``).
    - ``progress`` events that carry a ``depth`` (the walk reports each depth it finishes)
      become child spans ``helix.<step>.depth`` covering the time since the previous one;
      other progress events become span events.
    - an ``end`` without a ``start`` is rebuilt from its ``duration_ms``.
    """

    def __init__(self, tracer: otel_trace.Tracer, root: Span) -> None:
        self._tracer = tracer
        self.root = root
        ctx = root.get_span_context()
        self.trace_id: str | None = f"{ctx.trace_id:032x}" if ctx.is_valid else None
        self._open: list[_Open] = []
        self._lock = threading.Lock()

    # --- events -> spans ---------------------------------------------------------------
    def sink(self, event: StepEvent) -> None:
        """An ``EventSink``; never raises into the engine."""
        try:
            with self._lock:
                if event.phase == "start":
                    self._start(event)
                elif event.phase == "end":
                    self._end(event)
                elif event.phase == "progress":
                    self._progress(event)
        except Exception:  # a tracing bug must not fail a question
            log.exception("dropped step event %s/%s", event.step, event.phase)

    def tee(self, other: EventSink | None) -> EventSink:
        """A sink feeding both this trace and ``other`` (the TUI's progress, say)."""
        if other is None:
            return self.sink

        def both(event: StepEvent) -> None:
            self.sink(event)
            other(event)

        return both

    def _parent(self) -> Span:
        return self._open[-1].span if self._open else self.root

    def _span(self, name: str, event: StepEvent, start_ns: int) -> Span:
        attrs = step_attributes(event.data)
        attrs["helix.step"] = event.step
        if event.message:
            attrs["helix.message"] = event.message[:MAX_ATTR_CHARS]
        return self._tracer.start_span(
            name,
            context=otel_trace.set_span_in_context(self._parent()),
            attributes=attrs,
            start_time=start_ns,
        )

    def _start(self, event: StepEvent, at: int | None = None) -> _Open:
        now = at or time.time_ns()
        span = self._span(f"helix.{event.step}", event, now)
        opened = _Open(event.step, event.data.get("depth"), span, now, now)
        self._open.append(opened)
        return opened

    def _find(self, event: StepEvent) -> int:
        same = [i for i, o in enumerate(self._open) if o.step == event.step]
        depth = event.data.get("depth")
        exact = [i for i in same if depth is not None and self._open[i].depth == depth]
        return (exact or same or [-1])[-1]

    def _end(self, event: StepEvent) -> None:
        now = time.time_ns()
        idx = self._find(event)
        if idx < 0:  # an end without a start: rebuild the span from its duration
            duration = event.data.get("duration_ms")
            ms = float(duration) if isinstance(duration, int | float) else 0.0
            self._start(event, at=now - int(max(0.0, ms) * 1e6))
            idx = len(self._open) - 1
        opened = self._open.pop(idx)
        opened.span.set_attributes(step_attributes(event.data))
        if event.message:
            opened.span.set_attribute("helix.message", event.message[:MAX_ATTR_CHARS])
        opened.span.end(end_time=now)

    def _progress(self, event: StepEvent) -> None:
        now = time.time_ns()
        idx = self._find(event)
        owner = self._open[idx] if idx >= 0 else None
        if owner is None or event.data.get("depth") is None:
            target = owner.span if owner else self.root
            target.add_event(event.message or event.step, step_attributes(event.data))
            return
        child = self._tracer.start_span(
            f"helix.{event.step}.depth",
            context=otel_trace.set_span_in_context(owner.span),
            attributes={
                **step_attributes(event.data),
                "helix.step": event.step,
                "helix.message": event.message[:MAX_ATTR_CHARS],
            },
            start_time=owner.mark_ns,
        )
        child.end(end_time=now)
        owner.mark_ns = now

    # --- the root ----------------------------------------------------------------------
    def finish(self, result: Result) -> Result:
        """Annotate the root with the result and stamp ``result.trace_id``; returns ``result``."""
        attrs: dict[str, AttrValue | None] = {
            "helix.status": str(result.status),
            "helix.latency_ms": float(result.latency_ms),
            "helix.answers": len(result.answers),
            "helix.top_answer": result.answers[0].id if result.answers else None,
            "helix.evidence": len(result.evidence),
            "helix.paths": len(result.paths),
            "helix.stop_reason": result.stop_reason,
            "helix.intent": result.intent,
            "helix.mode": result.mode,
            "helix.cached": result.cached,
            "helix.memory_boosted": result.memory_boosted,
            "helix.degraded": list(result.degraded) or None,
        }
        for step, ms in result.timings.items():
            attrs[f"helix.timing.{step}_ms"] = float(ms)
        self.root.set_attributes({k: v for k, v in attrs.items() if v is not None})
        if result.degraded:
            self.root.add_event("degraded", {"reasons": list(result.degraded)})
        result.trace_id = self.trace_id
        return result

    def close(self, error: BaseException | None = None) -> None:
        with self._lock:
            now = time.time_ns()
            while self._open:  # steps the engine never closed (it raised mid-step)
                opened = self._open.pop()
                opened.span.set_attribute("helix.unclosed", True)
                opened.span.end(end_time=now)
            if error is not None:
                self.root.record_exception(error)
                self.root.set_status(Status(StatusCode.ERROR, type(error).__name__))
            self.root.end(end_time=now)


class Tracing:
    """Per-process tracing for the engine; ``question()`` traces one question."""

    def __init__(self, provider: TracerProvider, *, jsonl: Path | None = None) -> None:
        self.provider = provider
        self.jsonl = jsonl
        self._tracer = provider.get_tracer(SCOPE)

    @classmethod
    def from_settings(cls, settings: Settings, environ: Mapping[str, str] | None = None) -> Tracing:
        """Exporters: JSONL in each user's directory (``trace_exporter="jsonl"``, the default), plus
        OTLP/HTTP when ``trace_exporter="otlp"`` or an ``OTEL_EXPORTER_OTLP_*ENDPOINT`` is set
        (endpoint, headers, timeout and compression are read from ``OTEL_*`` by the exporter).
        ``OTEL_SERVICE_NAME``, ``OTEL_RESOURCE_ATTRIBUTES`` and ``OTEL_TRACES_SAMPLER`` are
        honoured by the SDK. ``environ`` defaults to ``os.environ``.
        """
        import os

        env = os.environ if environ is None else environ
        provider = TracerProvider(resource=_resource())
        jsonl: Path | None = None
        if settings.trace_exporter == "jsonl":
            jsonl = spans_path(settings)
            exporter = JsonlSpanExporter(lambda user: spans_path(settings, user))
            provider.add_span_processor(PerTraceProcessor(exporter))
        wants_otlp = settings.trace_exporter == "otlp" or any(
            env.get(v) for v in OTLP_ENDPOINT_VARS
        )
        if settings.trace_exporter != "none" and wants_otlp:
            otlp = otlp_exporter()
            if otlp is not None:
                provider.add_span_processor(BatchSpanProcessor(otlp))
        return cls(provider, jsonl=jsonl)

    @contextmanager
    def question(
        self,
        question: str,
        *,
        qid: str | None = None,
        mode: str | None = None,
        session: str | None = None,
        user: str | None = None,
    ) -> Iterator[QuestionTrace]:
        """A root span around one question; an exception marks it as an error and propagates."""
        attrs: dict[str, AttrValue | None] = {
            "helix.question": question[:300],
            "helix.qid": qid,
            "helix.mode": mode,
            "helix.session": session,
            "helix.user": user,
        }
        root = self._tracer.start_span(
            ROOT_SPAN,
            context=otel_trace.set_span_in_context(otel_trace.INVALID_SPAN),  # always a new trace
            attributes={k: v for k, v in attrs.items() if v is not None},
            start_time=time.time_ns(),
        )
        trace = QuestionTrace(self._tracer, root)
        try:
            yield trace
        except BaseException as exc:
            trace.close(exc)
            raise
        trace.close()

    def flush(self) -> None:
        self.provider.force_flush()

    def shutdown(self) -> None:
        self.provider.shutdown()


def _resource() -> Resource:
    resource = Resource.create()
    name = str(resource.attributes.get(SERVICE_NAME, ""))
    if not name or name.startswith("unknown_service"):
        resource = resource.merge(Resource({SERVICE_NAME: "helix"}))
    return resource


def otlp_exporter() -> SpanExporter | None:
    """The OTLP/HTTP exporter, or None (with a warning) when its package is not installed."""
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    except ImportError:
        log.warning(
            "OTLP export requested but opentelemetry-exporter-otlp-proto-http is not installed; "
            "spans go to the JSONL file only"
        )
        return None
    # typed through a variable: without the optional package installed the class is Any
    exporter: SpanExporter = OTLPSpanExporter()
    return exporter
