"""A span exporter appending OTLP/JSON lines to each user's ``traces/spans.jsonl``.

A trace is written to the file of the user its root span names (``helix.user``), so one user's
questions never show up in another user's ``helix-chat trace``. Spans whose root never ended
(dropped under memory pressure) are not written: their user is unknown.

``PerTraceProcessor`` holds a question's spans in memory and hands them to the exporter in one
write when the root span ends: nothing is written between two steps (so the steps' timings
add up to the question's latency), and ``helix-chat trace --last`` can read the trace the moment
the question is answered. Writes are serialised by a lock and done in append mode, which keeps
lines from several processes whole. The file rotates to ``spans.1.jsonl`` past ``max_bytes``.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from opentelemetry.context import Context
from opentelemetry.sdk.trace import ReadableSpan, Span, SpanProcessor
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

from engine.telemetry.otlp_json import encode_request

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
USER_ATTR = "helix.user"

log = logging.getLogger(__name__)


def _trace_user(spans: Sequence[ReadableSpan]) -> str | None:
    for s in spans:
        if s.parent is None or not s.parent.is_valid:
            user = (s.attributes or {}).get(USER_ATTR)
            return str(user) if user is not None else None
    return None


class JsonlSpanExporter(SpanExporter):
    """Appends each trace to ``path_for(user)``; a fixed ``Path`` serves every user."""

    def __init__(
        self, path: Path | Callable[[str | None], Path], max_bytes: int = DEFAULT_MAX_BYTES
    ) -> None:
        self._path_for = path if callable(path) else (lambda _user: path)
        self.max_bytes = max_bytes
        self._lock = threading.Lock()

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        if not any(s.parent is None or not s.parent.is_valid for s in spans):
            log.debug("dropping %d spans of a trace whose root never ended", len(spans))
            return SpanExportResult.SUCCESS
        path = self._path_for(_trace_user(spans))
        # ASCII escapes keep a question holding lone surrogates writable and readable
        lines = "".join(
            json.dumps(encode_request(s), separators=(",", ":"), ensure_ascii=True) + "\n"
            for s in spans
        )
        try:
            with self._lock:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._rotate(path)
                with path.open("a", encoding="utf-8") as fh:
                    fh.write(lines)
        except OSError as exc:
            log.warning("traces not written to %s: %s", path, exc)
            return SpanExportResult.FAILURE
        return SpanExportResult.SUCCESS

    def _rotate(self, path: Path) -> None:
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            return
        if size >= self.max_bytes:
            path.replace(path.with_name(path.stem + ".1.jsonl"))

    def shutdown(self) -> None:
        return None

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return True


class PerTraceProcessor(SpanProcessor):
    """Buffers ended spans per trace; exports a trace's spans together when its root ends."""

    def __init__(self, exporter: SpanExporter, max_pending: int = 256) -> None:
        self.exporter = exporter
        self.max_pending = max_pending
        self._pending: dict[int, list[ReadableSpan]] = {}
        self._lock = threading.Lock()

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        return None

    def on_end(self, span: ReadableSpan) -> None:
        ctx = span.get_span_context()
        if ctx is None or not ctx.trace_flags.sampled:
            return
        with self._lock:
            self._pending.setdefault(ctx.trace_id, []).append(span)
            ready: list[ReadableSpan] = []
            if span.parent is None or not span.parent.is_valid:
                ready = self._pending.pop(ctx.trace_id)
            elif len(self._pending) > self.max_pending:  # roots that never end: do not grow
                ready = self._pending.pop(next(iter(self._pending)))
        if ready:
            self.exporter.export(ready)

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        with self._lock:
            pending, self._pending = self._pending, {}
        for spans in pending.values():
            self.exporter.export(spans)
        return True

    def shutdown(self) -> None:
        self.force_flush()
        self.exporter.shutdown()
