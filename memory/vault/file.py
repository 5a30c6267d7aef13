"""The vault's store: the DuckDB file (schema migrations, the cross-process lock, connections,
transactions) or, through the same ``VaultDB`` interface, PostgreSQL (``memory.store``).

Durability and concurrency: every write is its own committed transaction (DuckDB syncs its WAL
on commit), so an acknowledged write survives ``kill -9``. DuckDB admits one writing process
per file, so each operation runs under an exclusive ``filelock.FileLock`` (re-entrant per
thread; one lock object per path in a process). A process keeps the file open only for the
duration of one operation, or of a block of them: ``hold()`` for batch work, and ``batch()``
for a replay or one turn (``wiring.turn``: noted, read and kept with one open).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, Protocol

import duckdb
from filelock import FileLock

from engine.util.faults import MemoryFault
from memory.clock import Clock, iso
from memory.faults import said_truly, unwritable
from memory.migrate import Executor, Migrations, migrate
from memory.vault.cache import ReadCache, ReadKey

VAULT_FILE = "vault.duckdb"
MIGRATIONS = Migrations("vault")


@MIGRATIONS.register
def m001_initial(db: Any) -> None:
    db.execute("CREATE SEQUENCE fact_id_seq START 1")
    db.execute(
        """CREATE TABLE facts (
            id BIGINT PRIMARY KEY,
            subj VARCHAR NOT NULL, rel VARCHAR NOT NULL, obj VARCHAR NOT NULL,
            key VARCHAR NOT NULL DEFAULT '',
            subj_name VARCHAR, obj_name VARCHAR,
            first_seen TIMESTAMP NOT NULL, last_used TIMESTAMP NOT NULL,
            usage_count INTEGER NOT NULL DEFAULT 1,
            quality DOUBLE NOT NULL,
            t_start TIMESTAMP NOT NULL, t_end TIMESTAMP, replaced_by BIGINT,
            evidence VARCHAR, source VARCHAR NOT NULL, session VARCHAR)"""
    )
    db.execute("CREATE INDEX facts_subj_rel ON facts (subj, rel)")
    db.execute("CREATE INDEX facts_obj ON facts (obj)")
    db.execute(
        """CREATE TABLE mem_index (
            alias_hash VARCHAR NOT NULL, alias VARCHAR NOT NULL, kind VARCHAR NOT NULL,
            subject VARCHAR NOT NULL, first_seen TIMESTAMP NOT NULL,
            last_seen TIMESTAMP NOT NULL, PRIMARY KEY (alias_hash, subject))"""
    )


@MIGRATIONS.register
def m002_fact_detail(db: Any) -> None:
    """A fact's qualifiers as stated (``Fact.detail``: a dose, route and frequency)."""
    db.execute("ALTER TABLE facts ADD COLUMN detail VARCHAR")


def vault_lock(path: Path) -> FileLock:
    """The process-wide lock guarding the vault file at ``path``."""
    return FileLock(path.resolve().with_suffix(".lock"), is_singleton=True)


class VaultDB(Protocol):
    """Where a vault's rows live: the DuckDB file (``DuckVaultDB``) or one user's rows in
    PostgreSQL (``memory.store.pg_vault.PgVaultDB``). Both speak the same SQL with ``?``
    parameters."""

    def hold(self) -> AbstractContextManager[Executor]:
        """The store open (and, for the file, locked) for the whole block."""
        ...

    def tx(self) -> AbstractContextManager[Executor]:
        """One atomic write (inside a ``hold``)."""
        ...

    batches: bool
    """Whether a batch (``VaultFile.batch``) keeps the store held between its operations: the
    file, yes (open and locked, reads cached); PostgreSQL, no (each operation is its own
    transaction, so a long batch pins no connection and hides no other process's writes)."""

    def serialize(self, conn: Executor, *key: str) -> None:
        """Make writers of the same ``key`` (subject, relation) take turns until the end of
        the transaction (the file lock already does this for the DuckDB file)."""
        ...


class DuckVaultDB:
    """Opens, migrates, locks and closes one vault file."""

    batches = True

    def __init__(self, path: Path, clock: Clock, *, lock_timeout: float = 30.0) -> None:
        self.path = path
        self._clock = clock
        self._timeout = lock_timeout
        self._lock = vault_lock(path)
        self._conn: duckdb.DuckDBPyConnection | None = None
        self._depth = 0
        self.reading: MemoryFault | None = None
        """Why the open file could only be opened for reading (its disk full or read-only)."""

    @contextmanager
    def hold(self) -> Iterator[duckdb.DuckDBPyConnection]:
        with self._locked():
            if self._conn is None:
                self._conn = self._open()
            with said_truly(self.path):
                yield from self._held(self._conn)

    @contextmanager
    def kept(self) -> Iterator[None]:
        """The file open and locked for the whole block, like ``hold``, but the block's own
        errors pass as they are: a batch runs other code between its operations (a turn asks
        the engine), and each operation inside says its own faults of this file."""
        with self._locked():
            if self._conn is None:
                self._conn = self._open()
            held = self._held(self._conn)
            next(held)
            try:
                yield
            finally:
                held.close()  # the outermost block closes the file

    def _locked(self) -> AbstractContextManager[object]:
        """The file's lock, taken; none on a disk nothing can be written to (mounted
        read-only: no lock file can be made there, and no process writes the file)."""
        try:
            # taking its lock file comes before any work: nothing was written
            with said_truly(self.path, os_errors=True, unwritten=True):
                return self._lock.acquire(timeout=self._timeout)
        except MemoryFault:
            if self.path.is_file() and unwritable(self.path):
                return nullcontext()
            raise

    def _open(self) -> duckdb.DuckDBPyConnection:
        """The file, opened and migrated (its faults said; nothing of the caller's written);
        on a disk that is full or read-only, opened for reading only when that is all it
        allows (``reading``: a write then says why it cannot be made)."""
        try:
            with said_truly(self.path, os_errors=True, unwritten=True):
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = duckdb.connect(str(self.path))
                try:
                    migrate(conn, MIGRATIONS, iso(self._clock.now()))
                except BaseException:
                    conn.close()
                    raise
        except MemoryFault as fault:
            reader = self._reader()
            if reader is None:
                raise
            self.reading = fault
            return reader
        self.reading = None
        return conn

    def _reader(self) -> duckdb.DuckDBPyConnection | None:
        """The file opened read-only, when nothing can be written beside it and it holds every
        migration; None otherwise."""
        if not self.path.is_file() or unwritable(self.path) is None:
            return None
        try:
            conn = duckdb.connect(str(self.path), read_only=True)
        except duckdb.Error:
            return None
        try:
            done = {str(r[0]) for r in conn.execute("SELECT name FROM _migrations").fetchall()}
        except duckdb.Error:
            done = set()
        if set(MIGRATIONS.names()) <= done:
            return conn
        conn.close()
        return None

    def _held(self, conn: duckdb.DuckDBPyConnection) -> Generator[duckdb.DuckDBPyConnection]:
        """``conn`` for one more nested block; closed when the outermost one ends."""
        self._depth += 1
        try:
            yield conn
        finally:
            self._depth -= 1
            if self._depth == 0:
                self._conn = None
                conn.close()

    @contextmanager
    def tx(self) -> Iterator[duckdb.DuckDBPyConnection]:
        with self.hold() as conn:
            if self.reading is not None:  # opened for reading only: why, before any write
                raise unwritable(self.path) or self.reading
            conn.execute("BEGIN TRANSACTION")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def serialize(self, conn: Executor, *key: str) -> None:
        """Nothing to do: every operation on the file holds its lock."""

    def compact(self) -> bool:
        """Rewrite the file from its live rows, so deleted rows leave no bytes behind.

        DuckDB keeps a deleted row's bytes in its blocks (``VACUUM`` and ``CHECKPOINT`` do not
        clear them) until the block is reused; a copy of the database (``COPY FROM
        DATABASE``, which carries the sequences' values and the indexes) holds only live rows
        and replaces the file. Done under the file lock; False, leaving the file as it is,
        when this process holds the file open in an outer block (it cannot be swapped then).
        """
        with self._lock.acquire(timeout=self._timeout):
            if self._conn is not None or not self.path.exists():
                return False
            fresh = self.path.with_name(self.path.name + ".compact")
            fresh.unlink(missing_ok=True)
            conn = duckdb.connect(str(self.path))
            try:
                row = conn.execute("SELECT current_database()").fetchone()
                assert row is not None
                conn.execute("ATTACH ? AS helix_compact", [str(fresh)])
                conn.execute(f'COPY FROM DATABASE "{row[0]}" TO helix_compact')
                conn.execute("DETACH helix_compact")
            except BaseException:
                fresh.unlink(missing_ok=True)
                raise
            finally:
                conn.close()
            _fsync(fresh)
            fresh.replace(self.path)
            _fsync(self.path.parent)
            return True


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class VaultFile:
    """A vault's store (``path``: the DuckDB file; or any ``VaultDB``), its read cache and the
    nesting of ``hold()`` blocks."""

    def __init__(self, where: Path | VaultDB, clock: Clock, *, lock_timeout: float = 30.0) -> None:
        self.path = where if isinstance(where, Path) else None
        self._db: VaultDB = (
            DuckVaultDB(where, clock, lock_timeout=lock_timeout)
            if isinstance(where, Path)
            else where
        )
        self._clock = clock
        self._depth = 0
        self._reads = ReadCache()
        self._uses: dict[int, int] = {}
        """Uses of facts not yet written (fact id -> answers that used it since), with the
        time of the latest in ``_used_at``: written with the next write, or by ``flush``."""
        self._used_at: datetime | None = None

    @contextmanager
    def hold(self) -> Iterator[Executor]:
        """Keep the store open (the file locked) for the whole block (batch work, replays)."""
        with self._db.hold() as conn:
            if self._depth == 0:
                self._reads.clear()  # another process may have written since we last held it
            self._depth += 1
            try:
                yield conn
            finally:
                self._depth -= 1

    def batch(self) -> AbstractContextManager[object]:
        """Keep the store open across a batch of operations when that is how it is used (the
        file, with its reads cached); the batch's other errors are not said as the file's."""
        return self._kept() if self._db.batches else nullcontext()

    @contextmanager
    def _kept(self) -> Iterator[None]:
        assert isinstance(self._db, DuckVaultDB)
        with self._db.kept():
            if self._depth == 0:
                self._reads.clear()  # another process may have written since we last held it
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1

    def close(self) -> None:
        """Nothing stays open between operations; kept for symmetry with the other stores."""

    def compact(self) -> bool:
        """Rewrite the vault file so that deleted rows leave no bytes in it (after a forget);
        False when it could not be done here (PostgreSQL, or the file held open by a batch)."""
        return isinstance(self._db, DuckVaultDB) and self._db.compact()

    @contextmanager
    def _tx(self) -> Iterator[Executor]:
        with self.hold(), self._db.tx() as conn:
            self._write_uses(conn)
            yield conn

    def flush(self) -> None:
        """Write the uses of facts recorded since the last write (``touch``)."""
        if self._uses:
            with self._tx():
                pass

    def _write_uses(self, conn: Executor) -> None:
        if not self._uses:
            return
        at, uses = self._used_at, self._uses
        self._uses, self._used_at = {}, None
        by_count: dict[int, list[int]] = {}
        for fact_id, count in uses.items():
            by_count.setdefault(count, []).append(fact_id)
        for count, ids in by_count.items():
            marks = ",".join("?" for _ in ids)
            conn.execute(
                f"UPDATE facts SET last_used = ?, usage_count = usage_count + ? "
                f"WHERE id IN ({marks})",
                [at, count, *ids],
            )

    def _read(self, key: ReadKey, load: Callable[[Executor], Any]) -> Any:
        """``load(conn)`` through the read cache (kept only inside a caller's ``hold()``)."""
        with self.hold() as conn:
            return self._reads.get(key, partial(load, conn), keep=self._depth > 1)
