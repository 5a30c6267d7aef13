"""A short (<= 2 KB) summary of one chat session's traces, archived under the data home.

The summary is rendered locally from ``prompts/trace_summary.md``; when the ``summary`` LLM
feature is enabled, the LLM rewrites that report (``prompts/trace_summary_llm.md``) and the
template text is kept on any failure.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path

import prompts
from engine.config import Settings
from engine.providers.llm.provider import LLMProvider
from engine.providers.llm.schemas import SessionSummary
from engine.telemetry.store import SpanRecord, read_spans
from engine.telemetry.tracing import spans_path
from engine.util.text import safe_user_id

MAX_BYTES = 2048


def _fit(text: str, limit: int = MAX_BYTES) -> str:
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[: limit - 3].decode("utf-8", errors="ignore").rstrip() + "..."


def _when(ns: int) -> str:
    return datetime.fromtimestamp(ns / 1e9, tz=UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{k} x{n}" for k, n in counter.most_common()) or "none"


def _report_vars(session: str, spans: list[SpanRecord], trace_ids: list[str]) -> dict[str, str]:
    wanted = set(trace_ids)
    mine = [s for s in spans if s.trace_id in wanted]
    roots = sorted((s for s in mine if s.is_root), key=lambda s: s.start_ns)
    steps = [s for s in mine if not s.is_root]
    latencies = [float(str(r.attributes.get("helix.latency_ms", r.duration_ms))) for r in roots]
    per_step: dict[str, list[float]] = defaultdict(list)
    for s in steps:
        per_step[s.step].append(s.duration_ms)
    slowest = max(steps, key=lambda s: s.duration_ms, default=None)
    degraded: Counter[str] = Counter()
    for r in roots:
        reasons = r.attributes.get("helix.degraded") or []
        degraded.update(str(x) for x in (reasons if isinstance(reasons, list) else [reasons]))
    step_hits = sum(
        int(str(v))
        for s in steps
        for k, v in s.attributes.items()
        if k.endswith("cache_hits") and str(v).isdigit()
    )
    cached_answers = sum(1 for r in roots if r.attributes.get("helix.cached") is True)
    if latencies:
        ordered = sorted(latencies)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        latency = (
            f"median {statistics.median(ordered):.0f} ms, p95 {p95:.0f} ms, "
            f"max {ordered[-1]:.0f} ms"
        )
        span = f"{_when(roots[0].start_ns)} -> {_when(max(r.end_ns for r in roots))}"
    else:
        latency, span = "n/a", "no recorded spans"
    return {
        "session": session,
        "questions": str(len(roots)),
        "span": span,
        "latency": latency,
        "statuses": _counts(Counter(str(r.attributes.get("helix.status", "?")) for r in roots)),
        "steps": ", ".join(
            f"{name} {sum(ms):.0f}/{len(ms)}"
            for name, ms in sorted(per_step.items(), key=lambda kv: -sum(kv[1]))
        )
        or "none",
        "slowest": (
            f"{slowest.label} {slowest.duration_ms:.0f} ms (trace {slowest.trace_id[:12]})"
            if slowest
            else "n/a"
        ),
        "degraded": _counts(degraded),
        "cache": f"{cached_answers} answer(s) from the answer cache, {step_hits} step cache hit(s)",
        "items": "",
    }


def _items(roots: list[SpanRecord]) -> list[str]:
    lines = []
    for r in roots:
        q = " ".join(str(r.attributes.get("helix.question", "")).split())
        q = q if len(q) <= 70 else q[:67] + "..."
        status = r.attributes.get("helix.status", "?")
        lines.append(f"- {r.trace_id[:12]} {status} {r.duration_ms:.0f} ms: {q}")
    return lines


def summarize_session(
    settings: Settings,
    trace_ids: list[str],
    *,
    session: str = "session",
    llm: LLMProvider | None = None,
) -> str:
    """A report of the questions traced as ``trace_ids``: at most 2 KB of UTF-8 text."""
    spans = read_spans(spans_path(settings))
    variables = _report_vars(session, spans, trace_ids)
    wanted = set(trace_ids)
    items = _items(
        sorted((s for s in spans if s.is_root and s.trace_id in wanted), key=lambda s: s.start_ns)
    )
    template = prompts.load("trace_summary")
    shown = len(items)
    while True:
        more = [f"- ... {len(items) - shown} more"] if shown < len(items) else []
        variables["items"] = "\n".join(items[:shown] + more) or "- none"
        text = template.render(**variables).strip()
        if len(text.encode("utf-8")) <= MAX_BYTES or shown == 0:
            break
        shown -= 1
    text = _fit(text)
    if llm is not None and llm.enabled("summary"):
        outcome = llm.complete_json("trace_summary_llm", {"report": text}, SessionSummary)
        if outcome.value is not None:
            return _fit(outcome.value.text.strip())
    return text


def archive_session_summary(
    settings: Settings,
    session: str,
    trace_ids: list[str],
    *,
    llm: LLMProvider | None = None,
) -> Path:
    """Write the session's summary to ``<home>/traces/sessions/<session>.md``; returns the path."""
    text = summarize_session(settings, trace_ids, session=session, llm=llm)
    path = settings.home / "traces" / "sessions" / f"{safe_user_id(session)}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n", encoding="utf-8")
    return path
