"""Is a retrieved passage relevant enough to answer from?

No PyPI package ships a cross-encoder whose weights load offline, so relevance is the agreement
of the two retrievers already running: a passage's document is relevant when its best paragraph
is close to the question by the bi-encoder (cosine) *and* shares enough rare words with it by
BM25. The floors were fitted on the dev passage questions (their own paragraphs as positives):
98 % of gold documents pass; SQL fragments, format strings and chit-chat fail on one signal or
the other. Backing off from a missing graph entity additionally needs the passage to use every
word of its name, in any order and form ("breast cancer patients in Malaysia" names "Malaysian
breast cancer").
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


MIN_STEM = 5
"""Shortest shared beginning that counts as the same word in another form."""


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
    about: Sequence[Sequence[str]] = (),
) -> list[PassageHit]:
    """The hits whose document passes both floors, in their retrieved order. With ``naming``,
    the document's text uses every word of those phrases; with ``about`` (the question's
    entities, each as its names: as typed, as the graph calls it), it names every entity by
    one of its names: a study of another drug answers no question about this one."""
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
    if naming or about:
        bodies: dict[str, set[str]] = {}
        for h in hits:
            d = doc_of(h.id)
            bodies.setdefault(d, set()).update(alias_key((texts or {}).get(h.id, "")).split())
        words = _words(naming)
        ok = {d for d in ok if all(uses_word(bodies.get(d, set()), w) for w in words)}
        ok = {d for d in ok if all(_names(bodies.get(d, set()), names) for names in about)}
    return [h for h in hits if doc_of(h.id) in ok]


def _words(phrases: Sequence[str]) -> set[str]:
    return {w for n in phrases for w in alias_key(n).split() if len(w) >= 3}


def _names(body: set[str], names: Sequence[str]) -> bool:
    """The text uses every word of at least one of ``names`` (true when a name has no word of
    three letters or more to look for: "UK" cannot be told from other words)."""
    sets = [_words([n]) for n in names]
    return any(not ws or all(uses_word(body, w) for w in ws) for ws in sets)


def uses_word(body: set[str], word: str) -> bool:
    """The text uses the word or a form of it ("Malaysian" / "Malaysia", "delay" / "delayed"):
    a shared beginning as long as the shorter word but for a short ending (at least 5)."""
    if word in body:
        return True
    for b in body:
        n = min(len(word), len(b))
        if n >= MIN_STEM and word[: max(MIN_STEM, n - 2)] == b[: max(MIN_STEM, n - 2)]:
            return True
    return False
