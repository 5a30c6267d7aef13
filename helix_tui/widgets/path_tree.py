"""The KG paths of an answer as a tree: one branch per path, one leaf per hop."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Tree

from engine.result import Path, Triple
from helix_tui.relations import Namer, path_end, path_steps, path_text


@dataclass(frozen=True)
class Hop:
    """Data of a tree node: the path it belongs to and, for a hop, its triple."""

    path: int
    triple: Triple | None = None


class PathTree(Tree[Hop]):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("Paths", id=id)
        self.show_root = False
        self.guide_depth = 3

    def show_paths(
        self, paths: Sequence[Path], name: Namer, sources: Mapping[Triple, str] | None = None
    ) -> None:
        """One branch per path; each hop names the source of its edge when known.

        A path of several hops is shown one hop a line, as it is walked (``—binds→ ACHE``
        under ``Donepezil``), so a three-hop path stays readable in a narrow pane."""
        self.clear()
        self.root.set_label(Text(f"Paths ({len(paths)})"))
        cite = sources or {}
        for i, path in enumerate(paths, 1):
            if len(path) == 1:
                label = Text(f"{i}. {path_text(path, name)}")
                label.append(_source(cite.get(path[0])), style="dim")
                self.root.add_leaf(label, data=Hop(i, tuple(path[0])))  # type: ignore[arg-type]
                continue
            steps = path_steps(path, name)
            label = Text(f"{i}. {steps[0]} ⇢ {name(path_end(path))}")
            label.append(f"  ({len(path)} hops)", style="dim")
            branch = self.root.add(label, data=Hop(i), expand=i <= 5)
            for step, triple in zip(steps[1:], path, strict=True):
                hop = Text(step)
                hop.append(_source(cite.get(triple)), style="dim")
                branch.add_leaf(hop, data=Hop(i, tuple(triple)))  # type: ignore[arg-type]
        if not paths:
            self.root.add_leaf(Text("No knowledge-graph path for this answer."))
        self.root.expand()


def _source(label: str | None) -> str:
    return f"  ({label})" if label else ""
