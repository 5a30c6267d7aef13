"""Which words of a question are language and which could be part of a name.

A question's words that link to no node are either wording ("reduce", "exposure", "highly",
"transcriptome") or a name the graph lacks ("pexidartinib", "Gaucher", "idiopathic" in front of
a disease). Two vocabularies tell them apart without a word list:

- **language**: a word the passage corpus uses (in at least a few places, or an inflection of
  such a word), or one the embedder's tokenizer holds whole or as a known stem plus a short
  ending ("boost" + "s", "transcript" + "ome");
- **names**: the words of the graph's node names, per node kind ("idiopathic" is a word of
  disease names, "exposure" is not a word of drug names).

A word is *name-like* next to a mention of some kind when it is a word of that kind's names,
is not language, or is capitalised inside the sentence.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from functools import lru_cache

_WORD = re.compile(r"[a-z0-9]+")
STEM_MIN = 4
"""A known stem must be at least this long to carry a word ("boost" in "boosts")."""
ENDING_MAX = 3
"""At most this many characters of word pieces after the stem ("##s", "##al", "##ome")."""
DESCRIPTIVE_KINDS = frozenset(
    {"Pathway", "Biological Process", "Molecular Function", "Cellular Component"}
)
"""Kinds whose names are descriptive phrases made of everyday words ("species", "highly"):
their words say nothing about whether a stray word is a name."""
INFLECTIONS = ("s", "es", "ed", "d", "ing")
"""Regular endings of an English word ("elevates", "elevated", "elevating")."""


class Language:
    """Everyday and technical language known to the corpus and to the embedder's tokenizer."""

    def __init__(
        self,
        corpus_words: Iterable[str],
        pieces: Callable[[str], list[str]] | None = None,
    ) -> None:
        self.corpus_words = frozenset(corpus_words)
        self.pieces = pieces
        self.knows = lru_cache(maxsize=8192)(self._knows)

    def _knows(self, word: str) -> bool:
        w = word.lower()
        if not w.isalpha():
            return False
        if any(v in self.corpus_words for v in variants(w)):
            return True
        if self.pieces is None:
            return False
        parts = self.pieces(w)
        if len(parts) == 1:
            return True
        stem, rest = parts[0], "".join(p.removeprefix("##") for p in parts[1:])
        return len(stem) >= STEM_MIN and len(rest) <= ENDING_MAX

    def in_corpus(self, word: str) -> bool:
        """The passage corpus uses the word or one of its inflections; the tokenizer's say
        is not asked, which takes most misspellings for a known stem plus an ending
        ("previus" as "prev" + "##ius")."""
        w = word.lower()
        return w.isalpha() and any(v in self.corpus_words for v in variants(w))

    def whole_word(self, word: str) -> bool:
        """The tokenizer holds the word whole ("soothe", "comfort"): everyday language, where
        a brand name such as "Tylenol" is split into pieces."""
        w = word.lower()
        return w.isalpha() and self.pieces is not None and len(self.pieces(w)) == 1

    def plural_noun(self, word: str) -> bool:
        """A plural the language knows whose singular is no verb ("transcripts", not "causes"
        or "treats")."""
        w = word.lower()
        if not w.endswith("s") or w.endswith(("ss", "us", "is")) or len(w) < 4:
            return False
        one = w[:-1]
        return self.knows(one) and not self.inflects_as_verb(one)

    def inflects_as_verb(self, word: str) -> bool:
        """The corpus or the tokenizer (as one word piece) knows a past or progressive form
        of the word ("trigger" -> "triggered"), as neither does for an adjective such as
        "idiopathic"."""
        w = word.lower()
        if not w.isalpha():
            return False
        stems = {w, w[:-1]} if w.endswith("e") else {w}
        forms = [s + end for s in stems for end in ("ed", "ing")]
        return any(f in self.corpus_words or self.whole_word(f) for f in forms)


def variants(word: str) -> set[str]:
    """The word and its regular inflections ("elevate" -> "elevated", "elevates", ...)."""
    out = {word} | {word + suffix for suffix in INFLECTIONS}
    if word.endswith("e"):
        out |= {word[:-1] + "ing", word[:-1] + "ion"}
    for suffix in INFLECTIONS:
        if word.endswith(suffix) and len(word) - len(suffix) >= STEM_MIN:
            stem = word[: -len(suffix)]
            out |= {stem, stem + "e", stem + "ed", stem + "s"}
    return out


def name_words(rows: Iterable[tuple[str, str]]) -> dict[str, frozenset[str]]:
    """Lower-case words of node names, per node kind, from ``(kind, name)`` rows."""
    words: dict[str, set[str]] = defaultdict(set)
    for kind, name in rows:
        words[kind].update(_WORD.findall((name or "").lower()))
    return {k: frozenset(v) for k, v in words.items()}


class Vocabulary:
    """Decides whether unlinked words may be (part of) a name."""

    def __init__(self, language: Language, names: dict[str, frozenset[str]]) -> None:
        self.language = language
        self.names = names
        self.entity_words = frozenset(
            w for k, ws in names.items() if k not in DESCRIPTIVE_KINDS for w in ws
        )

    def name_word(self, text: str, norm: str, position: int, kinds: Iterable[str]) -> bool:
        """The word is written like part of a name (capitalised inside the sentence) or is a
        word of the names of ``kinds`` -- positive evidence, beyond being unknown language."""
        if position > 0 and text[:1].isupper() and text[1:].islower():
            return True
        return any(norm in self.names.get(k, ()) for k in kinds)

    def name_like(self, text: str, norm: str, position: int, kinds: Iterable[str] = ()) -> bool:
        """Could this word belong to a name, next to a mention of ``kinds`` (or, with no
        kinds, to the name of any drug, disease, gene, body part, symptom ...)?"""
        if position > 0 and text[:1].isupper() and text[1:].islower():
            return True
        kinds = tuple(kinds)
        if kinds:
            if any(norm in self.names.get(k, ()) for k in kinds):
                return True
        elif norm in self.entity_words:
            return True
        return not self.language.knows(norm)
