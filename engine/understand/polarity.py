"""Which way a question says a quantity moves: up ('raised', 'boosted', 'elevated') or down
('diminished', 'suppressed', 'lowered').

Sentence embeddings place "genes raised in the thyroid" and "genes lowered in the thyroid"
next to each other, so the bank alone often cannot tell an up-regulation relation from its
down-regulation twin. Single words carry the direction much more clearly: a word's polarity
is how much closer it is to the rising anchors than to the falling ones. A relation's own
direction is read the same way from its verb ('upregulates', 'downregulates'); relations whose
verb has none ('expresses', 'treats') are left alone. Words the embedding places poorly
("repressed", "induced") take the direction the exemplar wordings use them for, and so do
their other forms ("repressors", "repression"). When only such known words say the direction,
it is sure, and it decides between an up relation and its down twin even against a meaning
that puts the other first. The "up" of a request ("Pull up the genes ...") says nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np

from engine.providers.embedder.base import Embedder
from engine.understand.form import PREPOSITIONS
from engine.understand.learn import MIN_LEN, PLACEHOLDER, base_forms, spread, tally, telling
from engine.understand.vocabulary import variants
from engine.util.numeric import tilt

ANCHORS = (
    ("increase", "decrease"),
    ("higher", "lower"),
    ("up", "down"),
    ("more", "less"),
    ("rise", "fall"),
)
"""Generic words for rising and falling amounts; a word's polarity is its mean cosine to the
first of each pair minus that to the second."""
ANCHOR_WAY: dict[str, int] = {
    v: way
    for pair in ANCHORS
    for word, way in zip(pair, (1, -1), strict=True)
    for v in variants(word)
}
"""An anchor word and its inflections say their own direction, whatever their score ("higher"
sits close to "lower" in the embedding and scores below ``RISE``)."""
RISE = 0.12
"""A word at least this much closer to the rising anchors says 'up'. The bar is higher than
for falling because everyday words lean that way with this embedder ('other', 'levels' and
'please' score up to about +0.12 while saying nothing about a direction)."""
FALL = -0.06
"""A word at most this says 'down' (everyday words stay above about -0.04)."""
WEIGHT = 1.5
"""Log-odds added to a slot whose relation goes the question's way (taken from the other)."""
SURE_WEIGHT = 3.0
"""Log-odds moved from a relation to its opposite-direction twin when the question's
direction comes only from words whose direction is known (anchors, or words the exemplar
wordings teach), the twins keeping their total mass: "genes that fall in [Disease]" asks
for the down-regulation twin however close the meaning puts the up one."""
MAX_CACHED = 50_000

_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")
_REQUEST_PARTICLE = re.compile(
    r"^(\W*(?:(?:can|could|would|will)\s+you\s+|please\s+)?[a-z]+)\s+(?:up|down)\b"
    rf"(?!\s*(?:$|[?.!,;:]|(?:{'|'.join((*PREPOSITIONS, 'after', 'when', 'during'))})\b))",
    re.IGNORECASE,
)
""""up" or "down" right after the verb a request opens with, before what it asks for ("Pull
up the genes ...", "Can you look up drugs ..."): the particle of the request, no direction;
one before a preposition or at the end says one ("Genes up in [Anatomy]?")."""

LEARN_SLOTS = 2
"""Relations (slots) of one direction a word must occur in to say it (``learned_ways``): one
relation's phrasing alone ("cells treated with X") is no direction."""


def learned_ways(wordings: Iterable[tuple[str, int, str]]) -> dict[str, int]:
    """Directions the exemplar wordings teach (``wordings``: slot id, direction and text of
    each wording of an up or down relation): a content word used almost only in wordings of
    one direction, across relations ("repressed", "silenced", "induced"), says that
    direction, and so do its inflections the other direction's wordings never use; a word
    both directions use ("genes", "other") says neither (0), whatever the embedding makes of
    it. The embedding misses many of these words. Pure."""
    counts, slots = tally((slot, way, _long_words(text)) for slot, way, text in wordings)
    taught: dict[str, int] = {}
    for w, per_way in counts.items():
        way = telling(per_way)
        if way is not None and len(slots.get((w, way), ())) >= LEARN_SLOTS:
            taught[w] = way
    # two taught words that disagree on a form leave it no direction
    ways = spread(taught, counts, rivals_only=True, clash=0)
    # a word both directions use ("genes", "other") says neither
    both = {w for w, per_way in counts.items() if len(per_way) == 2 and w not in taught}
    return ways | dict.fromkeys(both, 0)


def _long_words(wording: str) -> list[str]:
    """The distinct words of a wording that may teach a direction."""
    return [
        w for w in set(_WORD.findall(PLACEHOLDER.sub(" ", wording).lower())) if len(w) >= MIN_LEN
    ]


class Polarity:
    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._anchors: tuple[np.ndarray, np.ndarray] | None = None
        self._cache: dict[str, float] = {}
        self.learned: dict[str, int] = {}
        """Word directions taught by the exemplar wordings (``learned_ways``)."""

    def scores(self, words: Sequence[str]) -> list[float]:
        """Each word's polarity (cached); the embedder's rows are unit vectors, so dot products
        are cosines."""
        found = {w: self._cache.get(w) for w in dict.fromkeys(words)}  # the cache may be
        missing = [w for w, v in found.items() if v is None]  # cleared by another thread
        if missing:
            rising, falling = self._anchor_vectors()
            vecs = np.asarray(self.embedder.encode([w.replace("-", " ") for w in missing]))
            values = (vecs @ rising.T).mean(axis=1) - (vecs @ falling.T).mean(axis=1)
            computed = dict(zip(missing, (float(v) for v in values), strict=True))
            if len(self._cache) + len(missing) > MAX_CACHED:
                self._cache.clear()
            self._cache.update(computed)
            found.update(computed)
        return [found[w] for w in words]  # type: ignore[misc]

    def sign(self, text: str) -> int:
        """+1 when the words of ``text`` (placeholders left out) say up, -1 down, 0 neither or
        both."""
        return self.read(text)[0]

    def read(self, text: str) -> tuple[int, bool]:
        """The direction ``text`` says (as ``sign``) and whether it is sure: every word that
        says a direction is an anchor or a taught word, and they all agree."""
        words = _WORD.findall(PLACEHOLDER.sub(" ", _REQUEST_PARTICLE.sub(r"\1", text)).lower())
        if not words:
            return 0, False
        ways = [self.known(w) for w in words]
        votes = [
            (way, True) if way is not None else (direction(s), False)
            for way, s in zip(ways, self.scores(words), strict=True)
        ]
        total = sum(v for v, _ in votes)
        said = [(v, known) for v, known in votes if v]
        sure = bool(said) and all(known and v == said[0][0] for v, known in said)
        return (total > 0) - (total < 0), sure

    def known(self, word: str) -> int | None:
        """The direction of an anchor word or a taught word, or of a taught word's other form
        ("repressors" of "repress"); None when the word is neither."""
        if "-" in word and word.replace("-", "") in self.learned:
            word = word.replace("-", "")  # "over-expressed" as "overexpressed"
        if word in ANCHOR_WAY:
            return ANCHOR_WAY[word]
        if word in self.learned:
            return self.learned[word]
        for form in base_forms(word):
            if self.learned.get(form):
                return self.learned[form]
        return None

    def _anchor_vectors(self) -> tuple[np.ndarray, np.ndarray]:
        if self._anchors is None:
            vecs = np.asarray(self.embedder.encode([w for pair in ANCHORS for w in pair]))
            self._anchors = (vecs[0::2], vecs[1::2])
        return self._anchors


class Directions:
    """The engine's reading of directions, for another reader of questions (memory): which
    way a text says an amount moves, and which way the bank's one-hop relations go."""

    def __init__(self, polarity: Polarity, slot_signs: dict[str, int]) -> None:
        self.polarity = polarity
        self.slot_signs = slot_signs

    def read(self, text: str) -> tuple[int, bool]:
        """As ``Polarity.read``: the direction ``text`` says and whether it is sure."""
        return self.polarity.read(text)

    def sign(self, slots: Iterable[str]) -> int:
        """The direction the one-hop slots ``slots`` share (those without one left out); 0
        when none has one or they disagree."""
        ways = {self.slot_signs[s] for s in slots if self.slot_signs.get(s)}
        return ways.pop() if len(ways) == 1 else 0


def direction(score: float) -> int:
    """+1, -1 or 0 for one word's polarity score."""
    return 1 if score >= RISE else -1 if score <= FALL else 0


def settle(
    probs: dict[str, float], signs: dict[str, int], pairs: Iterable[tuple[str, str]], way: int
) -> dict[str, float]:
    """``probs`` with each pair of opposite-direction twins (``pairs``, as slot ids) tilted
    by ``SURE_WEIGHT`` towards the one going ``way``, the pair keeping its mass. Pure."""
    for a, b in pairs:
        if a in probs and b in probs:
            probs = tilt(probs, {a: way * signs[a], b: way * signs[b]}, SURE_WEIGHT)
    return probs


def reweigh(probs: dict[str, float], signs: dict[str, int], question: int) -> dict[str, float]:
    """Slot probabilities with the slots that go the question's way (``signs``: each polar
    slot's direction) raised and those that go the other way lowered, renormalised. Pure."""
    if question == 0 or not any(signs.get(s, 0) for s in probs):
        return probs
    weighted = {s: p * float(np.exp(WEIGHT * question * signs.get(s, 0))) for s, p in probs.items()}
    total = sum(weighted.values())
    return {s: w / total for s, w in weighted.items()} if total > 0 else probs
