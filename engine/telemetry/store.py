"""Reading traces back from the JSONL export: span records, trace lookup, span trees."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.telemetry.otlp_json import decode_attributes


@dataclass(frozen=True)
class SpanRecord:
    trace_id: str
    span_id: str
    parent_id: str
    name: str
    start_ns: int
    end_ns: int
    attributes: dict[str, object]
    status: int = 0

    @property
    def duration_ms(self) -> float:
        return max(0, self.end_ns - self.start_ns) / 1e6

    @property
    def is_root(self) -> bool:
        return not self.parent_id

    @property
    def step(self) -> str:
        return self.name.removeprefix("helix.")

    @property
    def label(self) -> str:
        """``walk d=2`` for the walk's depth-2 sub-span, else the step name."""
        if self.step.endswith(".depth"):
            return f"{self.step.removesuffix('.depth')} d={self.attributes.get('helix.depth')}"
        return self.step


@dataclass
class SpanNode:
    span: SpanRecord
    children: list[SpanNode] = field(default_factory=list)

    @property
    def children_ms(self) -> float:
        return sum(c.span.duration_ms for c in self.children)


def _records(line: str) -> Iterator[SpanRecord]:
    data: dict[str, Any] = json.loads(line)
    for rs in data.get("resourceSpans", []):
        for ss in rs.get("scopeSpans", []):
            for s in ss.get("spans", []):
                yield SpanRecord(
                    trace_id=str(s["traceId"]),
                    span_id=str(s["spanId"]),
                    parent_id=str(s.get("parentSpanId") or ""),
                    name=str(s.get("name", "")),
                    start_ns=int(s.get("startTimeUnixNano", 0)),
                    end_ns=int(s.get("endTimeUnixNano", 0)),
                    attributes=decode_attributes(s.get("attributes")),
                    status=int(s.get("status", {}).get("code", 0)),
                )


def read_spans(path: Path) -> list[SpanRecord]:
    """All spans in ``path`` (and its rotated ``.1`` predecessor); bad lines are skipped."""
    spans: list[SpanRecord] = []
    for p in (path.with_name(path.stem + ".1.jsonl"), path):
        if not p.exists():
            continue
        with p.open(encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if not line.strip():
                    continue
                try:
                    spans.extend(_records(line))
                except (ValueError, KeyError, TypeError):
                    continue
    return spans


def roots(spans: list[SpanRecord]) -> list[SpanRecord]:
    """Root spans (one per question), oldest first."""
    return sorted((s for s in spans if s.is_root), key=lambda s: s.start_ns)


def resolve_trace_id(spans: list[SpanRecord], ref: str | None) -> str | None:
    """The trace id matching ``ref`` (a full id or a unique prefix); ``None`` means the last."""
    ids = [s.trace_id for s in roots(spans)]
    if ref is None:
        return ids[-1] if ids else None
    ref = ref.lower()
    matches = sorted({t for t in ids if t.startswith(ref)})
    if len(matches) > 1:
        raise LookupError(f"trace id prefix {ref!r} is ambiguous ({len(matches)} traces)")
    return matches[0] if matches else None


def build_tree(spans: list[SpanRecord], trace_id: str) -> SpanNode | None:
    """The span tree of one trace, children in start order; orphans hang under the root."""
    mine = sorted((s for s in spans if s.trace_id == trace_id), key=lambda s: s.start_ns)
    nodes = {s.span_id: SpanNode(s) for s in mine}
    root: SpanNode | None = None
    orphans: list[SpanNode] = []
    for node in nodes.values():
        if node.span.is_root:
            root = root or node
        elif node.span.parent_id in nodes:
            nodes[node.span.parent_id].children.append(node)
        else:
            orphans.append(node)
    if root is not None:
        root.children.extend(orphans)
        root.children.sort(key=lambda n: n.span.start_ns)
    return root
