"""``RowDB``: the connection a SQL store (answer cache, chat sessions) writes through.

The store keeps its logic and its SQL (``?`` parameters, SQL both back ends speak); the
``RowDB`` decides where the rows live: one SQLite file per user and store (``SqliteRows``,
the default) or that user's rows of the store's PostgreSQL schema (``memory.store.pg.PgRows``).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Protocol

from engine.config import Settings
from engine.util.faults import MemoryFault
from memory.clock import Clock
from memory.faults import said_truly, unwritable
from memory.migrate import Executor, Migrations
from memory.sqlite import open_sqlite, reading_only


class RowDB(Protocol):
    reading: bool
    """True while the rows can only be read (``memory.sqlite.open_sqlite`` on a full or
    read-only disk): a store leaves out the writes that only keep its books (a hit's count)."""

    def conn(self) -> AbstractContextManager[Executor]:
        """A connection for statements that stand alone (each its own transaction)."""
        ...

    def tx(self) -> AbstractContextManager[Executor]:
        """One transaction for the whole block (committed at its end, rolled back on error)."""
        ...

    def close(self) -> None: ...


class SqliteRows:
    """One WAL-mode SQLite file, migrated on open; one connection shared by the threads of a
    process under a lock (the chat app calls from worker threads too). The file's errors are
    ``MemoryFault`` sentences naming it (``memory.faults``)."""

    def __init__(self, path: Path, clock: Clock, migrations: Migrations) -> None:
        self.path = path
        self._clock = clock
        self._migrations = migrations
        self._db = open_sqlite(path, clock, migrations)
        self.reading = reading_only(self._db)
        self._lock = threading.RLock()

    def _current(self) -> sqlite3.Connection:
        """The connection; one that could only read is opened again for writing as soon as
        the disk lets it (space was freed), else kept for reading."""
        if self.reading and unwritable(self.path) is None:
            try:
                fresh = open_sqlite(self.path, self._clock, self._migrations)
            except MemoryFault:
                return self._db  # a write says why, in the file's own words
            self._db.close()
            self._db, self.reading = fresh, reading_only(fresh)
        return self._db

    @contextmanager
    def conn(self) -> Iterator[sqlite3.Connection]:
        with self._lock, said_truly(self.path):
            yield self._current()

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock, said_truly(self.path):
            db = self._current()
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                if db.in_transaction:  # SQLite ends it itself on a full disk: the
                    db.execute("ROLLBACK")  # error to raise is that one, not ours
                raise
            db.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._db.close()


def open_rows(
    settings: Settings, user: str, clock: Clock, *, file: str, migrations: Migrations
) -> RowDB:
    """``user``'s rows of one store: ``settings.user_dir(user) / file`` (SQLite), or, with
    ``settings.database_url``, the PostgreSQL schema ``helix_<migrations.store>``."""
    if settings.database_url:
        from memory.store.pg import PgRows, pg_backend

        return PgRows(pg_backend(settings), user, f"helix_{migrations.store}")
    return SqliteRows(settings.user_dir(user) / file, clock, migrations)
