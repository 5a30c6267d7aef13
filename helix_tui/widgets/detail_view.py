"""Details of the selected evidence row or path hop: passage text or node facts."""

from __future__ import annotations

from textual.widgets import Markdown

from engine.graph.relations import backward_hop, forward_hop
from engine.result import Evidence, Triple
from helix_tui.relations import Namer, kind_of, triple_text, verb

HINT = "_Select an evidence row or a path hop to see its details._"


class DetailView(Markdown):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(HINT, id=id, classes="detail")


def evidence_markdown(ev: Evidence, name: Namer) -> str:
    if ev.triple:
        lines = [triple_markdown(ev.triple, name, ev.source)]
    else:
        title = f"**Passage** `{ev.id}`" if ev.id else "**Passage**"
        lines = [title, "", ev.text or "_No text stored for this passage._"]
    lines += ["", f"score {ev.score:.3f}" + (f" · source {ev.source}" if ev.source else "")]
    return "\n".join(lines)


def triple_markdown(triple: Triple, name: Namer, source: str | None = None) -> str:
    subj, rel, obj = triple
    return "\n".join(
        [
            triple_text(triple, lambda node: f"**{name(node)}**"),
            "",
            f"- subject: {name(subj)} · {kind_of(subj) or 'entity'} · `{subj}`",
            f"- relation: {verb(rel)} · `{rel}`",
            f"- object: {name(obj)} · {kind_of(obj) or 'entity'} · `{obj}`",
            f"- source of this edge: {source or 'not recorded with the answer'}",
        ]
    )


def description_markdown(node_id: str, name: Namer, description: str | None) -> str:
    """A node's description from the graph (a DO definition, a gene's full name)."""
    head = f"**{name(node_id)}** · {kind_of(node_id) or 'entity'}"
    text = " ".join((description or "").split())
    if len(text) > 600:
        text = text[:599].rstrip() + "…"
    return f"{head}: {text}" if text else f"{head}: _no description in the graph._"


def node_markdown(node_id: str, name: Namer, triples: list[Triple]) -> str:
    lines = [f"Other edges of **{name(node_id)}** · `{node_id}`", ""]
    if not triples:
        lines.append("_No other edges found._")
    for subj, rel, obj in triples:
        if subj == node_id:
            lines.append(f"- {forward_hop(rel)} {name(obj)}")
        else:
            lines.append(f"- {backward_hop(rel)} {name(subj)}")
    return "\n".join(lines)
