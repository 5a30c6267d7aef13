"""Episodic memory: the recent turns of each session, one SQLite file per user (aiosqlite).

A turn keeps the query, its reasoning chain and evidence (JSON), a quality score, the subject
it was about (b-tree indexed, for "what was *she* on before?" follow-ups and for forgetting) and
its creation time from the injected clock. Each session keeps a sliding window of the last
``episodic_window`` turns; turns older than ``episodic_ttl_minutes`` are expired.

``AsyncEpisodicStore`` is the real store; ``EpisodicStore`` is a thin synchronous wrapper for
the synchronous engine pipeline that runs the async store on a private event-loop thread.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Coroutine, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from engine.util.faults import MemoryFault
from memory.clock import Clock, iso, parse_instant
from memory.faults import said_truly, unwritable
from memory.migrate import Migrations
from memory.sqlite import open_sqlite

EPISODIC_FILE = "episodic.sqlite"
MIGRATIONS = Migrations("episodic")
T = TypeVar("T")


@MIGRATIONS.register
def m001_initial(db: Any) -> None:
    db.execute(
        """CREATE TABLE turns (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session TEXT NOT NULL,
            subject TEXT,
            query TEXT NOT NULL,
            chain TEXT NOT NULL DEFAULT '[]',
            evidence TEXT NOT NULL DEFAULT '[]',
            quality REAL,
            created_at TEXT NOT NULL)"""
    )
    db.execute("CREATE INDEX turns_subject ON turns (subject)")
    db.execute("CREATE INDEX turns_session ON turns (session, id)")
    db.execute("CREATE INDEX turns_created ON turns (created_at)")


@dataclass(frozen=True)
class EpisodicTurn:
    id: int
    session: str
    subject: str | None
    query: str
    chain: list[Any]
    evidence: list[Any]
    quality: float | None
    created_at: datetime


SELECT_TURNS = "SELECT id, session, subject, query, chain, evidence, quality, created_at FROM turns"
"""The turn columns in ``EpisodicTurn`` order (both back ends' ``turns`` tables have them)."""


def turn_from_row(r: Sequence[Any]) -> EpisodicTurn:
    return EpisodicTurn(
        int(r[0]), r[1], r[2], r[3], json.loads(r[4]), json.loads(r[5]), r[6], parse_instant(r[7])
    )


class AsyncEpisodicStore:
    """Turns of one user's sessions (async, aiosqlite)."""

    def __init__(
        self, path: Path, clock: Clock, *, window: int = 50, ttl_minutes: float = 30.0
    ) -> None:
        self.path = path
        self._clock = clock
        self.window = window
        self.ttl = timedelta(minutes=ttl_minutes)
        self._db: aiosqlite.Connection | None = None
        self.reading = False
        """The file could only be opened for reading (its disk is full or read-only)."""

    async def open(self) -> AsyncEpisodicStore:
        if self._db is None:
            self._db, self.reading = await self._connect()
        return self

    async def _connect(self) -> tuple[aiosqlite.Connection, bool]:
        """A connection of ``open_sqlite`` (migrated; for reading only on a full or read-only
        disk), and whether it only reads."""
        # opened here, so a file that cannot be used raises before aiosqlite's thread starts
        conn = open_sqlite(self.path, self._clock, MIGRATIONS)
        db = await aiosqlite.Connection(lambda: conn, iter_chunk_size=64)
        async with db.execute("PRAGMA query_only") as cur:
            row = await cur.fetchone()
        return db, bool(row and row[0])

    async def _writable(self) -> aiosqlite.Connection:
        """The connection a write goes through: one that could only read is opened again for
        writing as soon as the disk lets it (space was freed); else the write fails on it,
        said as the file's fault ("cannot be written: the disk is full")."""
        if self.reading and unwritable(self.path) is None:
            try:
                fresh, reading = await self._connect()
            except MemoryFault:
                return self.db
            await self.db.close()
            self._db, self.reading = fresh, reading
        return self.db

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def __aenter__(self) -> AsyncEpisodicStore:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("episodic store is not open")
        return self._db

    async def add(
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
        db = await self._writable()
        await db.execute("BEGIN IMMEDIATE")
        try:
            cur = await db.execute(
                "INSERT INTO turns (session, subject, query, chain, evidence, quality, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    session,
                    subject,
                    query,
                    json.dumps(chain or []),
                    json.dumps(evidence or []),
                    quality,
                    iso(now),
                ),
            )
            turn_id = int(cur.lastrowid or 0)
            await db.execute(
                "DELETE FROM turns WHERE session = ? AND id NOT IN (SELECT id FROM turns WHERE "
                "session = ? ORDER BY id DESC LIMIT ?)",
                (session, session, self.window),
            )
            await db.execute("DELETE FROM turns WHERE created_at < ?", (iso(now - self.ttl),))
            await db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:  # SQLite ends it itself on a full disk
                await db.execute("ROLLBACK")
            raise
        return turn_id

    async def recent(self, session: str, limit: int | None = None) -> list[EpisodicTurn]:
        """Live turns of ``session`` (within the TTL and window), oldest first."""
        cutoff = iso(self._clock.now() - self.ttl)
        rows = await self._select(
            "session = ? AND created_at >= ? ORDER BY id DESC LIMIT ?",
            (session, cutoff, min(limit or self.window, self.window)),
        )
        return rows[::-1]

    async def last_subject(self, session: str) -> str | None:
        """Subject of the latest live turn of ``session`` that had one."""
        cutoff = iso(self._clock.now() - self.ttl)
        rows = await self._select(
            "session = ? AND created_at >= ? AND subject IS NOT NULL ORDER BY id DESC LIMIT 1",
            (session, cutoff),
        )
        return rows[0].subject if rows else None

    async def by_subject(self, subject: str) -> list[EpisodicTurn]:
        return await self._select("subject = ? ORDER BY id", (subject,))

    async def all(self) -> list[EpisodicTurn]:
        return await self._select("1 = 1 ORDER BY id", ())

    async def forget(self, subject: str | None = None, mentions: Iterable[str] = ()) -> int:
        """Delete turns about ``subject`` or whose text/evidence contains any of ``mentions``."""
        clauses, args = [], []
        if subject:
            clauses.append("subject = ?")
            args.append(subject)
        for m in mentions:
            if m:
                clauses.append("(instr(lower(query), ?) > 0 OR instr(lower(evidence), ?) > 0)")
                args += [m.lower(), m.lower()]
        if not clauses:
            return 0
        db = await self._writable()
        cur = await db.execute(f"DELETE FROM turns WHERE {' OR '.join(clauses)}", args)
        return int(cur.rowcount or 0)

    async def delete_session(self, session: str) -> int:
        db = await self._writable()
        cur = await db.execute("DELETE FROM turns WHERE session = ?", (session,))
        return int(cur.rowcount or 0)

    async def prune(self) -> int:
        """Delete expired turns now (``add`` also does this)."""
        db = await self._writable()
        cur = await db.execute(
            "DELETE FROM turns WHERE created_at < ?", (iso(self._clock.now() - self.ttl),)
        )
        return int(cur.rowcount or 0)

    async def _select(self, where: str, args: tuple[Any, ...]) -> list[EpisodicTurn]:
        async with self.db.execute(f"{SELECT_TURNS} WHERE {where}", args) as cur:
            rows = await cur.fetchall()
        return [turn_from_row(r) for r in rows]


class EpisodicStore:
    """Synchronous facade over ``AsyncEpisodicStore`` (private event loop in a thread)."""

    def __init__(
        self, path: Path, clock: Clock, *, window: int = 50, ttl_minutes: float = 30.0
    ) -> None:
        self._store = AsyncEpisodicStore(path, clock, window=window, ttl_minutes=ttl_minutes)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, daemon=True, name=f"episodic-{path.parent.name}"
        )
        self._thread.start()
        try:
            self._run(self._store.open())
        except BaseException:
            self.close()
            raise

    @property
    def path(self) -> Path:
        return self._store.path

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        """``coro`` on the store's loop; the file's errors as ``MemoryFault`` sentences."""
        with said_truly(self.path):
            return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

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
        return self._run(
            self._store.add(
                session, query, chain=chain, evidence=evidence, quality=quality, subject=subject
            )
        )

    def recent(self, session: str, limit: int | None = None) -> list[EpisodicTurn]:
        return self._run(self._store.recent(session, limit))

    def last_subject(self, session: str) -> str | None:
        return self._run(self._store.last_subject(session))

    def by_subject(self, subject: str) -> list[EpisodicTurn]:
        return self._run(self._store.by_subject(subject))

    def all(self) -> list[EpisodicTurn]:
        return self._run(self._store.all())

    def forget(self, subject: str | None = None, mentions: Iterable[str] = ()) -> int:
        return self._run(self._store.forget(subject, list(mentions)))

    def delete_session(self, session: str) -> int:
        return self._run(self._store.delete_session(session))

    def prune(self) -> int:
        return self._run(self._store.prune())

    def close(self) -> None:
        if self._loop.is_running():
            self._run(self._store.close())
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
        if not self._loop.is_running():
            self._loop.close()
