"""Drug classes a memory question names ("any blood thinners for 50312?", "which
aminoglycoside was he on?", "what antipsychotic is she on?"), read through the knowledge
graph's pharmacologic classes and the drugs each includes (``PCiC``).

A class is named when the statement linker reads one (exact names and clinical short forms,
``shortforms.tsv``: "blood thinners" -> anticoagulants, "steroids" -> glucocorticoids), or a
word of the question, or two or three words together, is a class's name in the singular or plural or
with "agents" after it ("antipsychotic" -> "Antipsychotic Agents", "ace inhibitor" -> the
short form "ACE inhibitors"). A class the question linker found by a looser
match counts only when its name begins with what the question wrote ("anticoagulation" is no
"Reversed Anticoagulation Activity"). The drugs of a class are those of every class of the
same name, spelt either way ("Anti-coagulant" and "Anticoagulants").

``memory.answer`` keeps, of the values asked about, those in the class, and says none is
recorded when no value of the patient's is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher
from itertools import pairwise

from engine.result import LinkedEntity
from engine.util.text import alias_key

CLASS = "Pharmacologic Class"
COMPOUND = "Compound"
_WORD = re.compile(r"[A-Za-z][A-Za-z-]{3,}")
_ANY_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
_SAME_START = 0.85
"""How alike the start of a class's name must be to what the question wrote, for a class the
question linker matched loosely ("mood stabiliser" -> "Mood Stabilizer")."""

DESCRIBED = 2
"""Classes the graph must give a drug before a class it does not give it says the drug is not
of that class."""
NameOf = Callable[[str], str | None]
MembersOf = Callable[[str], Iterable[str]]
"""The other ends of a node's ``PCiC`` triples: a class's compounds, a compound's classes."""


@dataclass(frozen=True)
class NamedClass:
    mention: str
    start: int
    end: int
    members: frozenset[str]
    """Compound ids of the class (of every class of its name)."""
    stems: frozenset[str] = frozenset()
    """Its names, and the question's word for it, without "agents", spaces, hyphens or a
    plural "s" ("antibacterial", "steroid"): a drug of a class whose name holds one is of it
    too ("Aminoglycoside Antibacterial", "Corticosteroid")."""


class DrugClasses:
    """Which drug classes a question names, and their drugs (cached per class)."""

    def __init__(
        self,
        link: Callable[[str], list[LinkedEntity]],
        name_of: NameOf,
        members_of: MembersOf,
    ) -> None:
        """``link``: the statement linker (exact names and short forms); ``members_of``: a
        class's compounds (the graph's ``PCiC``)."""
        self._link = link
        self._name = name_of
        self._members_of = members_of
        self._members: dict[str, frozenset[str]] = {}

    def named(self, question: str, linked: Iterable[LinkedEntity]) -> list[NamedClass]:
        """The classes ``question`` names, in text order; ``linked``: what the question
        linker found in it."""
        found: dict[tuple[int, int], tuple[str, set[str]]] = {}
        taken: list[tuple[int, int]] = []
        own = self._link(question)
        for e in [*own, *linked]:
            if e.start < 0:
                continue
            if e.kind != CLASS:
                if e in own and e.kind == COMPOUND:
                    taken.append((e.start, e.end))  # a drug's name is no class word
            elif e in own or _begins(e.mention, e.name):
                found.setdefault((e.start, e.end), (e.mention, set()))[1].add(e.id)
        words = list(_ANY_WORD.finditer(question))
        # three words, two ("ace inhibitor" of "ACE inhibitors"), then one ("antipsychotic")
        phrases = [(a.start(), c.end()) for a, c in zip(words, words[2:], strict=False)]
        phrases += [(a.start(), b.end()) for a, b in pairwise(words)]
        phrases += [m.span() for m in _WORD.finditer(question)]
        for span in phrases:
            if any(a < span[1] and span[0] < b for a, b in [*taken, *found]):
                continue
            said = question[span[0] : span[1]]
            ids = self._classes(alias_key(said))
            if ids:
                found[span] = (said, set(ids))
        out = []
        for (start, end), (mention, class_ids) in sorted(found.items()):
            members = frozenset().union(*(self._drugs(i) for i in class_ids))
            if members:
                names = [mention, *(self._name(i) or "" for i in class_ids)]
                stems = frozenset(_stem(n) for n in names) - {""}
                out.append(NamedClass(mention, start, end, members, stems))
        return out

    def holds(self, named: NamedClass, drug: str) -> bool | None:
        """Whether ``drug`` is of the class named: True, False, or None when the graph cannot
        tell (a drug it does not know, or describes by fewer than ``DESCRIBED`` classes: the
        graph's classes of a drug are not complete)."""
        if drug in named.members:
            return True
        if not drug.startswith(COMPOUND):
            return None
        if drug not in self._members:
            self._members[drug] = frozenset(self._members_of(drug))
        own = self._members[drug]
        names = [_stem(self._name(c) or "") for c in own]
        if any(stem in name for stem in named.stems for name in names if name):
            return True
        return False if len(own) >= DESCRIBED else None

    def _classes(self, key: str) -> list[str]:
        """Class nodes named ``key``, in the singular or plural or with "agents" after it."""
        out: list[str] = []
        for variant in _variants(key):
            out += [
                e.id
                for e in self._link(variant)
                if e.kind == CLASS and e.start == 0 and e.end == len(variant) and e.id not in out
            ]
        return out

    def _drugs(self, node: str) -> frozenset[str]:
        if node not in self._members:
            # every class of the same name ("Anti-coagulant", "Anticoagulants")
            ids = {node} | set(self._classes(alias_key(self._name(node) or "")))
            self._members[node] = frozenset(
                m for i in sorted(ids) for m in self._members_of(i) if m.startswith(COMPOUND)
            )
        return self._members[node]


def _variants(key: str) -> list[str]:
    """A class name's alias keys in the singular and plural, hyphen-free, and with "agents"."""
    if not key:
        return []
    forms = {key, key.replace(" ", "")}
    out: set[str] = set()
    for form in forms:
        stem = form[:-1] if form.endswith("s") and not form.endswith("ss") else form
        out |= {form, stem, f"{stem}s", f"{stem} agents"}
    return sorted(out)


def _stem(name: str) -> str:
    words = [w for w in alias_key(name).split() if w not in ("agent", "agents")]
    joined = "".join(words)
    return joined[:-1] if joined.endswith("s") and not joined.endswith("ss") else joined


def _begins(mention: str, name: str) -> bool:
    """Whether a class's ``name`` begins with (about) what the question wrote."""
    said = alias_key(mention).replace(" ", "")
    own = alias_key(name).replace(" ", "")
    if not said or not own:
        return False
    return SequenceMatcher(None, said, own[: len(said)]).ratio() >= _SAME_START
