"""A drug's level, as a ward writes it: "tac level 11.8 ng/ml", "gent level was 1.8 mg/l
trough", "tacrolimus 3mg bd, level 6.1 ng/ml". The level is a test of its own, named by the
drug: its key is "<drug> level" with the drug read as the graph or the record names it (a
clipped "tac" is the patient's tacrolimus), so every way of writing it is one series. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from engine.util.text import alias_key
from memory.literals import LEVEL_WORDS, Measurement, level_key

_MIN_CLIP = 3
"""Letters a clipped drug name keeps at least ("tac", "gent")."""
_ALONE = re.compile(
    r"(?<![\w-])(?P<word>" + "|".join(sorted(LEVEL_WORDS)) + r")\s+"
    r"(?:(?:was|is|of|at|now|came back at)\s+)?"
    r"(?P<value>\d+(?:[.,]\d+)?\s?[A-Za-zµμ]+/[A-Za-zµμ]+|\d+[.,]\d+)(?![\w/.,])",
    re.IGNORECASE,
)
"""A level said with no drug before it ("..., level 6.1 ng/ml", "level 0.9 this morning"): a
value with a unit of concentration, or with decimals."""
_WORD = re.compile(r"[A-Za-z][\w-]*")


@dataclass(frozen=True)
class Drug:
    """A drug a statement names: where, and the name it goes by."""

    start: int
    end: int
    name: str


def drug_named(word: str, named: Sequence[Drug], start: int, known: Iterable[str]) -> str | None:
    """The name of the drug ``word`` (at ``start``) stands for: the drug linked there, else
    the one name of ``known`` (the patient's medications) it is or begins; None otherwise."""
    for d in named:
        if d.start == start:
            return d.name
    low = alias_key(word)
    if len(low) < _MIN_CLIP:
        return None
    hits = {n for n in known if n == low or n.startswith(low)}
    return hits.pop() if len(hits) == 1 else None


def named_levels(
    text: str, found: Sequence[Measurement], named: Sequence[Drug], known: Iterable[str]
) -> list[Measurement]:
    """``found`` with each level read under its drug's name ("tac level 11.8 ng/ml" ->
    "tacrolimus level 11.8 ng/ml"), and a level said alone given the drug named last before
    it in ``text`` ("tacrolimus 3mg bd, level 6.1 ng/ml"). ``named``: the drugs linked in
    the statement; ``known``: the normalised names of the patient's medications."""
    names = [n for n in known if n]
    out: list[Measurement] = []
    for m in found:
        if m.key.lower() in LEVEL_WORDS:
            continue  # "vanc 1g bd, trough 18 mg/l": read below, under the drug before it
        drug = level_key(m.key)
        name = drug_named(drug, named, m.start, names) if drug is not None else None
        if drug is None or name is None:
            out.append(m)
            continue
        key = f"{name} level"
        out.append(Measurement(f"{key}{m.literal[len(m.key) :]}", key, m.start, m.end))
    for alone in _ALONE.finditer(text):
        if any(m.start <= alone.start() < m.end for m in out):
            continue
        before = [d for d in named if d.end <= alone.start()]
        if not before:
            continue
        key = f"{max(before, key=lambda d: d.end).name} level"
        value = alone.group("value")
        out.append(Measurement(f"{key} {value}", key, alone.start(), alone.end()))
    return sorted(out, key=lambda m: m.start)


def asked_level(question: str, keys: Iterable[str]) -> str | None:
    """The key of ``keys`` (levels kept: "tacrolimus level") a question asks by a word for
    its drug, whole or clipped, before a word for a level ("tac level", "gent trough")."""
    words = _WORD.findall(question)
    levels = {k: level_key(k) for k in keys}
    for word, after in pairwise(words):
        if after.lower() not in LEVEL_WORDS:
            continue
        low = alias_key(word)
        hits = [
            k
            for k, drug in levels.items()
            if drug is not None and len(low) >= _MIN_CLIP and drug.startswith(low)
        ]
        if len(hits) == 1:
            return hits[0]
    return None
