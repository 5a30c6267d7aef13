"""Episodic turns in PostgreSQL (``helix_episodic.turns``): the synchronous twin of
``memory.episodic.EpisodicStore``, with the same window, TTL and forgetting rules."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from memory.clock import Clock, iso
from memory.episodic import SELECT_TURNS, EpisodicTurn, turn_from_row
from memory.store.pg import PgBackend

SCHEMA = "helix_episodic"


class PgEpisodicStore:
    def __init__(
        self,
        backend: PgBackend,
        user: str,
        clock: Clock,
        *,
        window: int = 50,
        ttl_minutes: float = 30.0,
    ) -> None:
        self._backend = backend
        self.user = user
        self._clock = clock
        self.window = window
        self.ttl = timedelta(minutes=ttl_minutes)

    def _unit(self) -> Any:
        return self._backend.unit(self.user, SCHEMA)

    def add(
        self,
        session: str,
        query: str,
        *,
        chain: list[Any] | None = None,
        evidence: list[Any] | None = None,
        quality: float | None = None,
        subject: str | None = None,
    ) -> int:
        """Append a turn, trim the session to its window and drop expired turns."""
        now = self._clock.now()
        with self._unit() as db:
            row = db.execute(
                "INSERT INTO turns (session, subject, query, chain, evidence, quality, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    session,
                    subject,
                    query,
                    json.dumps(chain or []),
                    json.dumps(evidence or []),
                    quality,
                    iso(now),
                ),
            ).fetchone()
            db.execute(
                "DELETE FROM turns WHERE session = ? AND id NOT IN (SELECT id FROM turns WHERE "
                "session = ? ORDER BY id DESC LIMIT ?)",
                (session, session, self.window),
            )
            db.execute("DELETE FROM turns WHERE created_at < ?", (iso(now - self.ttl),))
        return int(row[0])

    def recent(self, session: str, limit: int | None = None) -> list[EpisodicTurn]:
        cutoff = iso(self._clock.now() - self.ttl)
        rows = self._select(
            "session = ? AND created_at >= ? ORDER BY id DESC LIMIT ?",
            (session, cutoff, min(limit or self.window, self.window)),
        )
        return rows[::-1]

    def last_subject(self, session: str) -> str | None:
        cutoff = iso(self._clock.now() - self.ttl)
        rows = self._select(
            "session = ? AND created_at >= ? AND subject IS NOT NULL ORDER BY id DESC LIMIT 1",
            (session, cutoff),
        )
        return rows[0].subject if rows else None

    def by_subject(self, subject: str) -> list[EpisodicTurn]:
        return self._select("subject = ? ORDER BY id", (subject,))

    def all(self) -> list[EpisodicTurn]:
        return self._select("TRUE ORDER BY id", ())

    def forget(self, subject: str | None = None, mentions: Iterable[str] = ()) -> int:
        clauses: list[str] = []
        args: list[Any] = []
        if subject:
            clauses.append("subject = ?")
            args.append(subject)
        for m in mentions:
            if m:
                clauses.append("(instr(lower(query), ?) > 0 OR instr(lower(evidence), ?) > 0)")
                args += [m.lower(), m.lower()]
        if not clauses:
            return 0
        with self._unit() as db:
            return int(db.execute(f"DELETE FROM turns WHERE {' OR '.join(clauses)}", args).rowcount)

    def delete_session(self, session: str) -> int:
        with self._unit() as db:
            return int(db.execute("DELETE FROM turns WHERE session = ?", (session,)).rowcount)

    def prune(self) -> int:
        cutoff = iso(self._clock.now() - self.ttl)
        with self._unit() as db:
            return int(db.execute("DELETE FROM turns WHERE created_at < ?", (cutoff,)).rowcount)

    def close(self) -> None:
        """The pool belongs to the process."""

    def _select(self, where: str, args: tuple[Any, ...]) -> list[EpisodicTurn]:
        with self._backend.unit(self.user, SCHEMA, savepoint=False) as db:
            rows = db.execute(f"{SELECT_TURNS} WHERE {where}", args).fetchall()
        return [turn_from_row(r) for r in rows]
