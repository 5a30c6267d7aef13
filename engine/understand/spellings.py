"""British and American spellings of the same word ("anaemia", "anemia"; "tumour", "tumor";
"mobilisation", "mobilization"): a question may use one where the data uses the other."""

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
