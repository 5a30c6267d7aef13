"""The vault's DuckDB file: schema migrations, the cross-process lock, connections, transactions.

Durability and concurrency: every write is its own committed transaction (DuckDB syncs its WAL
on commit), so an acknowledged write survives ``kill -9``. DuckDB admits one writing process
per file, so each operation runs under an exclusive ``filelock.FileLock`` (re-entrant per
thread; one lock object per path in a process). A process keeps the file open only for the
duration of one operation, or of a ``hold()`` block for batch work.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import duckdb
from filelock import FileLock

from memory.clock import Clock, iso
from memory.migrate import Migrations, migrate
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


def vault_lock(path: Path) -> FileLock:
    """The process-wide lock guarding the vault file at ``path``."""
    return FileLock(path.resolve().with_suffix(".lock"), is_singleton=True)


class VaultFile:
    """Opens, migrates, locks and closes one vault file."""

    def __init__(self, path: Path, clock: Clock, *, lock_timeout: float = 30.0) -> None:
        self.path = path
        self._clock = clock
        self._timeout = lock_timeout
        self._lock = vault_lock(path)
        self._conn: duckdb.DuckDBPyConnection | None = None
        self._depth = 0
        self._reads = ReadCache()

    @contextmanager
    def hold(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """Keep the file open and locked for the whole block (batch work, replays)."""
        with self._lock.acquire(timeout=self._timeout):
            if self._conn is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._conn = duckdb.connect(str(self.path))
                migrate(self._conn, MIGRATIONS, iso(self._clock.now()))
                self._reads.clear()  # another process may have written since we last held it
            self._depth += 1
            try:
                yield self._conn
            finally:
                self._depth -= 1
                if self._depth == 0:
                    conn, self._conn = self._conn, None
                    conn.close()

    def close(self) -> None:
        """Nothing stays open between operations; kept for symmetry with the other stores."""

    @contextmanager
    def _tx(self) -> Iterator[duckdb.DuckDBPyConnection]:
        with self.hold() as conn:
            conn.execute("BEGIN TRANSACTION")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _read(self, key: ReadKey, load: Callable[[duckdb.DuckDBPyConnection], Any]) -> Any:
        """``load(conn)`` through the read cache (kept only inside a caller's ``hold()``)."""
        with self.hold() as conn:
            return self._reads.get(key, partial(load, conn), keep=self._depth > 1)
