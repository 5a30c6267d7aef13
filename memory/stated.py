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
from datetime import UTC, datetime, time, timedelta

from memory.dates import find_dates

_NOON = time(12)


def stated_instant(
    text: str, now: datetime, as_of: Mapping[str, float], as_of_days: str
) -> datetime | None:
    """When ``text`` says its fact held, if before ``now``; None when it says no earlier time.

    ``as_of`` maps relative phrases to days back ("last week": 7); ``as_of_days`` is a regex
    whose group ``n`` counts days back ("3 days ago")."""
    for mention in find_dates(text, now):
        if mention.day < now.date():
            return datetime.combine(mention.day, _NOON, tzinfo=UTC)
    lowered = text.lower()
    for phrase, days in sorted(as_of.items(), key=lambda p: -len(p[0])):
        if re.search(rf"\b{re.escape(phrase)}\b(?!'s)", lowered):
            return now - timedelta(days=days)
    m = re.search(as_of_days, lowered)
    if m is not None and int(m.group("n")) > 0:
        return now - timedelta(days=int(m.group("n")))
    return None
