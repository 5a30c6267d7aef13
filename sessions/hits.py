"""Turns found in a user's history: the hit record and the SQL shared by text and meaning
search (``SessionStore.search_turns``, ``recent_turns``; ``sessions.history`` fuses them)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memory.clock import parse_instant


@dataclass(frozen=True)
class TurnHit:
    """A turn found by ``SessionStore.search_turns``: where it is and why it matched."""

    turn_id: int
    session_id: str
    session_title: str
    position: int
    """1-based place of the turn in its session."""
    question: str
    snippet: str
    created_at: datetime
    score: float
    """Higher is better (negated FTS5 bm25 for text hits)."""


HIT_SQL = (
    "SELECT t.id, t.session_id, s.title, (SELECT count(*) FROM turns u WHERE "
    "u.session_id = t.session_id AND u.id <= t.id), t.question, {snippet}, t.created_at, {score} "
    "FROM turns t JOIN sessions s ON s.id = t.session_id"
)


def fts_words(query: str, most: int = 12) -> list[str]:
    """The words of ``query`` as FTS5 terms (letters and digits only, so any text is safe)."""
    return re.findall(r"\w+", query.lower())[:most]


def hit_from_row(row: Any) -> TurnHit:
    return TurnHit(
        int(row[0]),
        row[1],
        row[2],
        int(row[3]),
        row[4],
        " ".join(str(row[5]).split()),
        parse_instant(row[6]),
        float(row[7]),
    )
