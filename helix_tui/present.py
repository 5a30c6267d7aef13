"""Results, step events and timings as Markdown and short lines for the conversation."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from engine.events import StepEvent
from engine.export.hub import hub_line
from engine.result import Candidate, Evidence, Result, Status
from helix_tui.relations import triple_text

STEP_LABELS: dict[str, str] = {
    "plan": "Planning",
    "link": "Linking entities",
    "predict_edges": "Predicting relations",
    "walk": "Walking the graph",
    "dense": "Searching passages",
    "fuse": "Fusing evidence",
    "review": "Reviewing",
    "explain": "Explaining",
    "memory_read": "Reading memory",
    "memory_write": "Saving to memory",
}

Namer = Callable[[str], str]


def step_key(event: StepEvent) -> str:
    """Start and end of a step share a line; each progress event (a walk depth) gets its own."""
    if event.phase in ("start", "end"):
        return event.step
    depth = event.data.get("depth")
    return f"{event.step}:{depth if depth is not None else event.message}"


def step_label(event: StepEvent) -> str:
    return STEP_LABELS.get(event.step, event.step.replace("_", " ").capitalize())


_DETAIL_KEYS = (
    ("intent", "{}"),
    ("passages", "{} passages"),
    ("paths", "{} paths"),
    ("answers", "{} answers"),
    ("stop_reason", "stopped: {}"),
    ("confidence", "confidence {:.2f}"),
)


def step_detail(event: StepEvent) -> str:
    """A few facts from an end event's data: ``one_hop``, ``4 paths · stopped: answered``."""
    parts = []
    for key, fmt in _DETAIL_KEYS:
        value = event.data.get(key)
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            parts.append(fmt.format(value))
    if event.data.get("accepted") is not None:
        parts.insert(0, "accepted" if event.data["accepted"] else "not accepted")
    return " · ".join(parts)


def step_line(event: StepEvent) -> str:
    """``… Walking the graph`` while running, ``✓ Reviewing — accepted · 4 ms`` once done,
    ``  · depth 1: 1 nodes expanded, 4 paths`` for progress within a step."""
    label = step_label(event)
    if event.phase == "start":
        return f"… {label}"
    if event.phase != "end":
        return f"  · {event.message or label}"
    detail = step_detail(event)
    duration = event.data.get("duration_ms")
    timing = f" · {duration:.0f} ms" if isinstance(duration, int | float) else ""
    return f"✓ {label}" + (f" — {detail}" if detail else "") + timing


def steps_summary(
    events: Sequence[StepEvent], latency_ms: float, trace_hint: str = "ctrl+t trace"
) -> str:
    """One line once the answer is in: ``✓ 6 steps, walked to depth 2 · 84 ms · ctrl+t trace``
    (``trace_hint`` says how to see the step timings)."""
    steps = len({e.step for e in events if e.phase == "end"})
    depths = [d for e in events if isinstance(d := e.data.get("depth"), int)]
    parts = [f"✓ {steps} step{'s' * (steps != 1)}"]
    if depths:
        parts[0] += f", walked to depth {max(depths)}"
    if latency_ms:
        parts.append(f"{latency_ms:.0f} ms")
    parts.append(trace_hint)
    return " · ".join(parts)


def result_markdown(result: Result, name: Namer) -> str:
    if result.status is Status.NEEDS_CLARIFICATION:
        return clarification_markdown(result)
    if result.status is Status.NOT_ANSWERED:
        body = result.text.strip() or "I could not find this in the knowledge graph or your memory."
        return body if body.lower().startswith("not found") else f"**Not found.** {body}"
    parts = [result.text.strip()] if result.text.strip() else []
    if result.answers and not parts:
        lines = [
            f"{i}. **{a.name or name(a.id)}**"
            + (f" ({a.kind})" if a.kind else "")
            + f" — {a.score:.2f}"
            + (" · memory" if a.source == "memory" else "")
            for i, a in enumerate(result.answers[:5], 1)
        ]
        more = len(result.answers) - 5
        if more > 0:
            lines.append(f"\n…and {more} more in the evidence pane.")
        parts.append("\n".join(lines))
    if line := hub_line(result.hubs):
        parts.append(f"_{line}_")
    return "\n\n".join(parts) or "Answered, without a summary."


_PAUSE = re.compile(r"(?<![0-9])[.!?…](?=\s)|\n")


def reveal_steps(markdown: str, most: int = 40) -> list[str]:
    """Growing prefixes of ``markdown``, one more sentence (or line) each, ending with the
    whole text: what an answer shows while it appears. A list's ``1.`` is no sentence end."""
    ends = sorted({m.end() for m in _PAUSE.finditer(markdown)} - {len(markdown)})
    if len(ends) >= most:
        ends = ends[:: len(ends) // most + 1]
    steps = [markdown[:end].rstrip() for end in ends]
    return [s for s in dict.fromkeys(steps) if s] + [markdown]


def clarification_markdown(result: Result) -> str:
    question = result.clarification or "Which one do you mean?"
    return f"{question}\n\n{candidate_lines(result.candidates)}\n\n" + (
        "_Pick one in the dialog, or type its number or name._"
    )


def candidate_lines(candidates: Iterable[Candidate]) -> str:
    return "\n".join(
        f"{i}. **{c.name}** ({c.kind})" + (f" — {clip(c.detail, 90)}" if c.detail else "")
        for i, c in enumerate(candidates, 1)
    )


def clip(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def trace_markdown(result: Result | None, events: Sequence[StepEvent]) -> str:
    if result is None:
        return "No answer yet: ask something first."
    rows = ["| step | ms | note |", "| --- | ---: | --- |"]
    ends = {e.step: e for e in events if e.phase == "end"}
    for step, ms in result.timings.items():
        event = ends.get(step)
        note = step_detail(event) if event else ""
        rows.append(f"| {STEP_LABELS.get(step, step)} | {ms:.1f} | {_cell(note)} |")
    if not result.timings:
        rows += [
            f"| {step_label(e)} | {e.elapsed_ms:.1f} | {_cell(step_detail(e))} |"
            for e in ends.values()
        ]
    summary = [
        f"**Trace** of _{_cell(result.question) or 'last answer'}_",
        "",
        *rows,
        "",
        f"Total {result.latency_ms:.1f} ms · status {result.status.value}"
        + (f" · stopped: {result.stop_reason}" if result.stop_reason else ""),
    ]
    if result.trace_id:
        summary.append(f"Trace id `{result.trace_id}`")
    return "\n".join(summary)


def timings_line(timings: Mapping[str, float]) -> str:
    return " · ".join(f"{step} {ms:.0f} ms" for step, ms in timings.items())


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


EVIDENCE_KIND = {"triple": "KG", "passage": "text", "memory": "memory"}
"""How each kind of evidence is labelled in the evidence table."""


def evidence_line(ev: Evidence, name: Namer) -> str:
    """One row of evidence as text: the triple it states, else the passage's id and start."""
    if ev.triple:
        return triple_text(ev.triple, name)
    text = " ".join((ev.text or "").split())
    label = ev.id or ""
    if text:
        return f"{label}: {text[:80]}" if label else text[:80]
    return label or "(no text)"


def banner_lines(result: Result) -> list[str]:
    """What is said over an answer: boosted by memory, from the cache, degraded."""
    flags = []
    if result.memory_boosted:
        flags.append("★ Boosted by your memory: verified facts raised some answers")
    if result.cached:
        flags.append("↺ From your answer cache")
    if result.degraded:
        flags.append("⚠ Degraded: " + ", ".join(result.degraded))
    return flags
