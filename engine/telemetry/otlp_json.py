"""OTLP/JSON encoding of finished spans (the wire format of ``ExportTraceServiceRequest``).

One span per line, each line a complete ``{"resourceSpans": [...]}`` request: the shape the
OpenTelemetry Collector's ``otlpjsonfile`` receiver reads, and ``jq``-friendly. Ids are hex
strings and 64-bit integers decimal strings, as the OTLP/JSON spec requires.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan

JSON = dict[str, Any]


def any_value(value: object) -> JSON:
    """An OTLP ``AnyValue``."""
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, str):
        return {"stringValue": value}
    if isinstance(value, Sequence):
        return {"arrayValue": {"values": [any_value(v) for v in value]}}
    return {"stringValue": str(value)}


def key_values(attrs: Mapping[str, object] | None) -> list[JSON]:
    return [{"key": k, "value": any_value(v)} for k, v in (attrs or {}).items()]


def decode_value(value: Mapping[str, Any]) -> object:
    """The Python value of an OTLP ``AnyValue`` (inverse of ``any_value``)."""
    if "stringValue" in value:
        return str(value["stringValue"])
    if "boolValue" in value:
        return bool(value["boolValue"])
    if "intValue" in value:
        return int(value["intValue"])
    if "doubleValue" in value:
        return float(value["doubleValue"])
    if "arrayValue" in value:
        return [decode_value(v) for v in value["arrayValue"].get("values", [])]
    return None


def decode_attributes(items: Sequence[Mapping[str, Any]] | None) -> dict[str, object]:
    return {str(i["key"]): decode_value(i.get("value", {})) for i in items or []}


def encode_span(span: ReadableSpan) -> JSON:
    ctx = span.get_span_context()
    assert ctx is not None
    out: JSON = {
        "traceId": f"{ctx.trace_id:032x}",
        "spanId": f"{ctx.span_id:016x}",
        "parentSpanId": f"{span.parent.span_id:016x}" if span.parent else "",
        "name": span.name,
        "kind": span.kind.value + 1,  # SDK INTERNAL=0 ... ; OTLP SPAN_KIND_INTERNAL=1 ...
        "startTimeUnixNano": str(span.start_time or 0),
        "endTimeUnixNano": str(span.end_time or 0),
        "attributes": key_values(span.attributes),
        "status": {"code": span.status.status_code.value},
    }
    if span.status.description:
        out["status"]["message"] = span.status.description
    if span.events:
        out["events"] = [
            {
                "timeUnixNano": str(e.timestamp),
                "name": e.name,
                "attributes": key_values(e.attributes),
            }
            for e in span.events
        ]
    return out


def encode_request(span: ReadableSpan) -> JSON:
    """One ``ExportTraceServiceRequest`` holding ``span`` with its resource and scope."""
    scope: JSON = {"name": span.instrumentation_scope.name if span.instrumentation_scope else ""}
    if span.instrumentation_scope and span.instrumentation_scope.version:
        scope["version"] = span.instrumentation_scope.version
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": key_values(span.resource.attributes)},
                "scopeSpans": [{"scope": scope, "spans": [encode_span(span)]}],
            }
        ]
    }
