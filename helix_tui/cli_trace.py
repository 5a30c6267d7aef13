"""``helix-chat trace [ID|--last]``: print a question's span tree with timings."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from engine.config import Settings
from engine.telemetry.store import SpanNode, SpanRecord, build_tree, read_spans, resolve_trace_id
from engine.telemetry.store import roots as root_spans
from engine.telemetry.tracing import spans_path
from engine.util.text import user_id_problem

HIDDEN = {"helix.step", "helix.message", "helix.question", "helix.duration_ms"}
MAX_ATTRS = 6


def settings_from_context() -> Settings:
    """Settings for a subcommand: a ``Settings`` context object, or the ``helix-chat`` group's
    ``{"home": ..., "user": ...}`` dict applied over the environment."""
    ctx = click.get_current_context(silent=True)
    obj = ctx.find_root().obj if ctx is not None else None
    if isinstance(obj, Settings):
        return obj
    overrides: dict[str, Any] = {}
    if isinstance(obj, dict):
        if obj.get("home") is not None:
            overrides["home"] = obj["home"]
        if obj.get("user") is not None:
            overrides["user"] = obj["user"]
    return checked_settings(Settings(**overrides))


def checked_settings(settings: Settings) -> Settings:
    """``settings``, or a usage error naming what is wrong with its user id."""
    problem = user_id_problem(settings.user)
    if problem:
        raise click.UsageError(problem[0].upper() + problem[1:] + ".")
    return settings


def _attrs(span: SpanRecord) -> str:
    parts = []
    for key, value in span.attributes.items():
        if key in HIDDEN or key.startswith("helix.timing."):
            continue
        shown = ",".join(map(str, value)) if isinstance(value, list) else str(value)
        parts.append(f"{key.removeprefix('helix.')}={shown[:40]}")
    extra = len(parts) - MAX_ATTRS
    return "  ".join(parts[:MAX_ATTRS]) + (f"  (+{extra})" if extra > 0 else "")


def _label(node: SpanNode, origin: int) -> Text:
    span = node.span
    text = Text()
    text.append(f"{span.label:<18}", style="bold" if span.is_root else "cyan")
    text.append(f"{span.duration_ms:9.1f} ms", style="green")
    text.append(f"  @+{(span.start_ns - origin) / 1e6:.1f}", style="dim")
    if span.status == 2 or span.attributes.get("helix.unclosed"):
        text.append("  ERROR" if span.status == 2 else "  unclosed", style="red")
    attrs = _attrs(span)
    if attrs:
        text.append("  " + attrs, style="dim")
    return text


def render_tree(root: SpanNode) -> Tree:
    """A Rich tree of the spans under ``root``, with durations and start offsets."""
    origin = root.span.start_ns
    question = str(root.span.attributes.get("helix.question", ""))
    head = _label(root, origin)
    head.append(f"\n  trace {root.span.trace_id}", style="dim")
    if question:
        head.append(f"\n  {question}", style="italic")
    tree = Tree(head)

    def add(branch: Tree, node: SpanNode) -> None:
        for child in node.children:
            add(branch.add(_label(child, origin)), child)

    add(tree, root)
    return tree


def coverage_line(root: SpanNode) -> str:
    total = root.span.duration_ms
    steps = root.children_ms
    share = 100.0 * steps / total if total else 0.0
    latency = root.span.attributes.get("helix.latency_ms")
    reported = f"; reported latency {float(str(latency)):.1f} ms" if latency is not None else ""
    return f"steps {steps:.1f} ms of {total:.1f} ms ({share:.0f}%){reported}"


def _list_table(spans: list[SpanRecord], limit: int) -> Table:
    table = Table("trace", "when (UTC)", "status", "ms", "question", box=None)
    for r in root_spans(spans)[-limit:]:
        when = datetime.fromtimestamp(r.start_ns / 1e9, tz=UTC).strftime("%m-%d %H:%M:%S")
        question = str(r.attributes.get("helix.question", ""))
        table.add_row(
            r.trace_id[:12],
            when,
            str(r.attributes.get("helix.status", "?")),
            f"{r.duration_ms:.0f}",
            question[:60],
        )
    return table


@click.command("trace")
@click.argument("trace_id", required=False)
@click.option("--last", "last", is_flag=True, help="Show the most recent question's trace.")
@click.option("--list", "list_", is_flag=True, help="List recent traces instead of one tree.")
@click.option("-n", "limit", default=20, show_default=True, help="How many traces --list shows.")
def trace(trace_id: str | None, last: bool, list_: bool, limit: int) -> None:
    """Print the span tree of a question (by trace id or unique prefix, or --last)."""
    settings = settings_from_context()
    path = spans_path(settings)
    spans = read_spans(path)
    console = Console()
    if not spans:
        raise click.ClickException(
            f"no traces in {path} (is HELIX_TRACE_EXPORTER=jsonl and a question asked?)"
        )
    if list_:
        console.print(_list_table(spans, limit))
        return
    if trace_id and last:
        raise click.UsageError("give a trace id or --last, not both")
    try:
        resolved = resolve_trace_id(spans, None if last or not trace_id else trace_id)
    except LookupError as exc:
        raise click.ClickException(str(exc)) from exc
    root = build_tree(spans, resolved) if resolved else None
    if root is None:
        raise click.ClickException(f"no trace {trace_id!r} in {path}")
    console.print(render_tree(root))
    console.print(coverage_line(root), style="dim")
