"""Medications a question names as the user wrote them: "his norad rate", "the pip-taz",
"clinda dose" — a word the linker does not know, that is the name (or the beginning of the
name) of a medication stated for the patient asked about. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from engine.result import LinkedEntity
from engine.understand.lexicon import FUNCTION_WORDS
from engine.util.text import alias_key
from memory.vault import Fact

_WORD = re.compile(r"(?<![\w-])[A-Za-z][\w-]{2,}(?![\w-])")
_MIN_CLIP = 4
"""Letters the beginning of a name must have to stand for it ("gent", "clinda"); three do
for a word that is no function word ("tac" of tacrolimus, not "the" of theophylline)."""


def names_of(fact: Fact) -> set[str]:
    """The normalised names a medication fact goes by: the graph's and the user's ("Apixaban
    (Eliquis)" -> apixaban, eliquis), or the word it was kept as ("norad")."""
    written = (fact.obj_name or "").replace(")", "").split(" (")
    names = {alias_key(n) for n in (*written, fact.obj) if n and "::" not in n}
    return {n for n in names if n}


def said_drugs(
    question: str,
    drugs: Iterable[Fact],
    taken: Sequence[tuple[int, int]] = (),
    asks: Callable[[str], bool] = lambda _: False,
) -> list[LinkedEntity]:
    """The medications of ``drugs`` that words of ``question`` outside ``taken`` spans name,
    whole or by their beginning; a word that could be several names none, and a word that
    ``asks`` says is a question's own ("meds" is no beginning of medroxyprogesterone)."""
    facts = list(drugs)
    out: list[LinkedEntity] = []
    for m in _WORD.finditer(question):
        if any(m.start() < b and a < m.end() for a, b in taken):
            continue
        word = alias_key(m.group())
        clip = len(word) >= _MIN_CLIP or (len(word) == 3 and word not in FUNCTION_WORDS)
        hits = {
            f.obj: f
            for f in facts
            if any(n == word or (clip and n.startswith(word)) for n in names_of(f))
        }
        if len(hits) != 1 or asks(m.group()):
            continue
        fact = next(iter(hits.values()))
        out.append(
            LinkedEntity(
                mention=m.group(),
                id=fact.obj,
                name=fact.obj_name or fact.obj,
                kind="Compound",
                score=1.0,
                method="user",
                start=m.start(),
                end=m.end(),
            )
        )
    return out


def as_stated(linked: Sequence[LinkedEntity], drugs: Iterable[Fact]) -> list[LinkedEntity]:
    """``linked`` with a drug of the graph that is none of ``drugs`` read as the one of them
    kept as written whose name is the graph name's leading words ("mmf" links Mycophenolate
    mofetil; the user stated "mycophenolate 1g bd"). A drug that could be several is left."""
    facts = [f for f in drugs if "::" not in f.obj]
    ids = {f.obj for f in drugs}
    out: list[LinkedEntity] = []
    for e in linked:
        name = f"{alias_key(e.name or '')} "
        hits = {
            f.obj: f
            for f in facts
            if e.kind == "Compound"
            and e.id not in ids
            and any(name.startswith(f"{n} ") for n in names_of(f))
        }
        if len(hits) != 1:
            out.append(e)
            continue
        f = next(iter(hits.values()))
        out.append(e.model_copy(update={"id": f.obj, "name": f.obj_name or f.obj}))
    return out


_CAUSE_IT = re.compile(
    r"\b(?:with|on|from|since(?: starting)?|after(?: starting)?|because of)\s+(?P<it>it)\b",
    re.IGNORECASE,
)
""""it" where a statement says what a harm came with ("getting hot flushes with it", "dizzy
since starting it")."""


def drug_it(text: str, drugs: Sequence[Fact]) -> list[LinkedEntity]:
    """The word "it" said as what a harm came with, read as the medication of ``drugs`` said
    last (the latest stated still current): the drug the conversation was about."""
    current = [f for f in drugs if f.t_end is None]
    if not current:
        return []
    last = max(current, key=lambda f: (f.first_seen, f.id))
    return [
        LinkedEntity(
            mention=m.group("it"),
            id=last.obj,
            name=last.obj_name or last.obj,
            kind="Compound",
            score=1.0,
            method="user",
            start=m.start("it"),
            end=m.end("it"),
        )
        for m in _CAUSE_IT.finditer(text)
    ]
