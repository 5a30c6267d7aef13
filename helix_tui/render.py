"""Rich rendering of a result for ``helix-chat ask``."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from engine.export.hub import hub_line
from engine.graph.relations import triple_text
from engine.result import Result, Status

STATUS_STYLE = {
    Status.ANSWERED: "green",
    Status.NEEDS_CLARIFICATION: "yellow",
    Status.NOT_ANSWERED: "red",
}


def render_result(result: Result) -> RenderableType:
    """The answer panel, then candidates, answers, paths (node names from the result),
    passages, timings and degradations."""
    names = result.all_names()

    def nm(node: str) -> str:
        return names.get(node) or node

    parts: list[RenderableType] = [
        Panel(
            Markdown(result.text or "(no text)"),
            title=f"[{STATUS_STYLE[result.status]}]{result.status.value}[/]",
            subtitle=f"{result.intent or ''} · {result.latency_ms:.0f} ms",
            expand=True,
        )
    ]
    if hub := hub_line(result.hubs):
        parts.append(Text(hub, style="bold"))
    if result.candidates:
        t = Table("#", "candidate", "kind", "id", title="Did you mean")
        for i, c in enumerate(result.candidates, 1):
            t.add_row(str(i), c.name, c.kind, c.id)
        parts.append(t)
    if result.answers:
        t = Table("#", "answer", "kind", "score", "id", title="Answers")
        for i, a in enumerate(result.answers[:10], 1):
            t.add_row(str(i), a.name, a.kind or "", f"{a.score:.3f}", a.id)
        parts.append(t)
    if result.paths:
        cite = {
            tuple(e.triple): e.source
            for e in result.evidence
            if e.kind == "triple" and e.triple and e.source
        }
        tree = Tree("Paths")
        for path in result.paths[:5]:
            line = Text(" · ".join(triple_text(t, nm) for t in path))
            for label in dict.fromkeys(cite.get(tuple(t), "") for t in path):
                if label:
                    line.append(f"  ({label})", style="dim")
            tree.add(line)
        parts.append(tree)
    retrieved = [e for e in result.evidence if e.kind == "passage"]
    passages = [e for e in retrieved if e.relevant is not False][:3]
    if retrieved and not passages:
        parts.append(Text(f"{len(retrieved)} passages retrieved, none relevant", style="dim"))
    if passages:
        t = Table("passage", "score", "text", title="Passages", show_lines=False)
        for e in passages:
            text = (e.text or "")[:160]
            t.add_row(e.id or "", f"{e.score:.3f}", text)
        parts.append(t)
    foot = " · ".join(f"{k} {v:.0f} ms" for k, v in result.timings.items())
    if result.stop_reason:
        foot = f"stop: {result.stop_reason} · {foot}"
    parts.append(Text(foot, style="dim"))
    if result.degraded:
        parts.append(Text("degraded: " + ", ".join(result.degraded), style="yellow"))
    return Group(*parts)
