"""Time words learnt from the exemplar bank: a naive Bayes model over its time slots.

The embedding tells relations apart well but hardly hears "first" against "previous". The
bank's wordings do carry the time words, across every relation that has time slots, so word and
word-pair counts per time qualifier give a relation-neutral reading: for each qualifier, the
log-odds that the question's words come from its wordings rather than from the others'.
Placeholders are dropped; words are cut to a crude stem ("started" -> "start").
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from itertools import pairwise

from engine.util.text import strip_suffix
from memory.router import Temporal

_TOKEN = re.compile(r"\[[A-Za-z]+\]|[a-z]+")
_SUFFIXES = ("ing", "ed", "es", "s", "ly")
_PRIOR = 0.5
"""Additive smoothing of the word counts."""
_CLIPPED_MIN = 4
"""Letters a clipped word ("prev", "orig") keeps at least."""


def _stem(word: str) -> str:
    return strip_suffix(word, _SUFFIXES)


def features(text: str) -> set[str]:
    """Stemmed words and adjacent word pairs of ``text``, placeholders left out."""
    words = [_stem(t) for t in _TOKEN.findall(text.lower()) if not t.startswith("[")]
    return set(words) | {f"{a}_{b}" for a, b in pairwise(words)}


class TimeWords:
    """Per-qualifier log-odds of a question's words, from (qualifier, wording) examples."""

    def __init__(self, examples: Iterable[tuple[Temporal, str]]) -> None:
        self.counts: dict[Temporal, Counter[str]] = {}
        self.sizes: Counter[Temporal] = Counter()
        for when, text in examples:
            self.counts.setdefault(when, Counter()).update(features(text))
            self.sizes[when] += 1
        self._words: list[str] | None = None
        self.total: Counter[str] = Counter()
        for counts in self.counts.values():
            self.total.update(counts)

    def _known(self, feature: str) -> str:
        """The feature, or the one word of the bank it clips ("prev" -> "previou", "orig" ->
        "original"), or "" when the bank has neither."""
        if feature in self.total:
            return feature
        if len(feature) < _CLIPPED_MIN or "_" in feature:
            return ""
        if self._words is None:
            self._words = sorted(f for f in self.total if "_" not in f)
        longer = sorted(
            (w for w in self._words if w.startswith(feature) and len(w) > len(feature)), key=len
        )
        # one word, however its forms were cut ("previou" of "previous", "previous" of
        # "previously")
        return longer[0] if longer and all(w.startswith(longer[0]) for w in longer) else ""

    def log_odds(self, text: str) -> dict[Temporal, float]:
        """Qualifier -> summed log-odds of the question's known features (0 when none)."""
        feats = {self._known(f) for f in features(text)} - {""}
        n_all = sum(self.sizes.values())
        out: dict[Temporal, float] = {}
        for when, counts in self.counts.items():
            n_in, n_out = self.sizes[when], n_all - self.sizes[when]
            out[when] = sum(
                math.log((counts[f] + _PRIOR) / (n_in + 1))
                - math.log((self.total[f] - counts[f] + _PRIOR) / (n_out + 1))
                for f in feats
            )
        return out
