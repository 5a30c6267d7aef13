"""Questions about two things of one kind at once: what both have, or what one has and the
other lacks.

"drugs that treat both hypertension and heart failure", "genes shared by X and Y": the answers
of the one relation asked that hold for each (``BOTH``). "drugs for asthma but not COPD",
"meds used for epilepsy and not for bipolar": the first's answers that are not the second's
(``BUT_NOT``). "targets of aspirin or ibuprofen", "what do A, B or C bind": the answers of any
of them (``ANY``), those held by more of them first. The operation is read from the words that
join the names: "and" alone joins (the answer holds for each), "or" offers alternatives (any),
a negation among them excludes. Anything else between them ("X in patients with Y") is no set
question.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise
from typing import Literal

from engine.understand.lexicon import KIND_WORDS
from engine.understand.negation import opens_negation

SetOp = Literal["both", "but_not", "any", "among"]
BOTH: SetOp = "both"
BUT_NOT: SetOp = "but_not"
ANY: SetOp = "any"
AMONG: SetOp = "among"
"""Which of several named things the relation links to another ("which of A, B and C treat
X"): the listed ones that hold."""

_JOINING = frozenset(
    {"and", "both", "as", "well", "plus", "also", "together", "with", "for", "in", "to"}
)
"""Words that may join two names the answer must hold for ("X as well as Y", "X and also
Y", "X and for Y"), with a conjunction among them ("X with Y", "X in Y" are no set)."""
_LINKING = frozenset(
    {"but", "and", "yet", "for", "in", "of", "to", "used", "by", "that", "which", "are", "is"}
)
"""Words that may stand between two names besides the negation in an exclusion ("X but not
for Y", "X and not used in Y", "X drugs that are not for Y": a kind's noun too)."""
_SAME_USE = frozenset(
    {
        "treat",
        "treats",
        "treated",
        "given",
        "prescribed",
        "indicated",
        "work",
        "works",
        "help",
        "helps",
    }
)
"""Words saying the second name is used the way the first is ("X drugs that also treat Y")."""
_WORD = re.compile(r"[^\W_]+")


def set_operation(text: str, first: tuple[int, int], second: tuple[int, int]) -> SetOp | None:
    """How the names at ``first`` and ``second`` (character spans of ``text``, in that order)
    are joined: ``BOTH``, ``BUT_NOT``, or None when they are not joined as a set."""
    between = text[first[1] : second[0]]
    words = [w.lower() for w in _WORD.findall(between)]
    if not words:
        return BOTH if between.strip() in {",", "&", "/"} else None
    negations = [i for i, w in enumerate(words) if opens_negation(w)]
    if negations:
        rest = [w for i, w in enumerate(words) if i not in negations]
        return BUT_NOT if all(w in _LINKING or w in KIND_WORDS for w in rest) else None
    if words in (["or"], ["and", "or"]):
        return ANY
    if "also" in words and all(
        w in _JOINING or w in _LINKING or w in KIND_WORDS or w in _SAME_USE for w in words
    ):
        # "psoriasis drugs also used for psoriatic arthritis", "drugs for X that also treat Y"
        return BOTH
    if "and" not in words and "plus" not in words and "well" not in words:
        return None
    return BOTH if all(w in _JOINING for w in words) else None


def list_operation(text: str, spans: Sequence[tuple[int, int]]) -> SetOp | None:
    """How the names at ``spans`` (in order) are joined; a list of three or more is joined by
    commas and one closing "and" (``BOTH``) or "or" (``ANY``), and two names as
    ``set_operation`` reads them."""
    if len(spans) < 2:
        return None
    if len(spans) == 2:
        return set_operation(text, spans[0], spans[1])
    gaps = [text[a[1] : b[0]] for a, b in pairwise(spans)]
    if any(g.strip() != "," for g in gaps[:-1]):
        return None
    last = [w.lower() for w in _WORD.findall(gaps[-1])]
    return {("and",): BOTH, ("or",): ANY}.get(tuple(last)) if gaps[-1].strip(" ,") else None


def listed(text: str, spans: Sequence[tuple[int, int]]) -> bool:
    """The names at ``spans`` (in order, two or more) are written as a list: nothing but
    commas, colons, slashes, "and" or "or" between them ("propranolol, topiramate or
    sumatriptan")."""
    if len(spans) < 2:
        return False
    for a, b in pairwise(spans):
        gap = text[a[1] : b[0]]
        words = {w.lower() for w in _WORD.findall(gap)}
        if not words <= {"and", "or"} or _WORD.sub("", gap).strip(" ,;:/&"):
            return False
    return True


def says(op: SetOp, names: Sequence[str]) -> str:
    """The names as the answer's headline says them ("both X and Y", "X but not Y", "X, Y or
    Z")."""
    if op == BUT_NOT:
        return f"{names[0]} but not {names[1]}"
    head = ", ".join(names[:-1])
    if op == ANY:
        return f"{head} or {names[-1]}"
    return f"both {head} and {names[-1]}" if len(names) == 2 else f"each of {head} and {names[-1]}"


COMMON = re.compile(
    r"\b(?:in common|share[sd]?|sharing|both|all|each|overlap(?:s|ping)?)\b", re.IGNORECASE
)
"""Words that ask what several things have in common (an answer that holds for each)."""


def asks_common(text: str) -> bool:
    """``text`` asks what its names have in common ("what do they share", "targets they all
    hit")."""
    return COMMON.search(text) is not None


EXCLUDING = re.compile(
    r"\b(?:besides|other than|apart from|aside from|except(?: for)?|excluding|not counting)"
    r"(?:\s+(?:the|a|an))?\s*$",
    re.IGNORECASE,
)
"""Words that set a name apart from the answers wanted ("what else is X used for besides
epilepsy", "drugs for migraine other than triptans")."""


def set_apart(text: str, start: int) -> bool:
    """The name starting at ``start`` of ``text`` is set apart from the answers wanted."""
    return EXCLUDING.search(text[:start]) is not None
