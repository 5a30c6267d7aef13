"""Calendar dates named in memory questions: "as of March 3", "on 2026-03-05", "as at 3/5".

Spans are found by shape (an ISO date, a day and a month name in either order, a numeric
month/day after a preposition); each span is read by ``dateutil.parser``. A date without a
year takes the year of ``now`` (the caller's clock, simulated in a replay), or the year before
when that would put it after ``now``. Numeric dates read month first ("3/5" is March 5), as
``dateutil`` does by default.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from dateutil import parser as dateparser

_MONTHS = (
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
).split()
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+\d{4})?"
_SHAPES = [
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\b(?P<d>\d{4}-\d{1,2}-\d{1,2})\b",
        rf"\b(?P<d>(?:the\s+)?{_DAY}\s+(?:of\s+)?(?:{_MONTH})\b\.?{_YEAR})(?!\s*\d)",
        rf"\b(?P<d>(?:{_MONTH})\b\.?\s+(?:the\s+)?{_DAY}\b{_YEAR})(?!\d|:\d)",  # not "Mar 3:15"
        # a bare month/day only after a preposition: "as at 3/5", "before 3/5/2026"
        r"\b(?:on|of|at|by|to|before|until|after)\s+(?P<d>\d{1,2}/\d{1,2}(?:/\d{2,4})?)\b(?!/)",
    )
]


_WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
_SHORT_DAYS = r"mon|tues?|wed|thu(?:rs?)?|fri|sat|sun"
_WEEKDAY = re.compile(
    r"\b(?:(?:on|last|this past|since|from|by|as of|before|until|after|at)\s+(?P<d>"
    + "|".join(_WEEKDAYS)
    + rf"|{_SHORT_DAYS})\b(?!-)|(?P<e>"
    + "|".join(_WEEKDAYS)
    + r")(?=['’]s\b|\s+(?:morning|afternoon|evening|night|am|pm)\b|\s*[?.!,;]|\s*$))",
    re.IGNORECASE,
)
"""A day of the week after a word that places it ("on Tuesday", "last Monday", "on wed"), or
named in full where nothing it qualifies follows ("sodium monday?", "monday's bloods",
"monday morning"; not "Tuesday clinic"): the latest such day up to today, as a clinician means
it of a value or a question about one."""


_MONTH_ALONE = re.compile(
    r"\b(?:since|in|from|during|early|mid|late|end of|start of|beginning of)\s+"
    rf"(?:early\s+|mid\s+|late\s+)?(?P<d>{_MONTH})\b\.?(?!\s*\d)",
    re.IGNORECASE,
)
"""A month named alone after a word that places it ("since January", "in jan"): its first
day, in the latest such month up to today."""

_COUNT = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a couple of": 2,
    "a few": 3,
    "several": 3,
}
_SPAN_DAYS = {"day": 1, "week": 7, "fortnight": 14, "month": 30, "year": 365}
_AGO = re.compile(
    r"\b(?P<n>\d+|"
    + "|".join(sorted(map(re.escape, _COUNT), key=len, reverse=True))
    + r")\s+(?P<unit>day|week|fortnight|month|year)s?\s+(?:ago|back|before)\b",
    re.IGNORECASE,
)
_FIXED_DAYS = {"the day before yesterday": 2, "last night": 1, "overnight": 0}


def days_ago(text: str, phrases: dict[str, float] | None = None) -> float | None:
    """How many days back ``text`` says ("3 days ago", "three days ago", "two weeks ago",
    "last night", and the caller's ``phrases`` such as "last week": 7); None when it says
    none. A possessive ("yesterday's seminar") names a source, not a time."""
    lowered = text.lower()
    fixed = {**_FIXED_DAYS, **(phrases or {})}
    for phrase, days in sorted(fixed.items(), key=lambda p: -len(p[0])):
        if re.search(rf"\b{re.escape(phrase)}\b(?!'s)", lowered):
            return float(days)
    m = _AGO.search(lowered)
    if m is None:
        return None
    n = m.group("n")
    count = int(n) if n.isdigit() else _COUNT[n]
    return float(count * _SPAN_DAYS[m.group("unit")])


@dataclass(frozen=True)
class DateMention:
    start: int
    end: int
    text: str
    day: date


def date_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every span of ``text`` shaped like a date, left to right, longest kept."""
    spans = sorted(
        {m.span("d") for shape in _SHAPES for m in shape.finditer(text)},
        key=lambda s: (s[0], -s[1]),
    )
    kept: list[tuple[int, int]] = []
    for start, end in spans:
        if not kept or start >= kept[-1][1]:
            kept.append((start, end))
    return kept


def find_dates(text: str, now: datetime) -> list[DateMention]:
    """Every calendar date or placed day of the week named in ``text``, left to right, with
    years filled from ``now`` (a weekday is the latest such day up to ``now``)."""
    found = []
    for start, end in date_spans(text):
        day = read_date(text[start:end], now)
        if day is not None:
            found.append(DateMention(start, end, text[start:end], day))
    for m in _MONTH_ALONE.finditer(text):
        start, end = m.span("d")
        if any(d.start < end and start < d.end for d in found):
            continue
        month = read_date(f"1 {m.group('d')}", now)
        if month is not None:
            found.append(DateMention(start, end, m.group("d"), month))
    for m in _ORDINAL.finditer(text):
        start, end = m.span("d")
        if not any(d.start < end and start < d.end for d in found):
            day = _latest_day_of_month(int(m.group("n")), now.date())
            if day is not None:
                found.append(DateMention(start, end, m.group("d"), day))
    for m in _WEEKDAY.finditer(text):
        group = "d" if m.group("d") else "e"
        start, end = m.span(group)
        if not any(d.start < end and start < d.end for d in found):
            said = m.group(group)
            index = [w[:3] for w in _WEEKDAYS].index(said[:3].lower())
            back = (now.weekday() - index) % 7
            found.append(DateMention(start, end, said, now.date() - timedelta(days=back)))
    return sorted(found, key=lambda d: d.start)


_ORDINAL = re.compile(
    rf"(?:\bthe\s+|\bon\s+|\b(?:{_SHORT_DAYS})\w*\s+)(?P<d>(?:(?:{_SHORT_DAYS})\w*\s+)?"
    r"(?P<n>\d{1,2})(?:st|nd|rd|th))\b",
    re.IGNORECASE,
)
"""A day of the month said alone, by its ordinal ("on the 10th", "tues 10th")."""


def _latest_day_of_month(n: int, today: date) -> date | None:
    """The latest day numbered ``n`` up to ``today``: this month's, else last month's."""
    year, month = today.year, today.month
    for _ in range(2):
        try:
            day = date(year, month, n)
        except ValueError:
            day = None
        if day is not None and day <= today:
            return day
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return None


def read_date(span: str, now: datetime) -> date | None:
    """The date ``span`` names; None when it names none (e.g. "February 30")."""
    try:
        this_year = dateparser.parse(span, default=datetime(now.year, 1, 1), fuzzy=True)
        last_year = dateparser.parse(span, default=datetime(now.year - 1, 1, 1), fuzzy=True)
    except (ValueError, OverflowError):
        return None
    if this_year.year == last_year.year or this_year.date() <= now.date():
        return this_year.date()  # the year is written out, or the date has passed this year
    return last_year.date()


_PART_OF_DAY = re.compile(
    r"\b(?P<m>morning|am|first thing)\b|\b(?P<a>afternoon|lunchtime)\b", re.IGNORECASE
)
_THIS_PART = re.compile(r"\bthis (?:morning|am|afternoon)\b|\bfirst thing\b", re.IGNORECASE)


def part_of_day(text: str) -> time | None:
    """The hour a question's "morning" or "afternoon" ends at (noon, 5 pm); None when it names
    neither (an evening or a whole day holds until the day ends)."""
    m = _PART_OF_DAY.search(text)
    if m is None:
        return None
    return time(12) if m.group("m") else time(17)


def this_part(text: str, now: datetime) -> datetime | None:
    """The end of the part of today ``text`` names ("this morning"), once it is over."""
    if _THIS_PART.search(text) is None:
        return None
    part = part_of_day(text)
    if part is None:
        return None
    instant = datetime.combine(now.date(), part, tzinfo=UTC)
    return instant if instant < now else None


def at_part(day: date, part: time | None, now: datetime) -> datetime:
    """The end of ``part`` of ``day`` (the whole day when None), or ``now`` while it lasts."""
    if part is None:
        return end_of_day(day, now)
    return min(datetime.combine(day, part, tzinfo=UTC), now)


def end_of_day(day: date, now: datetime) -> datetime:
    """The last instant of ``day`` (UTC), or ``now`` while that day has not ended."""
    end = datetime.combine(day + timedelta(days=1), time(), tzinfo=UTC) - timedelta(microseconds=1)
    return min(end, now)


def start_of_day(day: date, now: datetime) -> datetime:
    """The instant just before ``day`` begins (UTC): what held "before March 3"."""
    start = datetime.combine(day, time(), tzinfo=UTC) - timedelta(microseconds=1)
    return min(start, now)
