"""Is a retrieved passage relevant enough to answer from?

No PyPI package ships a cross-encoder whose weights load offline, so relevance is the agreement
of the two retrievers already running: a passage's document is relevant when its best paragraph
is close to the question by the bi-encoder (cosine) *and* shares enough rare words with it by
BM25. The floors were fitted on the dev passage questions (their own paragraphs as positives):
98 % of gold documents pass; SQL fragments, format strings and chit-chat fail on one signal or
the other. Backing off from a missing graph entity additionally needs the passage to name it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.index.dense import PassageHit, doc_of
from engine.util.text import alias_key

DENSE_FLOOR = 0.45
"""Bi-encoder cosine of the document's best paragraph."""
LEXICAL_FLOOR = 5.0
"""BM25 score of the document's best paragraph."""


@dataclass(frozen=True)
class Floor:
    dense: float = DENSE_FLOOR
    lexical: float = LEXICAL_FLOOR


def relevant(
    hits: Sequence[PassageHit],
    floor: Floor = Floor(),
    *,
    texts: Mapping[str, str] | None = None,
    naming: Sequence[str] = (),
) -> list[PassageHit]:
    """The hits whose document passes both floors (and, with ``naming``, whose document's
    text names every one of those phrases), in their retrieved order."""
    best: dict[str, tuple[float, float]] = {}
    for h in hits:
        d = doc_of(h.id)
        dense, lexical = best.get(d, (0.0, 0.0))
        best[d] = (max(dense, h.dense), max(lexical, h.lexical))
    ok = {
        d
        for d, (dense, lexical) in best.items()
        if dense >= floor.dense and lexical >= floor.lexical
    }
    if naming:
        keys = [f" {alias_key(n)} " for n in naming if alias_key(n)]
        bodies: dict[str, str] = {}
        for h in hits:
            d = doc_of(h.id)
            bodies[d] = bodies.get(d, "") + " " + alias_key((texts or {}).get(h.id, ""))
        ok = {d for d in ok if all(k in f" {bodies.get(d, '')} " for k in keys)}
    return [h for h in hits if doc_of(h.id) in ok]
