"""Remarks: what a user said about a patient or a project that states no fact memory can
structure ("We dropped compound HX-114, hepatotox in the mice.", "last exacerbation feb,
needed doxy"), kept as written under its subject.

A remark answers a question only when no relation does and the question shares a word of
its own with it (a word's forms count as one: "drop" and "dropped"); the words the question
names its subject by, and the words any question is made of, do not count.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memory.vault import Fact

REMARK_RELATIONS = frozenset({"patient_remark", "project_remark"})
"""The relations remarks are kept in (``relations.yaml``), one per kind of subject."""
_WORD = re.compile(r"[A-Za-z0-9][\w-]*")
_STEM = 4
"""Letters two forms of a word share at least ("drop", "dropped")."""
_ASKING = frozenset(
    """what which who whom whose why how when where did does do done is are was were be been
    being we our us my mine i you your me the a an for of on in to from by with and or any
    have has had about at as now currently current latest last first still this that these
    those there their they them his her hers him she he it its tell remind please again
    patient pt mrn bed project program programme screen study team note notes record
    recorded said say told give gave get got can could would should will""".split()
)


def words(text: str) -> set[str]:
    """The content words of ``text``, lower-cased. Pure."""
    return {
        w
        for w in (m.group().lower() for m in _WORD.finditer(text))
        if w not in _ASKING and (len(w) >= 3 or any(c.isdigit() for c in w))
    }


def _same_word(a: str, b: str) -> bool:
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= _STEM and long_.startswith(short[: max(_STEM, len(short) - 2)])


def best_remark(question: str, remarks: Iterable[Fact], named: Iterable[str] = ()) -> Fact | None:
    """The remark that shares the most words with ``question`` (the latest of equals), none
    of them the words in ``named`` (how the question names its subject); None when no remark
    shares one. Pure."""
    asked = words(question) - {w.lower() for n in named for w in _WORD.findall(n)}
    best: tuple[int, Fact] | None = None
    for fact in remarks:
        said = words(fact.obj)
        shared = sum(1 for w in asked if any(_same_word(w, s) for s in said))
        if shared and (best is None or (shared, fact.t_start) >= (best[0], best[1].t_start)):
            best = (shared, fact)
    return best[1] if best else None
