"""Typos in the words that say what is asked ("durgs", "sympotms", "regualted").

A lower-case word of at least ``MIN_LENGTH`` letters that is neither language the engine knows
(``Vocabulary.language``) nor a word of any node name is read as the question word it differs
from by one substituted letter or one swap of neighbouring letters, when exactly one question
word does. Question words are the kind nouns, the relation cue words and the words of the
exemplar bank's graph wordings. A correction keeps the word's length, so every offset into
the question still holds; names are never touched (the linker's fuzzy match reads those).

With ``gaps`` a letter left out or typed once too often is corrected as well ("previus",
"alergies", "befor"); the text then changes length, so a caller corrects before it reads any
offset. Such a speller takes a word for language only when the passage corpus uses it (the
tokenizer's stems would take "previus" for "prev" + "ius"), and corrects a capitalised word
only where it opens the text: inside a sentence it may be a person's name.
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


Edit = tuple[int, int, str]
"""A correction: the span of ``text[start:end]`` and what replaces it."""


def apply(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with ``edits`` (in order, not overlapping) made. Pure."""
    out: list[str] = []
    last = 0
    for start, end, new in edits:
        out += [text[last:start], new]
        last = end
    return "".join(out) + text[last:]


def moved(at: int, edits: Iterable[Edit]) -> int | None:
    """Where offset ``at`` of a text is after ``edits``; None inside an edited word. Pure."""
    shift = 0
    for start, end, new in edits:
        if at <= start:
            break
        if at < end:
            return None
        shift += len(new) - (end - start)
    return at + shift


def deletions(word: str) -> set[str]:
    """``word`` with one letter left out, every way."""
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


class Speller:
    def __init__(self, words: Iterable[str], vocabulary: Vocabulary, *, gaps: bool = False) -> None:
        self.words = frozenset(w for w in words if w.isalpha() and len(w) >= MIN_LENGTH)
        self.vocabulary = vocabulary
        self.gaps = gaps
        self._by_length: dict[int, list[str]] = defaultdict(list)
        for w in sorted(self.words):
            self._by_length[len(w)].append(w)
        self._names = frozenset().union(*vocabulary.names.values())
        self._short_of: dict[str, set[str]] = defaultdict(set)
        """A question word with one letter left out -> the question words it comes from."""
        if gaps:
            for w in self.words:
                for d in deletions(w):
                    self._short_of[d].add(w)

    def widened(self, words: Iterable[str], *, gaps: bool) -> Speller:
        """A speller over these question words as well as this one's."""
        return Speller(self.words | set(words), self.vocabulary, gaps=gaps)

    def correct(self, text: str) -> str:
        """``text`` with each typo of a question word replaced (case kept; the same length
        unless ``gaps``)."""
        return apply(text, self.edits(text))

    def edits(self, text: str) -> list[Edit]:
        """The corrections of ``text``, in order: (start, end, replacement)."""
        out: list[Edit] = []
        for m in _WORD.finditer(text):
            word = m.group()
            if self.gaps and m.start() > 0 and word[0].isupper():
                continue  # a capital inside the text may start a person's name
            fixed = self._word(word)
            if fixed is not None:
                out.append((m.start(), m.end(), fixed))
        return out

    def _word(self, word: str) -> str | None:
        low = word.lower()
        if len(low) < MIN_LENGTH or low in self.words or low in self._names:
            return None
        if not (word.islower() or (word[0].isupper() and word[1:].islower())):
            return None  # an acronym or a symbol ("PDGFRA", "mRNA") is a name
        language = self.vocabulary.language
        if language.in_corpus(low) if self.gaps else language.knows(low):
            return None
        hits = {w for w in self._by_length[len(low)] if one_slip(low, w)}
        if self.gaps:
            hits |= self._short_of.get(low, set())  # a letter left out
            hits |= deletions(low) & self.words  # a letter typed once too often
        if len(hits) != 1:
            return None
        (hit,) = hits
        return hit.capitalize() if word[0].isupper() else hit
