"""Node ids: what an id alone says about its node."""

from __future__ import annotations


def kind_of(node_id: str) -> str | None:
    """The graph kind an id spells (``Compound::DB00843`` -> ``Compound``), or None for an id
    that is not a graph node's (``patient:4471``, ``note:crispr-screen``, a literal)."""
    return node_id.split("::", 1)[0] if "::" in node_id else None
