"""Relation abbreviations as verbs, and triples and paths written as readable chains."""

from __future__ import annotations

from collections.abc import Callable, Sequence

VERBS: dict[str, str] = {
    "AdG": "downregulates",
    "AeG": "expresses",
    "AuG": "upregulates",
    "CbG": "binds",
    "CcSE": "causes",
    "CdG": "downregulates",
    "CpD": "palliates",
    "CrC": "resembles",
    "CtD": "treats",
    "CuG": "upregulates",
    "DaG": "associates",
    "DdG": "downregulates",
    "DlA": "localizes",
    "DpS": "presents",
    "DrD": "resembles",
    "DuG": "upregulates",
    "GcG": "covaries",
    "GiG": "interacts",
    "GpBP": "participates",
    "GpCC": "participates",
    "GpMF": "participates",
    "GpPW": "participates",
    "Gr>G": "regulates",
    "PCiC": "includes",
    "DsD": "is a subtype of",
}
"""Hetionet metaedge abbreviation -> verb. Other relations (memory facts) are shown as written."""

Namer = Callable[[str], str]
TripleLike = Sequence[str]


def verb(rel: str) -> str:
    return VERBS.get(rel, rel.replace("_", " "))


def short_id(node_id: str) -> str:
    """A readable stand-in for a node without a name.

    ``Compound::DB00843`` -> ``DB00843``, ``patient:4471`` -> ``MRN 4471``,
    ``note:crispr-screen`` -> ``note crispr-screen``; other ids unchanged.
    """
    if "::" in node_id:
        return node_id.split("::", 1)[1]
    if node_id.startswith("patient:"):
        return f"MRN {node_id.removeprefix('patient:')}"
    if node_id.startswith("note:"):
        return f"note {node_id.removeprefix('note:')}"
    return node_id


def kind_of(node_id: str) -> str | None:
    return node_id.split("::", 1)[0] if "::" in node_id else None


def triple_text(triple: TripleLike, name: Namer) -> str:
    """``Donepezil —treats→ Alzheimer's disease``."""
    subj, rel, obj = triple
    return f"{name(subj)} —{verb(rel)}→ {name(obj)}"


def path_text(path: Sequence[TripleLike], name: Namer) -> str:
    """A path as one chain, each hop oriented the way it is walked.

    ``Donepezil —binds→ ACHE ←associates— Alzheimer's disease``
    """
    if not path:
        return ""
    node = _start(path)
    parts = [name(node)]
    for subj, rel, obj in path:
        if subj == node:
            parts.append(f"—{verb(rel)}→ {name(obj)}")
            node = obj
        else:
            parts.append(f"←{verb(rel)}— {name(subj)}")
            node = subj
    return " ".join(parts)


def _start(path: Sequence[TripleLike]) -> str:
    subj, _, obj = path[0]
    if len(path) == 1:
        return subj
    nxt = {path[1][0], path[1][2]}
    return obj if subj in nxt and obj not in nxt else subj
