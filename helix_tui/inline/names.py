"""Completing graph names as they are typed: the alias index sorted once, looked up by prefix
(the last one to four words before the cursor), with a fuzzy prefix match for a typo.

Each name is offered with what it names: ``Imatinib (Compound)``, ``NEP — DDR1 (Gene) / MME
(Gene)``. Pure Python (and rapidfuzz): the prompt-toolkit completer wraps it."""

from __future__ import annotations

import heapq
import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from engine.ports import AliasEntry
from engine.util.text import alias_key

MOST = 12
"""Names offered at once."""
MIN_KEY = 2
"""Characters typed before names are offered."""
MAX_WORDS = 4
"""The longest run of words before the cursor read as one name being typed."""
FUZZY_FROM = 4
"""Characters typed before a near spelling is offered too."""
FUZZY_SCORE = 80.0
"""How close (rapidfuzz ratio, 0-100) a name's start must be to what is typed."""
SHOWN_NODES = 3
"""Nodes named after an alias shared by several."""

_WORD_START = re.compile(r"(?:(?<=\s)|^)\S")


@dataclass(frozen=True)
class NameChoice:
    """One name to offer: ``text`` replaces what was typed, ``shown`` says what it names."""

    text: str
    shown: str
    primary: bool
    """It is a node's own name (offered before other aliases)."""


@dataclass(frozen=True)
class Offer:
    """A name offered for the ``typed`` characters before the cursor (they are replaced)."""

    typed: str
    choice: NameChoice


def describe(alias: str, nodes: list[tuple[str, str]]) -> str:
    """``Imatinib (Compound)``; ``Imatib — Imatinib (Compound)``; ``NEP — DDR1 (Gene) / MME
    (Gene)`` (the alias, then each node it names when it is not simply their name)."""
    named = [f"{name} ({kind})" for name, kind in nodes[:SHOWN_NODES]]
    if len(nodes) > SHOWN_NODES:
        named.append("…")
    if len(nodes) == 1 and nodes[0][0].casefold() == alias.casefold():
        return f"{alias} ({nodes[0][1]})"
    return f"{alias} — {' / '.join(named)}"


class NameIndex:
    """The alias index by key, sorted once; ``offers`` answers each keypress."""

    def __init__(self, entries: Iterable[AliasEntry]) -> None:
        groups: dict[str, list[AliasEntry]] = defaultdict(list)
        for entry in entries:
            if entry.key:
                groups[entry.key].append(entry)
        self.keys = sorted(groups)
        self.choices = [_choice(groups[key]) for key in self.keys]
        self._by_initial: dict[str, list[int]] = defaultdict(list)
        for i, key in enumerate(self.keys):
            self._by_initial[key[0]].append(i)

    def __len__(self) -> int:
        return len(self.keys)

    def offers(self, before: str, most: int = MOST, *, near: bool = True) -> list[Offer]:
        """Names for the text before the cursor: those starting with its last words (the
        longest run first); when none does and ``near``, near spellings of its last word.
        None after a space."""
        if not before or before[-1].isspace():
            return []
        starts = [m.start() for m in _WORD_START.finditer(before)][-MAX_WORDS:]
        found: list[Offer] = []
        seen: set[int] = set()
        for start in starts:
            typed = before[start:]
            for i in self._prefixed(alias_key(typed), most - len(found)):
                if i not in seen:
                    seen.add(i)
                    found.append(Offer(typed, self.choices[i]))
            if len(found) >= most:
                return found
        if found or not near:
            return found
        last = before[starts[-1] :]
        return [Offer(last, self.choices[i]) for i in self._near(alias_key(last), most)]

    def _prefixed(self, key: str, most: int) -> list[int]:
        """Keys starting with ``key``: own names first, then the shortest."""
        if len(key) < MIN_KEY or most <= 0:
            return []
        lo = bisect_left(self.keys, key)
        hi = bisect_left(self.keys, key + "\uffff", lo)
        return heapq.nsmallest(
            most, range(lo, hi), key=lambda i: (self.keys[i] != key, *self._rank(i))
        )

    def _near(self, key: str, most: int) -> list[int]:
        """Keys whose start is a near spelling of ``key`` (same first letter)."""
        pool = self._by_initial.get(key[:1], [])
        width = len(key) + 1
        if len(key) < FUZZY_FROM:
            return []
        hits = process.extract(
            key,
            [self.keys[i][:width] for i in pool],
            scorer=fuzz.ratio,
            score_cutoff=FUZZY_SCORE,
            limit=most * 4,
        )
        ranked = sorted(hits, key=lambda h: (-h[1], self._rank(pool[h[2]])))
        return [pool[h[2]] for h in ranked[:most]]

    def _rank(self, i: int) -> tuple[bool, int, str]:
        return (not self.choices[i].primary, len(self.keys[i]), self.keys[i])


def _choice(entries: list[AliasEntry]) -> NameChoice:
    ordered = sorted(entries, key=lambda e: (not e.primary, e.kind, e.name, e.node_id))
    nodes = list(dict.fromkeys((e.name, e.kind) for e in ordered))
    alias = ordered[0].alias
    return NameChoice(alias, describe(alias, nodes), any(e.primary for e in entries))
