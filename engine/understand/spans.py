"""Mention spans: every alias of the graph found in one pass with an Aho-Corasick automaton.

The question is turned into a string of alias keys, one per token, separated by single spaces
and framed by spaces; each alias key is added to the automaton framed the same way, so a match
always starts and ends on a token boundary ("everolimus" never matches inside "everolimuses",
and a verb after a name is never part of it). Overlapping matches are all reported; the linker
keeps the longest non-overlapping ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import ahocorasick

from engine.util.text import alias_key


@dataclass(frozen=True)
class Span:
    """Tokens ``first``..``last`` (inclusive) spell the alias ``key``."""

    first: int
    last: int
    key: str


SEP = "\x00"


def pack(texts: list[str]) -> str | list[str]:
    """``texts`` as one string to pickle (read back by one ``split``, not one object each),
    or as they are when there are none or one holds the separator."""
    joined = SEP.join(texts)
    return joined if texts and joined.count(SEP) == len(texts) - 1 else texts


def unpack(packed: str | list[str]) -> list[str]:
    """The list ``pack`` packed."""
    return packed if isinstance(packed, list) else packed.split(SEP)


class SpanMatcher:
    """Longest-alias matching over the whole alias table (word-boundary aware)."""

    def __init__(self, keys: Iterable[str]) -> None:
        # each alias is stored as its position in ``_keys``: an automaton of integers is read
        # back from a prepared file (``prepared.py``) in a third of the time of one of strings
        self._keys = list(keys)
        self._automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS, ahocorasick.KEY_STRING)
        count = 0
        for i, key in enumerate(self._keys):
            if key and " " not in (key[0], key[-1]):
                self._automaton.add_word(f" {key} ", i)
                count += 1
        self.size = count
        if count:
            self._automaton.make_automaton()

    def __getstate__(self) -> dict[str, object]:
        return {"automaton": self._automaton, "size": self.size, "keys": pack(self._keys)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._automaton, self.size = state["automaton"], state["size"]
        self._keys = unpack(state["keys"])

    def spans(self, token_norms: Sequence[str]) -> list[Span]:
        """Every alias spelled by a run of consecutive tokens, overlapping ones included."""
        if not self.size or not token_norms:
            return []
        keys = [alias_key(t) for t in token_norms]
        # start offset (in the framed haystack) of each token, and token index by end offset
        starts: dict[int, int] = {}
        ends: dict[int, int] = {}
        parts: list[str] = []
        pos = 1
        for i, k in enumerate(keys):
            piece = k or "_"
            starts[pos] = i
            ends[pos + len(piece) - 1] = i
            parts.append(piece)
            pos += len(piece) + 1
        haystack = " " + " ".join(parts) + " "
        out: list[Span] = []
        for end, position in self._automaton.iter(haystack):
            key = self._keys[position]
            # ``end`` is the closing space; the alias starts after the opening space
            last_char = end - 1
            first_char = end - len(key)
            first = starts.get(first_char)
            last = ends.get(last_char)
            if first is None or last is None:
                continue
            out.append(Span(first, last, str(key)))
        return out


class Placed(Protocol):
    """Anything found at ``start``..``end`` of a text."""

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...


P = TypeVar("P", bound=Placed)


def outermost(found: Sequence[P]) -> list[P]:
    """``found`` without what stands inside a longer one ("regulated" in "up-regulated",
    the note "organoid" in "glioma organoid screen"), in order. Pure."""
    return [
        f
        for f in found
        if not any(
            o is not f
            and o.start <= f.start
            and f.end <= o.end
            and o.end - o.start > f.end - f.start
            for o in found
        )
    ]
