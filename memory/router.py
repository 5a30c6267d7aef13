"""The IMM router: which memory stores a question needs, and its temporal intent.

Rules live in ``rules.yaml`` (match regexes -> store set, plus a default). A question that
names one of this user's known subjects (found through the ``mem_index`` alias hashes by the
injected ``resolve`` callable) routes to the vault and episodic stores.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from enum import StrEnum
from functools import cached_property, lru_cache
from pathlib import Path

from pydantic import BaseModel

from engine.util.yamltext import safe_load
from memory.dates import (
    at_part,
    days_ago,
    end_of_day,
    find_dates,
    part_of_day,
    start_of_day,
    this_part,
)

DEFAULT_RULES = Path(__file__).with_name("rules.yaml")
STORES = frozenset({"episodic", "vault", "kg", "dense"})


class Temporal(StrEnum):
    CURRENT = "current"
    FIRST = "first"
    PREVIOUS = "previous"
    BEFORE = "before"
    AFTER = "after"
    AS_OF = "as_of"


@dataclass(frozen=True)
class TemporalIntent:
    kind: Temporal = Temporal.CURRENT
    anchor: str | None = None
    """Text of the value a before/after question refers to ("levothyroxine")."""
    fallback: Temporal = Temporal.CURRENT
    """Intent to use when the anchor does not resolve to a stored value."""
    as_of: datetime | None = None
    explicit: bool = False
    soft: bool = False
    """Read as current from "last" alone, which names the latest value or the latest change."""

    @property
    def historical(self) -> bool:
        return self.kind != Temporal.CURRENT


@dataclass(frozen=True)
class Route:
    stores: frozenset[str]
    rule: str
    temporal: TemporalIntent
    subjects: tuple[str, ...] = field(default_factory=tuple)

    @property
    def memory(self) -> bool:
        return bool(self.stores & {"vault", "episodic"})


class Rule(BaseModel):
    name: str
    match: list[str]
    stores: list[str]

    @cached_property
    def patterns(self) -> list[re.Pattern[str]]:
        return [re.compile(p, re.IGNORECASE) for p in self.match]


class TemporalRules(BaseModel):
    before: list[str]
    after: list[str]
    first: list[str]
    previous: list[str]
    as_of: dict[str, float]
    as_of_days: str
    previous_weak: list[str] = []
    """Words that say "previous" only when no word of ``current`` is said ("before" alone:
    "Before surgery I need her newest ALT")."""
    current: list[str]
    current_soft: list[str] = []
    asking_clause: str = r"(?!)"
    """A clause that says when the user asks ("before I prescribe"), read as no time."""

    changed_it: str = r"(?!)"
    """A verb of changing a value ("cut", "halved", "switched"): an asking clause that says
    one ("before I halved it") is the time of the change, before which the value asked held."""

    @cached_property
    def asking_clause_re(self) -> re.Pattern[str]:
        return re.compile(self.asking_clause, re.IGNORECASE)

    @cached_property
    def changed_it_re(self) -> re.Pattern[str]:
        return re.compile(self.changed_it, re.IGNORECASE)

    @cached_property
    def compiled(self) -> dict[str, list[re.Pattern[str]]]:
        names = ("before", "after", "first", "previous", "previous_weak", "current", "current_soft")
        return {n: [re.compile(p, re.IGNORECASE) for p in getattr(self, n)] for n in names}


class RouterRules(BaseModel):
    rules: list[Rule]
    subject_hit: list[str]
    default: list[str]
    temporal: TemporalRules

    def model_post_init(self, __context: object) -> None:
        for stores in [self.subject_hit, self.default, *[r.stores for r in self.rules]]:
            unknown = set(stores) - STORES
            if unknown:
                raise ValueError(f"unknown stores {sorted(unknown)} in rules")


def load_rules(path: Path | None = None) -> RouterRules:
    return _load(str(path or DEFAULT_RULES))


@lru_cache(maxsize=4)
def _load(path: str) -> RouterRules:
    return RouterRules.model_validate(safe_load(Path(path).read_text(encoding="utf-8")))


class Router:
    """Routes a question to stores and detects its temporal intent."""

    def __init__(
        self, rules: RouterRules | None = None, resolve: Callable[[str], list[str]] | None = None
    ) -> None:
        self.rules = rules or load_rules()
        self._resolve = resolve

    def route(self, question: str, now: datetime) -> Route:
        temporal = self.temporal(question, now)
        for rule in self.rules.rules:
            if any(p.search(question) for p in rule.patterns):
                return Route(
                    frozenset(rule.stores), rule.name, temporal, tuple(self._subjects(question))
                )
        subjects = tuple(self._subjects(question))
        if subjects:
            return Route(frozenset(self.rules.subject_hit), "subject-hit", temporal, subjects)
        return Route(frozenset(self.rules.default), "default", temporal)

    def _subjects(self, question: str) -> list[str]:
        return self._resolve(question) if self._resolve else []

    def _weakly_previous(self, question: str) -> bool:
        """A word of ``previous_weak`` is said, and no word of ``current`` outside what it
        covers ("before now" is no current word)."""
        pats = self.rules.temporal.compiled
        for weak in pats["previous_weak"]:
            said, rest = _outside(question, weak)
            if said and not any(p.search(rest) for p in pats["current"]):
                return True
        return False

    def without_time(self, question: str, now: datetime) -> str:
        """``question`` with the times it says cut out: its dates and placed weekdays ("on
        monday"), relative times ("yesterday", "last week"), words of now ("today") and of
        order ("first", "before i increased it"), so a follow-on's own time replaces them
        ("615 cr on monday?" then "and today")."""
        t = self.rules.temporal
        spans = [(d.start, d.end) for d in find_dates(question, now)]
        for said in [*t.as_of, t.as_of_days]:
            pattern = said if said == t.as_of_days else rf"\b{re.escape(said)}\b"
            spans += [m.span() for m in re.finditer(pattern, question, re.IGNORECASE)]
        spans += [m.span() for m in _PART_OF_DAY.finditer(question)]
        spans += [m.span() for m in t.asking_clause_re.finditer(question)]
        spans += [m.span() for ps in t.compiled.values() for p in ps for m in p.finditer(question)]
        out = question
        for start, end in _outermost(spans):
            lead = re.search(r"\b(?:on|as of|at)\s+$", out[:start], re.IGNORECASE)
            out = out[: lead.start() if lead else start] + out[end:]
        return re.sub(r"\s{2,}", " ", out).strip()

    def temporal(self, question: str, now: datetime) -> TemporalIntent:
        """Temporal intent: before/after an anchor, first, previous, as-of, or current.

        Dates and relative times ("last week") are read against ``now``, the caller's clock."""
        t = self.rules.temporal
        pats = t.compiled
        asking = t.asking_clause_re.search(question)
        question = t.asking_clause_re.sub(" ", question)
        fallback, explicit = Temporal.CURRENT, False
        if asking is not None and t.changed_it_re.search(asking.group()):
            # "mmf dose before i halved it": the value before the change
            fallback, explicit = Temporal.PREVIOUS, True
        elif any(p.search(question) for p in pats["first"]):
            fallback, explicit = Temporal.FIRST, True
        elif any(p.search(question) for p in pats["previous"]) or self._weakly_previous(question):
            fallback, explicit = Temporal.PREVIOUS, True
        for kind in (Temporal.BEFORE, Temporal.AFTER):
            for p in pats[kind.value]:
                m = p.search(question)
                if m and m.group("anchor").strip():
                    anchor = m.group("anchor").strip()
                    day = _only_date(anchor, now)
                    if day is not None and kind == Temporal.BEFORE:
                        instant = start_of_day(day, now)  # "before March 3": as of its eve
                        return TemporalIntent(Temporal.AS_OF, None, Temporal.CURRENT, instant, True)
                    if fallback == Temporal.CURRENT and kind == Temporal.BEFORE:
                        # with no value to anchor on, "before X" asks for the previous value
                        # unless the question says "current" outside the clause of X ("before
                        # the audit, give me her newest ALT"; not "the INR prior to the latest
                        # one", "before she was switched to what she takes now, ...")
                        end = _CLAUSE_END.search(question, m.end("anchor"))
                        rest = (
                            question[: m.start()] + " " + (question[end.start() :] if end else "")
                        )
                        now_said = any(p.search(rest) for p in pats["current"])
                        fallback = Temporal.CURRENT if now_said else Temporal.PREVIOUS
                    return TemporalIntent(kind, anchor, fallback, None, True)
        dates = find_dates(question, now)
        if dates:  # "as of March 3", "on 2026-03-05": what held at the end of that day
            # (of its morning when it says so: "on monday morning")
            instant = at_part(dates[0].day, part_of_day(question), now)
            return TemporalIntent(Temporal.AS_OF, None, Temporal.CURRENT, instant, True)
        morning = this_part(question, now)  # "his lactate this morning", asked at night
        if morning is not None and not explicit:
            return TemporalIntent(Temporal.AS_OF, None, Temporal.CURRENT, morning, True)
        if explicit:
            return TemporalIntent(fallback, None, fallback, None, True)
        days = _as_of_days(question, t)
        if days is not None:
            instant = now - timedelta(days=days)
            if days == 1 and _YESTERDAY.search(question):
                # "yesterday": the day before, to its end
                instant = end_of_day(instant.date(), now)
            return TemporalIntent(Temporal.AS_OF, None, Temporal.CURRENT, instant, True)
        if any(p.search(question) for p in pats["current"]):
            return TemporalIntent(Temporal.CURRENT, None, Temporal.CURRENT, None, True)
        soft = any(p.search(question) for p in pats["current_soft"])
        return TemporalIntent(Temporal.CURRENT, None, Temporal.CURRENT, None, soft, soft)


_PART_OF_DAY = re.compile(
    r"\b(?:this|yesterday|last|tomorrow) (?:morning|afternoon|evening|night|am|pm)\b"
    r"|\bovernight\b|\bat \d{1,2}(?::\d\d)?\s?(?:am|pm)\b",
    re.IGNORECASE,
)
"""A part of a day said as when ("this morning", "last night", "at 6am")."""


def _outermost(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` with those inside or overlapping an earlier kept one merged, right to left."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        elif end > start:
            merged.append([start, end])
    return [(a, b) for a, b in reversed(merged)]


_CLAUSE_END = re.compile(r"[,.?!;:\u2013\u2014]")


def _outside(question: str, pattern: re.Pattern[str]) -> tuple[bool, str]:
    """Whether ``pattern`` matches, and the question with its first match cut out."""
    m = pattern.search(question)
    return (True, question[: m.start()] + " " + question[m.end() :]) if m else (False, question)


def _only_date(text: str, now: datetime) -> date | None:
    """The date ``text`` consists of ("March 3", "the 4th of March"), else None."""
    dates = find_dates(text, now)
    if len(dates) == 1 and not (text[: dates[0].start] + text[dates[0].end :]).strip():
        return dates[0].day
    return None


_YESTERDAY = re.compile(r"\byesterday\b", re.IGNORECASE)


def _as_of_days(question: str, rules: TemporalRules) -> float | None:
    days = days_ago(question, dict(rules.as_of))
    if days is not None:
        return days
    m = re.search(rules.as_of_days, question.lower())
    return float(m.group("n")) if m else None
