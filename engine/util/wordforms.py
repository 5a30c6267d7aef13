"""Forms of one word: British and American spellings ("anaemia", "anemia"; "tumour", "tumor";
"mobilisation", "mobilization") and inflections ("smokers", "smoking"): a question may use
one where the data uses the other."""

from __future__ import annotations

SPELLINGS = (("ae", "e"), ("oe", "e"), ("isation", "ization"), ("our", "or"))
"""Letter groups of British spelling and what American spelling writes instead."""


def american(word: str) -> str:
    """``word`` (lower case) with British letter groups written as American spelling does;
    a word without them is returned as it is. Both sides of a comparison are folded, so a
    word that only looks British ("does", "four") folds the same way on each."""
    for british, us in SPELLINGS:
        word = word.replace(british, us)
    return word


SUFFIXES = ("ations", "ation", "ings", "ing", "ers", "er", "ies", "es", "ed", "s")
"""Endings a word of a question and the same word in an abstract may differ by ("smokers",
"smoking"; "falls", "falling")."""
MIN_STEM_LETTERS = 4


def stem(word: str) -> str:
    """``word`` in American spelling without one of ``SUFFIXES`` and a final "e", when at
    least ``MIN_STEM_LETTERS`` letters are left ("smokers", "smoking", "smoke": "smok")."""
    word = american(word)
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= MIN_STEM_LETTERS:
            word = word[: -len(suffix)]
            break
    if word.endswith("e") and len(word) > MIN_STEM_LETTERS:
        word = word[:-1]
    return word
