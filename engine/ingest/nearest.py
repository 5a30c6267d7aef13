"""Disease names the graph lacks, read as its nearest diseases by the Disease Ontology.

Hetionet holds 137 diseases; people name thousands. A Disease Ontology term that is not one of
the graph's diseases gets the graph's diseases nearest to it in the ontology as aliases (a term
that is a category, ``MAX_TERM_DESCENDANTS``, stands for none):

- the graph's diseases under it, when there are at most ``MAX_NARROWER`` of them ("lupus",
  DO's lupus erythematosus, is the graph's systemic lupus erythematosus; "HIV infection" its
  acquired immunodeficiency syndrome; "diabetes mellitus" its types 1 and 2 and gestational
  diabetes, among which the user is asked to choose);
- else the graph's nearest disease above it, at most ``MAX_BROADER_STEPS`` levels up
  ("status epilepticus" is read as epilepsy, "heart attack" as coronary artery disease).

The alias source says which (``NARROWER``, ``BROADER``), so an answer can say how a name was
read. Names are the term's DO label and its names in DO's term-names table.
"""

from __future__ import annotations

import csv
from collections import defaultdict, deque
from collections.abc import Iterable, Iterator
from pathlib import Path

MAX_NARROWER = 3
"""A term with more of the graph's diseases under it ("cancer") names a group, not one of them."""
MAX_TERM_DESCENDANTS = 60
"""A term with more terms under it in the ontology is a category ("syndrome": 983, "kidney
disease": 185), named for what it groups, not one disease; "diabetes mellitus" has 45."""
MAX_BROADER_STEPS = 2
"""A disease further up than this is too general to stand for the term."""
NARROWER = "disease-ontology-narrower"
LABEL = "disease-ontology-label"
"""The alias source of a graph disease's own Disease Ontology label."""
BROADER = "disease-ontology-broader"


class Hierarchy:
    """DO terms (id -> label) and their parents, from ``HumanDO.tsv`` (id, label, the
    parent's label)."""

    def __init__(self, rows: Iterable[tuple[str, str, str]]) -> None:
        rows = list(rows)
        self.label = {doid: label for doid, label, _ in rows}
        by_label = {label: doid for doid, label, _ in rows}
        self.parents: dict[str, set[str]] = defaultdict(set)
        self.children: dict[str, set[str]] = defaultdict(set)
        for doid, _, parent in rows:
            if parent in by_label and by_label[parent] != doid:
                self.parents[doid].add(by_label[parent])
                self.children[by_label[parent]].add(doid)

    @classmethod
    def read(cls, path: Path) -> Hierarchy:
        with path.open(encoding="utf-8", newline="") as fh:
            reader = csv.reader(fh, delimiter="\t")
            next(reader, None)
            return cls(
                (r[0], r[1], r[2]) for r in reader if len(r) >= 3 and r[0].startswith("DOID:")
            )

    def below(self, doid: str, keep: set[str]) -> list[str]:
        """The terms in ``keep`` anywhere under ``doid``, nearest first."""
        return [t for t, _ in self._walk(doid, self.children) if t in keep]

    def size_below(self, doid: str) -> int:
        """How many terms are under ``doid``."""
        return sum(1 for _ in self._walk(doid, self.children))

    def above(self, doid: str, keep: set[str], steps: int) -> list[str]:
        """The terms in ``keep`` nearest above ``doid`` (all at the least distance), at most
        ``steps`` levels up."""
        found = [(t, d) for t, d in self._walk(doid, self.parents) if t in keep and d <= steps]
        if not found:
            return []
        least = min(d for _, d in found)
        return sorted(t for t, d in found if d == least)

    @staticmethod
    def _walk(start: str, edges: dict[str, set[str]]) -> Iterator[tuple[str, int]]:
        seen = {start}
        queue = deque([(start, 0)])
        while queue:
            node, depth = queue.popleft()
            for nxt in sorted(edges.get(node, ())):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append((nxt, depth + 1))
                    yield nxt, depth + 1


def nearest(h: Hierarchy, doid: str, graph: set[str]) -> tuple[list[str], str] | None:
    """The graph's diseases a term not in it stands for, and the alias source that says how
    (None: none near enough)."""
    if h.size_below(doid) > MAX_TERM_DESCENDANTS:
        return None
    under = h.below(doid, graph)
    if 1 <= len(under) <= MAX_NARROWER:
        return under, NARROWER
    if under:
        return None
    over = h.above(doid, graph, MAX_BROADER_STEPS)
    return (over, BROADER) if over else None


def nearest_rows(
    h: Hierarchy, names: Iterable[tuple[str, str]], graph: set[str]
) -> Iterator[tuple[str, str, str]]:
    """(alias, node id, source) rows: each name of a DO term the graph lacks, for each of the
    graph's diseases nearest to it; and the DO label of each graph disease. ``names`` are
    (DOID, name) pairs from DO's term-names table; ``graph`` the graph's DOIDs."""
    named: dict[str, set[str]] = defaultdict(set)
    for doid, label in h.label.items():
        named[doid].add(label)
    for doid, name in names:
        named[doid].add(name)
    for doid in sorted(named):
        if doid in graph:
            if h.label.get(doid):
                yield h.label[doid], f"Disease::{doid}", LABEL
            continue
        near = nearest(h, doid, graph)
        if near is None:
            continue
        targets, source = near
        for name in sorted(named[doid]):
            for t in targets:
                yield name, f"Disease::{t}", source
