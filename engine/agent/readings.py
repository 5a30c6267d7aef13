"""What the planner reads from one question, each reading made once and passed to its steps.

``Wording`` is what the words say (the question's features, its form, what its names leave
uncovered); ``Meaning`` is what the exemplar bank reads it as, with the sums the planner asks of
that reading (its metapath parses are ``parsing.Parses``). A reading only some steps need is
made when first asked for (a ``cached_property``, a memo), and never again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property

from engine.graph.relations import DirectedRel
from engine.understand.bank import Slot
from engine.understand.datarel import DataVocabulary
from engine.understand.form import YES_NO_START, asks_for_things, asks_to_check
from engine.understand.lexicon import is_structural
from engine.understand.linking import example_asides
from engine.understand.mentions import LinkResult
from engine.understand.negation import is_negated, negated_spans
from engine.understand.parse import Features, features
from engine.understand.reading import SEM_ACCEPT, Reading

EXISTENTIAL = re.compile(r"\b(?:is|are)\s+there\b", re.IGNORECASE)
"""A question whether there is something ("Are there brain changes in X?")."""
CONTRACTIONS = frozenset({"m", "d", "s", "ll", "re", "ve", "t"})
"""What is left of "I'm", "I'd", "it's", "we'll" ... once the tokenizer splits at the apostrophe."""

Spans = tuple[tuple[int, int], ...]
"""(start, end) of each linked mention in the question."""
Asked = tuple[str, frozenset[str], str | None, float | None]
"""A question to the bank's reading: from which kind, naming which kinds, asking for which
kind, how sure (None: ``Reading.confident_path``'s own threshold)."""


@dataclass(frozen=True)
class Wording:
    """What the words of one question say, read once (``read_words``)."""

    text: str
    link: LinkResult
    features: Features
    """The parse's features, with the data's cues and asked kind, less the cues it denies."""
    spans: Spans
    covered: frozenset[int]
    """Indices of the tokens inside a mention."""
    uncovered: tuple[str, ...]
    """Words beyond the names, cue and function words, digits and an opening auxiliary."""
    structured: bool
    """The question names the kind it asks for or a relation cue."""
    leading: bool
    """It opens with the auxiliary of a yes/no question ("Does ...", "Isn't ...")."""

    @cached_property
    def asks_for_things(self) -> bool:
        """A clause opens with an interrogative or a request (``form.asks_for_things``)."""
        return asks_for_things(self.text)

    @cached_property
    def asks_to_check(self) -> bool:
        """It wants a yes or a no outright, or embeds one (``form.asks_to_check``)."""
        return asks_to_check(self.text)

    @cached_property
    def existential(self) -> bool:
        """It asks whether there is something (``EXISTENTIAL``)."""
        return bool(EXISTENTIAL.search(self.text))


def read_words(question: str, link: LinkResult, spans: Spans, data: DataVocabulary) -> Wording:
    """The ``Wording`` of ``question``: its features read with the store's ``data`` vocabulary
    and its negations, and each reading of its form the planner uses."""
    f = features(question, link.tokens, link.mentions)
    if data:
        f = replace(f, cues=data.find_cues(f.norm, f.cues, spans))
        asked = data.asked_kind(f.norm, spans) if f.target_kind is None else None
        if asked is not None:
            named = f.named_kinds | {asked[0]}
            f = replace(f, target_kind=asked[0], target_pos=asked[1], named_kinds=named)
    if not f.yes_no:
        # a relation word the question negates says what the answer is not; one in an
        # aside that gives examples ("roles, such as receptor activity, ...") says what
        # the answer is like
        denied = negated_spans(question, link.tokens) + example_asides(question)
        f = replace(f, cues=tuple(c for c in f.cues if not is_negated(denied, c.start)))
    covered = frozenset(i for m in link.mentions for i in range(m.first_token, m.last_token + 1))
    uncovered = tuple(
        t.text
        for i, t in enumerate(link.tokens)
        if i not in covered
        and not is_structural(t.norm)
        and not t.norm.isdigit()
        and not (i == 0 and t.norm in YES_NO_START)
        and t.norm not in CONTRACTIONS
    )
    return Wording(
        text=question,
        link=link,
        features=f,
        spans=spans,
        covered=covered,
        uncovered=uncovered,
        structured=f.target_kind is not None or bool(f.cues),
        leading=bool(link.tokens) and link.tokens[0].norm in YES_NO_START,
    )


@dataclass(frozen=True)
class Meaning:
    """What the exemplar bank reads the question as (``reading``), with the sums of that
    reading the planner weighs, each summed once, when first asked for."""

    reading: Reading
    _graph: dict[str, float] = field(default_factory=dict, init=False, repr=False, compare=False)
    _hops: dict[str, dict[str, float]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _paths: dict[Asked, tuple[DirectedRel, ...] | None] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @classmethod
    def of(cls, reading: Reading | None) -> Meaning | None:
        """The meaning of ``reading`` (None without one)."""
        return cls(reading) if reading is not None else None

    @cached_property
    def claim(self) -> float:
        """Probability of the claim slots."""
        return self.reading.intent_prob("claim")

    @cached_property
    def mechanism(self) -> float:
        """Probability of the mechanism slot."""
        return self.reading.intent_prob("mechanism")

    @cached_property
    def top(self) -> tuple[Slot, float] | None:
        """The most probable slot."""
        return self.reading.top_slot()

    def graph_mass(self, kind: str) -> float:
        """Probability that the question asks a graph relation from an entity of ``kind``
        (``Reading.graph_mass``)."""
        if kind not in self._graph:
            self._graph[kind] = self.reading.graph_mass(kind)
        return self._graph[kind]

    def first_hops(self, kind: str) -> dict[str, float]:
        """P(first relation from a seed of ``kind``) (``Reading.first_hops``), summed once
        per kind."""
        if kind not in self._hops:
            self._hops[kind] = self.reading.first_hops(kind)
        return self._hops[kind]

    def confident_path(
        self,
        kind: str,
        named: frozenset[str],
        asked: str | None,
        threshold: float | None = None,
    ) -> tuple[DirectedRel, ...] | None:
        """The relation (or chain) the bank is sure the question asks from an entity of
        ``kind`` (``Reading.confident_path``, at its own threshold unless given one), read
        once per kind, kinds named and threshold."""
        key = (kind, named, asked, threshold)
        if key not in self._paths:
            r = self.reading
            self._paths[key] = (
                r.confident_path(kind, named, asked)
                if threshold is None
                else r.confident_path(kind, named, asked, threshold)
            )
        return self._paths[key]

    def graph_reading(self, kind: str) -> bool:
        """The bank reads the question as a graph relation from an entity of ``kind``."""
        top = self.top
        return (
            top is not None
            and top[0].intent in {"one_hop", "multihop"}
            and top[0].given == kind
            and self.graph_mass(kind) >= SEM_ACCEPT
        )


def graph_reading(meaning: Meaning | None, kind: str) -> bool:
    """``Meaning.graph_reading``; never without a reading."""
    return meaning is not None and meaning.graph_reading(kind)
