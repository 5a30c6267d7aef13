"""Telling words learnt from the exemplar bank: the one learner behind ``twins``, ``chains``
and ``polarity``.

Each of them asks the bank which words tell one reading from its rivals: a relation from its
twins ("relieve" for palliates, not treats), a chain from the one-hop relation it may be taken
for ("similar"), a direction from the other ("repressed" for down). The learner counts the
wordings that use each word (once per wording), per reading; a word tells a reading when at
least ``LEARN_MIN`` of that reading's wordings use it and, where the rivals' wordings are
counted too, at least ``LEARN_PURITY`` of all the wordings that use it are that reading's
(``telling``). A taught word's inflections tell the same, unless the wordings use them
otherwise (``spread``). Words shorter than ``MIN_LEN`` tell nothing. What each reader adds
(which slots a word must be seen in, how many of the rival's wordings may use it) stays with
it. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

from engine.understand.negation import WORD_REACH, opens_negation
from engine.understand.vocabulary import variants
from engine.util.text import strip_suffix

LEARN_MIN = 3
"""Wordings of a reading a word must occur in to tell it."""
LEARN_PURITY = 0.9
"""Share of the wordings holding a word (the reading's and its rivals') that must be that
reading's."""
MIN_LEN = 4
"""Shorter words tell nothing."""
PLACEHOLDER = re.compile(r"\[[A-Za-z ]+\]")
"""An entity masked by its kind ("[Disease]"): no word of the wording."""
STEM_SUFFIXES = ("ing", "ed", "es", "e", "s", "ly")
"""Endings a crude stem drops (``stem``)."""
FORM_SUFFIXES = ("ions", "ion", "ors", "or", "ing", "ed", "es", "s")
"""Endings cut to find the taught word another form comes from (``base_forms``:
"repressors", "repression", "repressing" of "repress")."""

_WORD = re.compile(r"[a-z]+(?:['-][a-z]+)*")

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def content_words(text: str) -> list[str]:
    """Lower-case words of ``text`` (hyphenated words also by their parts), placeholders and
    words a negation covers left out."""
    out: list[str] = []
    reach = 0
    for token in _WORD.findall(PLACEHOLDER.sub(" ", text).lower()):
        parts = token.split("-")
        if opens_negation(token) or opens_negation(parts[0]):
            out.append(token)  # the negation itself may speak ("without")
            reach = WORD_REACH
            continue
        if reach:
            reach -= 1
            continue
        out.append(token)
        out += [p for p in parts if p != token]
    return out


def tally(
    rows: Iterable[tuple[str, K, Iterable[str]]],
) -> tuple[dict[str, dict[K, int]], dict[tuple[str, K], set[str]]]:
    """For each wording (``rows``: its slot, the reading it says and its distinct words):
    word -> reading -> how many of that reading's wordings use the word, and (word, reading)
    -> the slots whose wordings do."""
    counts: dict[str, dict[K, int]] = {}
    slots: dict[tuple[str, K], set[str]] = {}
    for slot, reading, words in rows:
        for w in words:
            per = counts.setdefault(w, {})
            per[reading] = per.get(reading, 0) + 1
            slots.setdefault((w, reading), set()).add(slot)
    return counts, slots


def count_wordings(wordings: Iterable[Iterable[str]]) -> dict[str, int]:
    """Word -> how many of ``wordings`` (each given as its distinct words) use it."""
    counts: dict[str, int] = {}
    for words in wordings:
        for w in words:
            counts[w] = counts.get(w, 0) + 1
    return counts


def telling(per_reading: Mapping[K, int]) -> K | None:
    """The reading a word tells, from how many wordings of each reading use it: at least
    ``LEARN_MIN`` of its own and at least ``LEARN_PURITY`` of them all; None for none."""
    if not per_reading:
        return None
    reading, n = max(per_reading.items(), key=lambda kv: kv[1])
    if n >= LEARN_MIN and n >= LEARN_PURITY * sum(per_reading.values()):
        return reading
    return None


def spread(
    taught: Mapping[str, V],
    counts: Mapping[str, Mapping[V, int]],
    *,
    rivals_only: bool = False,
    clash: V | None = None,
) -> dict[str, V]:
    """``taught`` and each taught word's inflections (``variants``) telling the same, unless
    the form is taught itself or the wordings use it (``counts``, as from ``tally``): any of
    them, or with ``rivals_only`` those of another reading. A form two taught words claim for
    different readings stays with the first, or tells ``clash`` when one is given."""
    out = dict(taught)
    clashed: set[str] = set()
    for w, value in taught.items():
        for v in variants(w):
            used = counts.get(v, {})
            if v in taught or (any(r != value for r in used) if rivals_only else used):
                continue
            if out.setdefault(v, value) != value:
                clashed.add(v)
    if clash is not None:
        out |= dict.fromkeys(clashed, clash)
    return out


def stem(word: str) -> str:
    """A crude stem, enough to hear "resemble", "resembles" and "resembling" as one word."""
    return strip_suffix(word, STEM_SUFFIXES)


def base_forms(word: str) -> tuple[str, ...]:
    """The taught words ``word`` may be another form of ("repress" and "represse" for
    "repressors"); none when no ending of ``FORM_SUFFIXES`` can be cut."""
    base = strip_suffix(word, FORM_SUFFIXES, keep=4)
    return () if base == word else (base, base + "e")
