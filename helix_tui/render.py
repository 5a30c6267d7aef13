"""Rich rendering of a result: the whole of it for ``helix-chat ask``; its path tree and
evidence table for ``--inline``."""

from __future__ import annotations

from rich.box import HEAVY_HEAD, Box
from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from engine.export.hub import hub_line
from engine.graph.relations import triple_text
from engine.result import Result, Status
from helix_tui.present import EVIDENCE_KIND, Namer, evidence_line
from helix_tui.relations import path_end, path_steps, path_text

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


def edge_sources(result: Result) -> dict[tuple[str, str, str], str]:
    """Triple -> the source of its edge, from the answer's evidence."""
    return {
        (e.triple[0], e.triple[1], e.triple[2]): e.source
        for e in result.evidence
        if e.kind in ("triple", "memory") and e.triple and e.source
    }


def path_tree(result: Result, name: Namer, most: int = 5) -> Tree:
    """The answer's paths as the chat's path pane shows them: a one-hop path on one line, a
    longer one as a branch with one hop a line, each hop with the source of its edge."""
    cite = edge_sources(result)
    tree = Tree(Text(f"Paths ({len(result.paths)})", style="bold"))
    for i, path in enumerate(result.paths[:most], 1):
        if len(path) == 1:
            label = Text(f"{i}. {path_text(path, name)}")
            label.append(_cited(cite.get(tuple(path[0]))), style="dim")  # type: ignore[arg-type]
            tree.add(label)
            continue
        steps = path_steps(path, name)
        label = Text(f"{i}. {steps[0]} ⇢ {name(path_end(path))}")
        label.append(f"  ({len(path)} hops)", style="dim")
        branch = tree.add(label)
        for step, triple in zip(steps[1:], path, strict=True):
            hop = Text(step)
            hop.append(_cited(cite.get(tuple(triple))), style="dim")  # type: ignore[arg-type]
            branch.add(hop)
    if len(result.paths) > most:
        tree.add(Text(f"…and {len(result.paths) - most} more", style="dim"))
    return tree


def evidence_table(
    result: Result, name: Namer, most: int = 8, box: Box | None = HEAVY_HEAD
) -> Table:
    """The answer's evidence as the chat's evidence pane lists it (off-topic passages dim)."""
    more = len(result.evidence) > most
    title = "Evidence" + (f" (top {most} of {len(result.evidence)})" if more else "")
    table = Table(
        "#",
        "score",
        "kind",
        "evidence",
        "source",
        title=title,
        title_justify="left",
        box=box,
        show_edge=False,
    )
    for i, ev in enumerate(result.evidence[:most], 1):
        off_topic = ev.kind == "passage" and ev.relevant is False
        kind = EVIDENCE_KIND.get(ev.kind, ev.kind) + (" (off-topic)" if off_topic else "")
        table.add_row(
            str(i),
            f"{ev.score:.2f}",
            kind,
            Text(evidence_line(ev, name)),
            Text(ev.source or ""),
            style="dim" if off_topic else None,
        )
    return table


def _cited(source: str | None) -> str:
    return f"  ({source})" if source else ""
