"""Mention spans: every alias of the graph spelled by a run of consecutive tokens.

The question is turned into alias keys, one per token; each run of consecutive tokens, its
keys joined by single spaces, is looked up in the alias table, so a match always starts and
ends on a token boundary ("everolimus" never matches inside "everolimuses", and a verb after a
name is never part of it). Overlapping matches are all reported; the linker keeps the longest
non-overlapping ones. Runs longer than the longest alias are not tried: a question of twenty
words is a few hundred look-ups, and the index keeps no structure beside the table itself.
"""

from __future__ import annotations

from array import array
from collections.abc import Collection, Container, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, overload

from engine.util.artefact import pack, unpack
from engine.util.text import alias_key

__all__ = ["Span", "SpanMatcher", "Strings", "outermost", "pack", "unpack"]


@dataclass(frozen=True)
class Span:
    """Tokens ``first``..``last`` (inclusive) spell the alias ``key``."""

    first: int
    last: int
    key: str


class Strings(Sequence[str]):
    """A list of strings kept as one string and where each starts: a prepared file reads it
    back as two objects, not one per string, and an item is sliced out when asked for."""

    def __init__(self, texts: Sequence[str]) -> None:
        self._text = "".join(texts)
        self._starts = array("q", [0])
        for t in texts:
            self._starts.append(self._starts[-1] + len(t))

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self._text[self._starts[i] : self._starts[i + 1]]

    def __len__(self) -> int:
        return len(self._starts) - 1


def _matchable(key: str) -> bool:
    """A key a run of tokens can spell: not empty, no space at either end."""
    return bool(key) and " " not in (key[0], key[-1])


class SpanMatcher:
    """Longest-alias matching over the whole alias table (word-boundary aware)."""

    def __init__(self, keys: Collection[str]) -> None:
        """``keys``: the alias keys; a mapping or set of them is kept as it is (the alias
        index passes its candidate table, so a prepared index holds the keys once)."""
        self._keys: Container[str] = keys if isinstance(keys, Mapping | Set) else frozenset(keys)
        lengths = [len(k) for k in keys if _matchable(k)]
        self.size = len(lengths)
        self._longest = max(lengths, default=0)

    def __getstate__(self) -> dict[str, object]:
        return {"keys": self._keys, "size": self.size, "longest": self._longest}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._keys, self.size, self._longest = state["keys"], state["size"], state["longest"]

    def spans(self, token_norms: Sequence[str]) -> list[Span]:
        """Every alias spelled by a run of consecutive tokens, overlapping ones included: by
        last token, and of those ending together the longest first."""
        if not self.size or not token_norms:
            return []
        pieces = [alias_key(t) or "_" for t in token_norms]
        out: list[Span] = []
        for last in range(len(pieces)):
            ending: list[Span] = []
            key = pieces[last]
            first = last
            while len(key) <= self._longest:
                if _matchable(key) and key in self._keys:
                    ending.append(Span(first, last, key))
                first -= 1
                if first < 0:
                    break
                key = f"{pieces[first]} {key}"
            out.extend(reversed(ending))
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
