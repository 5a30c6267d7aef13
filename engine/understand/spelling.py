"""Typos in the words that say what is asked ("durgs", "sympotms", "regualted").

A lower-case word of at least ``MIN_LENGTH`` letters that is neither language the engine knows
(``Vocabulary.language``) nor a word of any node name is read as the question word it differs
from by one substituted letter or one swap of neighbouring letters, when exactly one question
word does. Question words are the kind nouns, the relation cue words and the words of the
exemplar bank's graph wordings. A correction keeps the word's length, so every offset into
the question still holds; names are never touched (the linker's fuzzy match reads those).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from engine.understand.vocabulary import Vocabulary

MIN_LENGTH = 5
"""Shorter words have too many neighbours one letter away to correct safely."""
_WORD = re.compile(r"[A-Za-z]+")


def one_slip(a: str, b: str) -> bool:
    """``a`` and ``b`` (of one length) differ by one letter or one swap of neighbours."""
    diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    if len(diff) == 1:
        return True
    return (
        len(diff) == 2
        and diff[1] == diff[0] + 1
        and a[diff[0]] == b[diff[1]]
        and a[diff[1]] == b[diff[0]]
    )


class Speller:
    def __init__(self, words: Iterable[str], vocabulary: Vocabulary) -> None:
        self.words = frozenset(w for w in words if w.isalpha() and len(w) >= MIN_LENGTH)
        self.vocabulary = vocabulary
        self._by_length: dict[int, list[str]] = defaultdict(list)
        for w in sorted(self.words):
            self._by_length[len(w)].append(w)
        self._names = frozenset().union(*vocabulary.names.values())

    def correct(self, text: str) -> str:
        """``text`` with each typo of a question word replaced (same length, case kept)."""
        out = list(text)
        for m in _WORD.finditer(text):
            fixed = self._word(m.group())
            if fixed is not None:
                out[m.start() : m.end()] = fixed
        return "".join(out)

    def _word(self, word: str) -> str | None:
        low = word.lower()
        if len(low) < MIN_LENGTH or low in self.words or low in self._names:
            return None
        if not (word.islower() or (word[0].isupper() and word[1:].islower())):
            return None  # an acronym or a symbol ("PDGFRA", "mRNA") is a name
        if self.vocabulary.language.knows(low):
            return None
        hits = [w for w in self._by_length[len(low)] if one_slip(low, w)]
        if len(hits) != 1:
            return None
        return hits[0].capitalize() if word[0].isupper() else hits[0]
