"""Questions that lean on the one before: a pronoun for its subject, or only a new name.

A conversation's follow-up names nothing new ("and its side effects?": the pronoun stands for
the last subject) or names only a new subject and no relation of its own ("same for asthma?",
"what about rosuvastatin?": the last question, asked again of the new subject). Both are read
from the words alone: a pronoun or a demonstrative with a kind noun is an anaphor; a question
is elliptical when every word outside its mentions is a function word and none is a relation
cue. What it refers to is the session's business (``wiring.turn``); memory reads its own
pronouns with the same pattern.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.graph.relations import RELATIONS
from engine.understand.lexicon import (
    COMPILED_CUES,
    FUNCTION_WORDS,
    KIND_WORDS,
    is_cue_word,
    is_structural,
)

PRONOUN = re.compile(r"\b(?:she|he|they|her|him|them|it|its|his|their)\b", re.IGNORECASE)
"""A personal pronoun that may stand for the conversation's subject (memory reads patients'
pronouns with it too)."""

POSSESSIVE = frozenset({"its", "his", "her", "their"})

_KIND_NOUN = "|".join(sorted((re.escape(w) for w in KIND_WORDS), key=len, reverse=True))
DEMONSTRATIVE = re.compile(
    rf"\b(?:this|that|these|those|the same|the|said)\s+({_KIND_NOUN}|one|ones)\b", re.IGNORECASE
)
"""A definite description of the subject by its kind ("this drug", "the disease", "that one")."""

TRAILING_DEMONSTRATIVE = re.compile(r"\b(?:this|that)\b(?=[\s?.!]*$)", re.IGNORECASE)
"""A demonstrative that ends a question asking for something stands alone as a pronoun ("side
effects of that?")."""

_ORDINALS = {
    "first": 0, "1st": 0, "top": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2,
    "fourth": 3, "4th": 3, "fifth": 4, "5th": 4, "last": -1,
}  # fmt: skip
ORDINAL = re.compile(
    rf"\b(?:the\s+)?({'|'.join(_ORDINALS)})\s+(?:{_KIND_NOUN}|one|answer|result)\b",
    re.IGNORECASE,
)
"""An answer of the last list by its place ("the first one", "the second drug")."""

BARE_MAX_WORDS = 5
"""A question naming nothing of at most this many words that asks for a relation ("any side
effects?") asks it of the last subject; a longer one says what it is about in words of its own."""
ELLIPSIS_MAX_WORDS = 5
"""At most this many words outside the mentions: "and what about X for kids then?" is a new
question with words of its own, not an ellipsis."""

_WORD = re.compile(r"[^\W_]+(?:'[a-z]+)?", re.UNICODE)


def anaphor(text: str, kind: str | None = None) -> tuple[int, int, bool] | None:
    """The first word or phrase of ``text`` that stands for an earlier subject of ``kind``, as
    ``(start, end, possessive)``; None when there is none. A description names its kind ("the
    disease" stands for a disease, never for a drug; "the symptoms" asks for symptoms)."""
    found: list[tuple[int, int, bool]] = []
    for m in PRONOUN.finditer(text):
        found.append((m.start(), m.end(), m.group().lower() in POSSESSIVE))
    if asks_something(text):
        for m in TRAILING_DEMONSTRATIVE.finditer(text):
            found.append((m.start(), m.end(), False))
    for m in DEMONSTRATIVE.finditer(text):
        noun = m.group(1).lower()
        if noun in ("one", "ones") or kind is None or KIND_WORDS.get(noun) == kind:
            found.append((m.start(), m.end(), False))
    return min(found) if found else None


def asks_something(text: str) -> bool:
    """The text asks for a relation or a kind of thing ("side effects of that", "what treats
    that"), so a closing "that" is its subject, not a remark on the last answer ("not sure
    about that")."""
    words = [m.group().lower() for m in _WORD.finditer(text)]
    return any(is_cue_word(w) or w in KIND_WORDS for w in words)


def ordinal(text: str) -> tuple[int, int, int] | None:
    """The first answer of the last list that ``text`` names by its place, as ``(start, end,
    index)`` (index -1 for "the last one"); None when there is none."""
    m = ORDINAL.search(text)
    return (m.start(), m.end(), _ORDINALS[m.group(1).lower()]) if m else None


def elliptical(text: str, spans: Sequence[tuple[int, int]]) -> bool:
    """True when ``text`` names something (``spans``) and asks nothing of its own: every word
    outside the spans is a function word and none is a relation cue."""
    if not spans:
        return False
    words = [
        m.group().lower()
        for m in _WORD.finditer(text)
        if not any(s <= m.start() < e for s, e in spans)
    ]
    if len(words) > ELLIPSIS_MAX_WORDS:
        return False
    return all(w in FUNCTION_WORDS and not is_cue_word(w) for w in words)


def substitute(text: str, start: int, end: int, name: str, possessive: bool = False) -> str:
    """``text`` with ``[start, end)`` replaced by ``name`` (``name's`` for a possessive)."""
    return text[:start] + (f"{name}'s" if possessive else name) + text[end:]


def bare_request(text: str) -> bool:
    """``text`` (which names nothing) is a short request for a relation or a kind of thing
    and nothing else: every word is a function word, a relation cue or a kind noun, and one
    is a cue or a kind noun ("symptoms?", "what are the side effects", "any targets")."""
    words = [m.group().lower() for m in _WORD.finditer(text)]
    if not words or len(words) > BARE_MAX_WORDS:
        return False
    asks = [w for w in words if is_cue_word(w) or w in KIND_WORDS]
    return bool(asks) and all(is_structural(w) or w in asks for w in words)


PLURAL = re.compile(
    rf"\b(?:(?:those|these)\s+({_KIND_NOUN})|they|them|their|those|these)\b", re.IGNORECASE
)
"""A plural word for the last answers as a group ("what do they target", "those genes")."""


def plural(text: str, kind: str) -> tuple[int, int, bool, bool] | None:
    """The first plural word or description in ``text`` that may stand for a group of
    ``kind``, as ``(start, end, possessive, described)``: ``described`` when it names the
    kind ("those genes"); None when there is none. A description of another kind ("those
    drugs" for genes) stands for no such group."""
    for m in PLURAL.finditer(text):
        noun = m.group(1)
        if noun is not None and KIND_WORDS.get(noun.lower()) != kind:
            continue
        if (
            noun is None
            and m.group().lower() in ("those", "these")
            and _followed_by_noun(text, m.end())
        ):
            continue
        return m.start(), m.end(), m.group().lower() == "their", noun is not None
    return None


KIND_PLURALS = {
    "Compound": "drugs",
    "Disease": "diseases",
    "Gene": "genes",
    "Symptom": "symptoms",
    "Side Effect": "side effects",
    "Anatomy": "tissues",
    "Pathway": "pathways",
    "Biological Process": "biological processes",
    "Molecular Function": "molecular functions",
    "Cellular Component": "cellular components",
    "Pharmacologic Class": "drug classes",
}
"""How a question names several things of a kind ("which drugs are ...")."""

ONES = re.compile(
    r"\b(?:which|what|any|all|some|none|how many)\s+(?:of\s+)?(?:ones?|them|those|these)\b",
    re.IGNORECASE,
)
"""Some of the last answers picked out ("which ones", "any of those", "which of them")."""


def group_word(text: str, kind: str) -> tuple[int, int] | None:
    """Where ``text`` speaks of the last answers of ``kind`` as a group ("which of those",
    "any of them", "those genes"), as ``(start, end)``; None when it does not."""
    m = ONES.search(text)
    if m is not None:
        return m.start(), m.end()
    found = plural(text, kind)
    return (found[0], found[1]) if found is not None else None


def _followed_by_noun(text: str, at: int) -> bool:
    """A word that is no function word follows ``at`` ("those patients": a determiner of
    something else, not a pronoun)."""
    nxt = _WORD.match(text[at:].lstrip())
    return nxt is not None and nxt.group().lower() not in FUNCTION_WORDS


def attach(text: str, name: str) -> str:
    """``text`` asked of ``name``: "symptoms?" -> "symptoms of X?"."""
    body = text.rstrip(" ?.!")
    return f"{body} of {name}{text[len(body) :]}"


SINGULAR = re.compile(rf"\b(?:this|that|the same)\s+({_KIND_NOUN})\b", re.IGNORECASE)
"""A singular demonstrative with a kind noun ("that target", "this gene", "the same target")."""

OTHER = re.compile(rf"\bother\s+({_KIND_NOUN})\b", re.IGNORECASE)
"""Things of a kind besides one already named ("other drugs that hit the same target")."""


def others_of(text: str, kind: str) -> bool:
    """``text`` asks for things of ``kind`` other than one it refers to ("other drugs ...")."""
    return any(KIND_WORDS.get(m.group(1).lower()) == kind for m in OTHER.finditer(text))


def described(text: str, kind: str) -> tuple[int, int] | None:
    """The first "this/that/the same <kind noun>" in ``text`` whose noun names ``kind`` (the
    top answer of a list of that kind: "which drugs share that target" after a drug's
    targets)."""
    for m in SINGULAR.finditer(text):
        if KIND_WORDS.get(m.group(1).lower()) == kind:
            return m.start(), m.end()
    return None


def object_kinds(text: str, start: int) -> frozenset[str]:
    """The kinds a word at ``start`` must be when it is the object of the relation word right
    before it ("what else treats *it*": a disease, what a drug treats); empty when no relation
    word is right before it."""
    before = text[:start].lower().rstrip()
    kinds: set[str] = set()
    for rx, rels, _ in COMPILED_CUES:
        for m in rx.finditer(before):
            if m.end() == len(before):
                kinds |= {r.target for r in RELATIONS if r.rel in rels and not r.undirected}
    return frozenset(kinds)
