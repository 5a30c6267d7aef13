"""Relations and relation words that come from a store's data, not from the code.

A KGX layer brings predicates (``ingest/kgx.py`` records each in the ``predicates`` table with
the relation it became between which kinds). A predicate that is a relation of its own
(``has_mode_of_inheritance``, ``model_of``) is walked like any relation and can be asked by
its words ("mode of inheritance", "model"); a predicate folded into a Hetionet relation adds
the words that relation's cues lack ("phenotype" for ``has_phenotype`` -> ``DpS``). Action
types on drug-target edges (``actions.py``) ask for ``CbG`` restricted to that action.

The cue words are the predicate's own words minus function words, kind nouns and Biolink
fillers: a word no static cue knows is a strong cue; for a predicate of its own, words the
static cues already read ("causes", "associated") join those cues at the same place (weakly,
only when the predicate has no word of its own).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from engine.graph.actions import ACTION_SOURCE, TYPED_REL
from engine.graph.metapaths import Metapath
from engine.graph.relations import BY_ABBREV, LAYER_RELATIONS, DirectedRel
from engine.graph.store import KGStore
from engine.understand.actions import ActionVocabulary
from engine.understand.lexicon import FUNCTION_WORDS, KIND_WORDS, STRONG, WEAK, Cue, is_cue_word

FILLER = frozenset("has have had applied studied condition entity thing biolink".split())
"""Words of Biolink predicate names that say nothing about what is asked."""
MIN_WORD = 4
FIXED = frozenset(BY_ABBREV) | {r.rel for r in LAYER_RELATIONS}
"""Relations the code knows: their uses and cues are not the data's."""

PredicateRow = tuple[str, str, str, str]
"""(predicate, relation, subject kind, object kind), triples stored subject first."""


def predicate_words(predicate: str) -> list[str]:
    """'has_mode_of_inheritance' -> ['mode', 'inheritance']."""
    words = predicate.lower().replace("-", "_").split("_")
    return [
        w
        for w in words
        if len(w) >= MIN_WORD
        and w not in FUNCTION_WORDS
        and w not in KIND_WORDS
        and w not in FILLER
    ]


def word_pattern(word: str) -> str:
    """The word with its inflections: 'phenotype' matches 'phenotypes', 'phenotypic'."""
    stem = word[:-1] if word.endswith(("s", "e")) and len(word) > 5 else word
    return rf"\b{re.escape(stem)}\w*" if len(stem) >= 5 else rf"\b{re.escape(word)}s?\b"


@dataclass(frozen=True)
class DataCue:
    pattern: re.Pattern[str]
    rels: tuple[str, ...]
    weight: float
    word: str


def data_cues(rows: Iterable[PredicateRow]) -> tuple[DataCue, ...]:
    """Cue patterns for the words of the predicates (see the module docstring)."""
    by_word: dict[str, tuple[set[str], float]] = {}
    for pred, rel, _, _ in rows:
        words = predicate_words(pred)
        own = [w for w in words if not is_cue_word(w)]
        if rel in FIXED and rel not in BY_ABBREV:
            continue  # folded into a relation no question walks ('subclass_of' -> DsD)
        if rel in FIXED:
            chosen, weight = own, STRONG
        else:
            chosen, weight = (own, STRONG) if own else (words, WEAK)
        for w in chosen:
            rels, best = by_word.get(w, (set(), 0.0))
            by_word[w] = (rels | {rel}, max(best, weight))
    return tuple(
        DataCue(re.compile(word_pattern(w)), tuple(sorted(rels)), weight, w)
        for w, (rels, weight) in sorted(by_word.items())
    )


GENERIC_KINDS = frozenset({"Entity", "Named Thing", "Thing", "Biological Entity"})


def kind_nouns(kinds: Iterable[str]) -> dict[str, str]:
    """Nouns for kinds the code does not know: the kind and its head word, with plurals
    ('Sequence Variant' -> 'sequence variant(s)', 'variant(s)')."""
    known = set(KIND_WORDS.values())
    out: dict[str, str] = {}
    for kind in sorted(set(kinds) - known - GENERIC_KINDS):
        name = kind.lower()
        head = name.split()[-1]
        for noun in (name, head):
            if noun in KIND_WORDS or noun in FUNCTION_WORDS:
                continue
            out.setdefault(noun, kind)
            out.setdefault(noun + ("es" if noun.endswith(("s", "x")) else "s"), kind)
    return out


def data_uses(rows: Iterable[PredicateRow]) -> tuple[DirectedRel, ...]:
    """Directed uses of the relations the data brings (both directions, per kind pair)."""
    uses: dict[DirectedRel, None] = {}
    for _, rel, src, dst in rows:
        if rel in FIXED:
            continue
        uses[DirectedRel(rel, False, src, dst)] = None
        uses[DirectedRel(rel, True, dst, src)] = None
    return tuple(uses)


@dataclass(frozen=True)
class TypedReading:
    """A drug-target question restricted to one action type (or why it could not be)."""

    dist: list[tuple[Metapath, float]]
    action: str
    typed: bool
    """False when the seed has no edge of that action: the plain relation is walked."""
    note: str
    """'DrugCentral: inhibitor', or what was walked instead."""


class DataVocabulary:
    """What a store's layers add to the relation vocabulary: walkable uses, cue words, and
    the action types of typed drug-target edges."""

    def __init__(
        self, rows: Sequence[PredicateRow], actions: Iterable[str], source: str = ACTION_SOURCE
    ) -> None:
        self.uses = data_uses(rows)
        self.cues = data_cues(rows)
        self.actions = ActionVocabulary(actions, source)
        self.kinds = kind_nouns(u.dst for u in self.uses)
        """Nouns of the kinds only the data has ('genotypes', 'variants')."""

    @classmethod
    def of(cls, store: KGStore) -> DataVocabulary:
        """The vocabulary of a store's active layers."""
        return cls(store.predicates, store.details(TYPED_REL, ACTION_SOURCE))

    def __bool__(self) -> bool:
        return bool(self.uses or self.cues or self.actions.actions)

    def typed(
        self,
        dist: list[tuple[Metapath, float]],
        norm: str,
        spans: Sequence[tuple[int, int]],
        seed: str,
        degree: Callable[[DirectedRel], int],
    ) -> TypedReading | None:
        """When the question asks for an action type ("What does X inhibit?") and its best
        reading starts with ``CbG``: the readings starting with ``CbG`` restricted to that
        action's edges if the seed has any (``degree`` of the seed along a use), else left
        as they are, with a note saying so."""
        hit = self.actions.find(norm, spans)
        if hit is None or not dist or dist[0][0].uses[0].rel != TYPED_REL:
            return None
        name = hit.action.name

        def restrict(mp: Metapath) -> Metapath:
            first = mp.uses[0]
            if first.rel != TYPED_REL:
                return mp
            return Metapath((replace(first, detail=name), *mp.uses[1:]))

        if degree(replace(dist[0][0].uses[0], detail=name)) == 0:
            source = self.actions.source
            note = f"no {source} edge of {seed} is typed '{name}', so every binding is listed"
            return TypedReading(dist, name, False, note)
        typed = [(restrict(mp), p) for mp, p in dist]
        return TypedReading(typed, name, True, f"{self.actions.source}: {name}")

    @property
    def words(self) -> frozenset[str]:
        """Words that ask for a relation or an action (never part of a name)."""
        nouns = {n for n in self.kinds if " " not in n}
        return frozenset(c.word for c in self.cues) | self.actions.words | nouns

    def asked_kind(self, norm: str, spans: Sequence[tuple[int, int]]) -> tuple[str, int] | None:
        """The first noun of a data-only kind outside the mentions ("Which *variants* cause
        X?" -> Sequence Variant), with its offset."""
        best: tuple[str, int] | None = None
        for noun, kind in self.kinds.items():
            for m in re.finditer(rf"\b{re.escape(noun)}\b", norm):
                if not any(s <= m.start() < e for s, e in spans) and (
                    best is None or m.start() < best[1]
                ):
                    best = (kind, m.start())
        return best

    def find_cues(
        self, norm: str, cues: Sequence[Cue], spans: Sequence[tuple[int, int]]
    ) -> tuple[Cue, ...]:
        """``cues`` (the static lexicon's) with the data's added: a data word at a cue's
        place joins that cue's relations; an action word is a ``CbG`` cue."""
        found: dict[int, Cue] = {c.start: c for c in cues}
        extra = [(c.pattern, c.rels, c.weight) for c in self.cues]
        for rx, rels, weight in extra:
            for m in rx.finditer(norm):
                self._add(found, spans, m.start(), m.end(), m.group(), rels, weight)
        hit = self.actions.find(norm, spans)
        if hit is not None:
            self._add(found, spans, hit.start, hit.end, hit.text, (TYPED_REL,), STRONG)
        return tuple(sorted(found.values(), key=lambda c: c.start))

    @staticmethod
    def _add(
        found: dict[int, Cue],
        spans: Sequence[tuple[int, int]],
        start: int,
        end: int,
        text: str,
        rels: tuple[str, ...],
        weight: float,
    ) -> None:
        if any(s <= start < e for s, e in spans):
            return
        old = found.get(start)
        if old is None:
            found[start] = Cue(rels, start, end, text, weight)
        elif not set(rels) <= set(old.rels):
            merged = tuple(dict.fromkeys((*old.rels, *rels)))
            found[start] = Cue(merged, old.start, max(old.end, end), old.text, old.weight)
