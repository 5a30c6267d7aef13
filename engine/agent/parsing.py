"""Scoring a question's metapaths: which parse, from which seed, the walk follows.

``Parses`` scores the metapaths from a kind for a mention once per question
(``Planner.parses``: by the cue words, and with a reading by the exemplar bank too);
``best_seed`` picks the entity whose parses explain the question best, deciding for each
whether the cue words or the bank's reading lead (``seed_parses``); ``distribution`` turns the
winner's parses into the probabilities the walk follows.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from engine.agent.readings import Meaning, graph_reading
from engine.graph.metapaths import Metapath
from engine.graph.relations import DirectedRel
from engine.result import LinkedEntity
from engine.understand.mentions import Mention
from engine.understand.parse import Features
from engine.understand.reading import SEM_ACCEPT, Reading
from engine.util.numeric import softmax

PARSE_TEMPERATURE = 0.5
"""Softmax temperature over parse scores: a cue's weight (1.0) apart is a clear preference."""
LEXICON_CONFIDENT = 1.0
"""A parse at least this good explains the question's cues by itself (a strong cue read in
order, the asked kind reached); below it the exemplar bank's reading is added."""
SEM_LIFT = 1.0
"""How far a confidently read relation is put above the best lexicon parse."""
TIE = 1e-6
"""Lexicon parses this close in score are a tie the cue words leave open."""
TOP_PARSES = 60
"""Parses a metapath distribution is made of, best first: the rest would carry no weight."""
MIN_PROBABILITY = 1e-4
"""A metapath less probable than this leaves the distribution: not worth a walk."""
ONE_HOP = 1
"""Length of the metapaths of a single relation."""

Scored = list[tuple[Metapath, float]]
"""Metapaths with their scores, best first."""
Score = Callable[[str, Mention, Features, Reading | None, dict[str, float] | None], Scored]
"""``Planner.parses``: the metapaths from a kind, scored for a mention of the question (with a
reading and its first hops from that kind)."""


class Parses:
    """One question's metapath parses, each scored once per kind and mention: by the cue words
    alone (``lexical``) and with the question's one meaning (``meant``)."""

    def __init__(self, score: Score, f: Features) -> None:
        self._score = score
        self._features = f
        self._memo: dict[tuple[str, int, int, bool], Scored] = {}

    def lexical(self, kind: str, m: Mention) -> Scored:
        """The parses from ``kind`` for mention ``m`` by the cue words alone."""
        return self._scored(kind, m, None)

    def meant(self, kind: str, m: Mention, meaning: Meaning | None) -> Scored:
        """The parses with the bank's reading of the question (``meaning``) weighing in (the
        lexical ones without a reading)."""
        return self._scored(kind, m, meaning)

    def best(self, kind: str, m: Mention) -> float | None:
        """The best lexical parse score (None: no metapath from ``kind``); ``senses.BestParse``."""
        parses = self.lexical(kind, m)
        return parses[0][1] if parses else None

    def _scored(self, kind: str, m: Mention, meaning: Meaning | None) -> Scored:
        # the parses depend on the mention only through its place (``pathfit.order_cues``)
        key = (kind, m.start, m.end, meaning is not None)
        if key not in self._memo:
            self._memo[key] = (
                self._score(kind, m, self._features, None, None)
                if meaning is None
                else self._score(kind, m, self._features, meaning.reading, meaning.first_hops(kind))
            )
        return self._memo[key]


def best_seed(
    f: Features,
    meaning: Meaning | None,
    parses: Parses,
    single: Sequence[tuple[Mention, str]],
    ents: Sequence[LinkedEntity],
) -> tuple[float, LinkedEntity, Scored] | None:
    """The entity (of ``ents``, linked from ``single``'s mentions) whose parses explain the
    question best, with the best score and its parses; an entity counts only when the question
    has cue words or an asked kind, or the bank reads a relation from it. None when none
    counts or parses."""
    best: tuple[float, LinkedEntity, Scored] | None = None
    lexical = not f.generic and (bool(f.cues) or f.target_kind is not None)
    for (m, _), e in zip(single, ents, strict=True):
        if not lexical and not graph_reading(meaning, e.kind):
            continue
        scored = seed_parses(f, meaning, parses, m, e.kind)
        if scored and (best is None or scored[0][1] > best[0]):
            best = (scored[0][1], e, scored)
    return best


def seed_parses(
    f: Features, meaning: Meaning | None, parses: Parses, m: Mention, kind: str
) -> Scored:
    """The metapaths from a seed of ``kind`` (mention ``m``), scored by the cue words when
    they explain the question; with the bank's reading when they do not, or read one relation
    where the bank reads a relation of this kind; with a confident reading's relation (or
    chain) first when the cue words defer to it (``lexicon_defers``)."""
    scored = parses.lexical(kind, m)
    sure = (
        meaning.confident_path(kind, f.named_kinds, f.target_kind) if meaning is not None else None
    )
    if sure is not None and lexicon_defers(scored, sure):
        return meaning_first(parses.meant(kind, m, meaning), sure)
    if (
        not scored
        or scored[0][1] < LEXICON_CONFIDENT
        or (
            len(scored[0][0]) == ONE_HOP
            and meaning is not None
            and meaning.graph_mass(kind) >= SEM_ACCEPT
        )
    ):
        # the cue tables do not explain the question, or they read one relation and
        # the bank reads a relation of this entity: meaning weighs in with the cues
        return parses.meant(kind, m, meaning)
    return scored


def lexicon_defers(parses: Scored, path: tuple[DirectedRel, ...]) -> bool:
    """Whether a confident reading of ``path`` replaces the lexicon's parse. One relation
    always does. A chain does when the cue words explain the question poorly, leave a tie
    it breaks, or read only the chain's first or last hops ("X's indications ->
    symptoms" read as X's indications; "drugs that treat X's look-alike diseases" read as
    drugs that treat X); a confident chain from the bank's few multi-hop shapes does not
    replace a different, well-explained chain of the cue words ("symptoms of diseases
    treated by drugs similar to X")."""
    if len(path) == ONE_HOP or not parses or parses[0][1] < LEXICON_CONFIDENT:
        return True
    top = parses[0][1]
    if any(mp.uses == path and math.isclose(s, top, abs_tol=TIE) for mp, s in parses):
        return True  # the cue words leave a tie ("genes X binds -> diseases") meaning breaks
    best = parses[0][0].uses
    n = len(best)
    return n < len(path) and best in (path[:n], path[-n:])


def meaning_first(parses: Scored, path: tuple[DirectedRel, ...]) -> Scored:
    """Parses with the metapath of ``path`` first: a confident reading of the relation
    (or chain) outranks the cue words, which still order the alternatives after it."""
    top = max((s for _, s in parses), default=0.0)
    lifted = [(mp, top + SEM_LIFT if mp.uses == path else s) for mp, s in parses]
    return sorted(lifted, key=lambda x: -x[1])


def distribution(scored: Scored) -> list[tuple[Metapath, float]]:
    """The probabilities of the best ``TOP_PARSES`` parses (softmax at ``PARSE_TEMPERATURE``),
    those above ``MIN_PROBABILITY``."""
    top = scored[:TOP_PARSES]
    probs = softmax([s for _, s in top], PARSE_TEMPERATURE)
    return [(mp, p) for (mp, _), p in zip(top, probs, strict=True) if p > MIN_PROBABILITY]
