"""The reading of an overview question ("tell me about X"): a fixed distribution over the
one-hop relations that say most about a node of each kind.

Planner-side data: the planner reads which question is asked; this module says which
relations answer "everything about" a kind, most telling first.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.graph.metapaths import Metapath
from engine.graph.relations import DirectedRel, directed_uses

OVERVIEW_USES: dict[str, tuple[str, ...]] = {
    "Disease": ("CtD^-1", "DpS", "DaG", "DrD", "DlA", "CpD^-1"),
    "Compound": ("CtD", "CbG", "PCiC^-1", "CpD", "CrC", "CcSE"),
    "Gene": ("DaG^-1", "CbG^-1", "GiG", "GpPW"),
    "Symptom": ("DpS^-1",),
    "Anatomy": ("DlA^-1",),
    "Pharmacologic Class": ("PCiC",),
    "Side Effect": ("CcSE^-1",),
}
"""Directed uses that describe a node of each kind, most telling first."""

FALLBACK_USES = 4
"""For a kind without an entry: this many of its relations, in schema order."""


def overview_dist(
    kind: str, has: Callable[[DirectedRel], bool] | None = None
) -> list[tuple[Metapath, float]]:
    """One-hop readings of an overview of a ``kind`` node, weighted 1, 1/2, 1/3, ...
    (normalised). With ``has`` (whether the node has edges of a relation), only the relations
    the node has are read: an overview of a drug known only by its look-alikes lists those."""
    uses = {u.key: u for u in directed_uses()}
    keys = [k for k in OVERVIEW_USES.get(kind, ()) if k in uses]
    if not keys:
        keys = [u.key for u in directed_uses() if u.src == kind][:FALLBACK_USES]
    if has is not None:
        own = [k for k in keys if has(uses[k])] or [
            u.key for u in directed_uses() if u.src == kind and has(u)
        ][:FALLBACK_USES]
        keys = own or keys
    weights = [1.0 / (i + 1) for i in range(len(keys))]
    z = sum(weights)
    return [(Metapath((uses[k],)), w / z) for k, w in zip(keys, weights, strict=True)]
