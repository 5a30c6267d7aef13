"""The words of a question that ask for one typed drug-target action.

The vocabulary is the data's action types (``engine.graph.actions``), found in a question by
their surface forms; the longest form found wins.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.graph.actions import ACTION_SOURCE, Action, action_of
from engine.understand.lexicon import FUNCTION_WORDS


@dataclass(frozen=True)
class ActionMatch:
    action: Action
    start: int
    end: int
    text: str


class ActionVocabulary:
    """The action types of a store's active layers, found in questions by their forms."""

    def __init__(self, names: Iterable[str], source: str = ACTION_SOURCE) -> None:
        kept = sorted(
            {n.strip().lower() for n in names if n.strip()} - FUNCTION_WORDS,
            key=lambda n: (-len(n), n),
        )
        self.source = source
        self.actions: dict[str, Action] = {n: action_of(n) for n in kept}
        by_form: dict[str, Action] = {}
        for a in self.actions.values():
            for f in a.forms:
                by_form.setdefault(f, a)
        self._by_form = by_form
        forms = sorted(by_form, key=lambda f: (-len(f), f))
        self._rx = (
            re.compile(r"\b(?:" + "|".join(re.escape(f) for f in forms) + r")\b") if forms else None
        )

    @property
    def words(self) -> frozenset[str]:
        """One-word forms that ask for an action ('inhibit', 'agonists'): never part of a
        name. The modifiers of a multi-word type ('positive', 'partial') are not among them."""
        return frozenset(f for f in self._by_form if " " not in f)

    def find(self, norm: str, spans: Sequence[tuple[int, int]] = ()) -> ActionMatch | None:
        """The longest action form in the normalised question outside the mention spans."""
        if self._rx is None:
            return None
        best: ActionMatch | None = None
        for m in self._rx.finditer(norm):
            if any(s <= m.start() < e for s, e in spans):
                continue
            if best is None or m.end() - m.start() > best.end - best.start:
                best = ActionMatch(self._by_form[m.group()], m.start(), m.end(), m.group())
        return best
