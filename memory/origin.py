"""Whose word a fact is: what the user said (``stated``) or what the engine looked up in the
graph for one of the user's questions (``reviewed``), and the gate a looked-up fact passes
before it is kept.

The two kinds are told apart everywhere a fact is shown (the memory panel, ``memory_search``,
answers) and can be forgotten apart (``/forget looked-up``, ``/forget stated``). Memory's own
answers come from what the user said alone; a looked-up fact only boosts graph answers of
other questions (``Vault.verified``).
"""

from __future__ import annotations

from typing import Final

from engine.result import Result, Status

STATED: Final = "stated"
LOOKED_UP: Final = "reviewed"

SAID_AS = {STATED: "you said", LOOKED_UP: "looked up"}
"""How each kind is named to the user."""

_KIND_WORDS = {
    "looked-up": LOOKED_UP,
    "looked up": LOOKED_UP,
    "lookups": LOOKED_UP,
    "looked-up facts": LOOKED_UP,
    "stated": STATED,
    "stated facts": STATED,
    "you said": STATED,
}


def said_as(source: str | None) -> str:
    """ "you said" or "looked up" (the stored source when it is neither)."""
    return SAID_AS.get(source or "", source or "")


def kind_named(target: str) -> str | None:
    """The source a whole ``/forget`` or search target names ("looked-up" -> ``reviewed``,
    "stated" -> ``stated``); None for any other target (a subject, a text)."""
    return _KIND_WORDS.get(" ".join(target.casefold().split()))


def confident_answers(result: Result, min_confidence: float, boost: float) -> set[str]:
    """The answers of a graph result confident enough to keep as looked-up facts (the quality
    gate): the result is ANSWERED, asks nothing back, was not read by guessing (no follow-up or
    correction noted in ``understood``), and the answer's calibrated score (path confidence,
    ``engine.ranking``) reaches ``min_confidence`` before any memory boost (a boosted result is
    judged on its score divided by ``boost``, so memory never lifts its own facts over the
    bar). Among the top three answers only."""
    if result.status != Status.ANSWERED or result.clarification or result.understood:
        return set()
    factor = boost if result.memory_boosted else 1.0
    return {a.id for a in result.answers[:3] if a.score / factor >= min_confidence}
