"""Deciding what a memory question asks: the relation and the time qualifier.

Evidence is combined additively in cue units (a cue regex of ``relations.yaml`` weighs 1):

* the relation's cue score and a measurement-name bonus (``Answerer``), plus
* its meaning: ``(cosine - SEM_FLOOR) / SEM_UNIT`` from the exemplar bank (``memory.asks``),
* for a relation with a direction (inhibits, upregulates), the direction the question's words
  say, read as the engine reads it (``direction``),
* the cue words of other relations that its own exemplar wordings use too, in proportion
  (``engine.understand.cueshare``: "drug" is a cue of takes, and allergy questions say it
  too: "which drug must she never be given?").

The best relation wins even when it was never stored for the subject: the question is then
answered "nothing recorded" instead of with another relation's value. Only a stored relation
that one of its own cues names and that scores within ``AMBIGUOUS`` of the best may stand in
for it.

The time qualifier is the router's rule (``rules.yaml``) when one fired, else the bank's
best time qualifier for the relation when its evidence clearly beats "current" (``temporal``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from memory import timeline
from memory.asks import AskReading
from memory.relations import RelationSpec
from memory.router import Temporal, TemporalIntent
from memory.vault import Fact

SEM_FLOOR = 0.5
"""Cosine at which the meaning of a question starts to count for a relation."""
SEM_UNIT = 0.1
"""Cosine that weighs as much as one cue."""
DIRECTION = 2.0
"""Cue units for (and, taken, against) a relation that goes the way the question's words say
an amount moves ("what does X turn down?": inhibits, not upregulates), when the direction is
sure (``engine.understand.polarity``): a direction the embedding alone reads from an everyday
word ("promising", "notes") would tip relations the question does not ask about."""
AMBIGUOUS = 1.0
"""A stored relation within this (cue units) of the best one may answer in its place."""
TIME_UNIT = 0.05
"""Cosine margin between time slots that weighs as much as one unit of word log-odds."""
TIME_EVIDENCE = 4.0
"""Evidence (log-odds units, ~55:1) needed to move a question off "current", the default."""


_UNANCHORED = ((Temporal.AFTER, Temporal.CURRENT), (Temporal.BEFORE, Temporal.PREVIOUS))
"""Without a value to anchor on: "after X" reads as current, "before X" as previous."""


@dataclass(frozen=True)
class Scored:
    spec: RelationSpec
    cue: float
    meaning: float
    stored: bool
    direction: float = 0.0
    shared: float = 0.0
    """Support from other relations' cue words that this relation's wordings use too."""

    @property
    def total(self) -> float:
        return self.cue + self.meaning + self.direction + self.shared


@dataclass(frozen=True)
class Choice:
    spec: RelationSpec | None
    """The relation to answer from (None: nothing about this subject is asked)."""
    missing: RelationSpec | None = None
    """The relation asked for, when nothing of it is stored for the subject."""


def meaning(reading: AskReading | None, rel: str, offset: float = 0.0) -> float:
    """Cue units of a relation's meaning: its cosine above ``SEM_FLOOR``, the floor raised by
    ``offset`` for a relation whose wordings come closer than most to any question (the bank's
    calibration, ``memory.asks.AskScorer.offsets``)."""
    if reading is None:
        return 0.0
    cosine = reading.relations.get(rel)
    return 0.0 if cosine is None else max(0.0, cosine - SEM_FLOOR - offset) / SEM_UNIT


def direction(way: int, sign: int) -> float:
    """Cue units for a relation going ``sign`` when the question says ``way`` for sure. Pure."""
    return DIRECTION * way * sign


def asked(scored: Sequence[Scored], reading: AskReading | None) -> bool:
    """Whether the question asks for one of these relations at all: a cue says so, or one of
    them fits the question better than the bank's general-overview wordings do."""
    if any(s.cue > 0 for s in scored):
        return True
    if reading is None or not scored:
        return False
    best = max(reading.relations.get(s.spec.name, -1.0) for s in scored)
    return best > reading.overview


def choose(scored: Sequence[Scored], reading: AskReading | None) -> Choice:
    """The relation to answer from, best total first; see the module docstring."""
    if not scored or not asked(scored, reading):
        return Choice(None)
    ranked = sorted(scored, key=lambda s: (s.total, s.stored), reverse=True)
    best = ranked[0]
    if best.stored:
        return Choice(best.spec)
    for other in ranked[1:]:
        if other.stored and other.cue > 0 and best.total - other.total < AMBIGUOUS:
            return Choice(other.spec)
    return Choice(None, missing=best.spec)


def temporal(
    rule: TemporalIntent,
    reading: AskReading | None,
    rel: str,
    *,
    anchored: bool,
) -> TemporalIntent:
    """The time qualifier of a question about ``rel``.

    A time word the router's rules know decides. Otherwise the bank may move the question
    off "current": for each other qualifier, its evidence against "current" is the cosine
    margin of the relation's slots (in ``TIME_UNIT``) plus the time-word log-odds margin; the
    best must exceed ``TIME_EVIDENCE``. Without a value to anchor on, "before X" reads as
    "previous" and "after X" as "current"; "as of" needs an instant, which only the rules
    parse."""
    if rule.explicit or reading is None:
        return rule
    own = {when: score for (r, when), score in reading.slots.items() if r == rel}
    if Temporal.CURRENT not in own or len(own) < 2:
        return rule
    words = {when: reading.times.get(when, 0.0) for when in own}
    if not anchored:
        for gone, into in (
            (Temporal.AFTER, Temporal.CURRENT),
            (Temporal.BEFORE, Temporal.PREVIOUS),
        ):
            if into not in own:
                continue
            # the words count even for a relation the bank has no such slot for ("the INR
            # reading prior to the latest one")
            words[into] = max(words[into], reading.times.get(gone, 0.0))
            words.pop(gone, None)
            if gone in own:
                own[into] = max(own[into], own.pop(gone))
    own.pop(Temporal.AS_OF, None)
    evidence = {
        when: (score - own[Temporal.CURRENT]) / TIME_UNIT + words[when] - words[Temporal.CURRENT]
        for when, score in own.items()
        if when != Temporal.CURRENT
    }
    if not evidence:
        return rule
    kind = max(evidence, key=lambda k: evidence[k])
    if evidence[kind] < TIME_EVIDENCE:
        return rule
    fallback = Temporal.PREVIOUS if kind == Temporal.BEFORE else Temporal.CURRENT
    return replace(rule, kind=kind, fallback=fallback, explicit=True)


def on_named_value(
    when: TemporalIntent, rule: TemporalIntent, rows: list[Fact], named: Callable[[Fact], bool]
) -> TemporalIntent:
    """The time qualifier of a question that names a stored value of the asked relation.

    A question that names a value and asks about the history around it ("what did [Compound]
    take over from?", "which drug got replaced when [Patient] went onto [Compound]?") asks
    about the value before it when:

    * it reads as "previous": previous to the value it names;
    * the bank read "after" (the words themselves, the router's rules, did not say so) and the
      named value is still current, so nothing came after it: the meaning cannot tell "what
      replaced X" from "what X replaced", the vault can;
    * it reads as "current" while the current value is the one it names: a question does not
      ask for what it already says.

    Callers leave yes/no questions out ("Is [Patient] still on [Compound]?")."""
    if when.kind in (Temporal.FIRST, Temporal.AS_OF, Temporal.BEFORE):
        return when
    if when.kind == Temporal.AFTER and rule.kind == Temporal.AFTER:
        return when  # the words say "after" ("what replaced [Compound]?")
    if when.kind == Temporal.CURRENT and rule.explicit and not rule.soft:
        return when  # the words say "now" ("ramipril for [Patient] now?"): the value named
    pivots = [f for f in rows if named(f)]
    if not pivots:
        return when
    now = timeline.current(rows)
    pivot_current = any(named(f) for f in now)
    if (
        when.kind == Temporal.PREVIOUS
        or (when.kind == Temporal.AFTER and pivot_current)
        or (when.kind == Temporal.CURRENT and pivot_current and all(named(f) for f in now))
    ):
        return replace(when, kind=Temporal.BEFORE, fallback=Temporal.PREVIOUS, explicit=True)
    return when
