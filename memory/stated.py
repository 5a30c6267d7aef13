"""The time a statement says its fact refers to: "his potassium was 5.9 on Tuesday", "her
creatinine was 1.8 yesterday", "sodium 131 last week", "started on 3 March".

Read against the clock of the event (the replay's in ``--replay``), with the same date shapes
(``memory.dates``) and relative phrases (``rules.yaml`` ``temporal.as_of``) that questions are
read with, so a value stated "last week" is the one "what was it last week?" finds. A named
day is taken at noon UTC (an hour of it is rarely said); today, a day to come or no time word
leave the fact at the moment it was said, and so does a time that names a source
("yesterday's seminar": when the finding was heard, not when it held).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, date, datetime, time, timedelta

from memory.dates import date_spans, days_ago, find_dates, read_date

_NOON = time(12)


def stated_instant(
    text: str, now: datetime, as_of: Mapping[str, float], as_of_days: str
) -> datetime | None:
    """When ``text`` says its fact held, if before ``now``; None when it says no earlier time.

    ``as_of`` maps relative phrases to days back ("last week": 7); ``as_of_days`` is a regex
    whose group ``n`` counts days back ("3 days ago")."""
    for mention in find_dates(text, now):
        if (
            mention.day < now.date()
            and not _upcoming(mention.text, mention.day, now)
            and not _planned(text, mention.start)
        ):
            return datetime.combine(mention.day, _NOON, tzinfo=UTC)
    days = days_ago(text, dict(as_of))
    if days is None:
        m = re.search(as_of_days, text.lower())
        days = float(m.group("n")) if m is not None else None
    if days is not None and days > 0:
        return now - timedelta(days=days)
    return None


_AHEAD_DAYS = 183
"""A day written without its year that falls this many days ahead or fewer is to come."""


def _upcoming(said: str, day: date, now: datetime) -> bool:
    """Whether a day written without a year ("starting dec 7", said in November) is one to
    come, read as last year's only because this year's has not passed. Pure."""
    if day.year >= now.year or re.search(r"\b\d{4}\b", said):
        return False
    try:
        ahead = (day.replace(year=now.year) - now.date()).days
    except ValueError:  # 29 February
        return False
    return 0 < ahead <= _AHEAD_DAYS


_PLAN = re.compile(
    r"\b(?:will|can|could|should|shall|going to|plan(?:ned)?|booked|due|scheduled|to go ahead"
    r"|go(?:es)? ahead|next)\b",
    re.IGNORECASE,
)
"""Words of what is still to come ("cycle 4 can go ahead monday", "review booked friday")."""


def _planned(text: str, at: int) -> bool:
    """Whether the clause a day is said in at ``at`` says something still to come, so its
    weekday is the one ahead, not the last ("anc 2.2 today, cycle 4 can go ahead monday").
    Pure."""
    start = max(text.rfind(c, 0, at) for c in ",;.") + 1
    return _PLAN.search(text[start:at]) is not None


_SEASON = r"(?:spring|summer|autumn|fall|winter|christmas|easter|new year|the holidays)"
_VAGUE = re.compile(
    rf"\b(?:(?:last|this|next|over the|in the|during the|before|after|around|since|at)\s+"
    rf"{_SEASON}|at (?:the|his|her|their) last (?:visit|admission|appointment|clinic)"
    r"|(?:a while|some time|ages) ago|recently|pre-?op|post-?op)\b",
    re.IGNORECASE,
)


def unresolved_time(text: str, now: datetime) -> str | None:
    """A time ``text`` says that no day can be read from ("last winter", "at her last
    visit", "February 30"), as written; None when it says none or one that resolves."""
    for start, end in date_spans(text):
        # a month named with a day that is none ("February 30"); a bare "49/51" is a dose
        said = text[start:end]
        if any(c.isalpha() for c in said) and read_date(said, now) is None:
            return said
    m = _VAGUE.search(text)
    return m.group(0) if m else None


_NOW_WORDS = re.compile(
    r"\b(?:today|now|this (?:morning|afternoon|evening)|tonight|currently)\b", re.I
)


def says_now(text: str) -> bool:
    """Whether ``text`` says its fact holds at the moment it is said ("K 5.1 today")."""
    return bool(_NOW_WORDS.search(text))
