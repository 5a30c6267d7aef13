"""Opening the per-user SQLite files (episodic turns, answer cache, sessions)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from engine.util.faults import MemoryFault
from memory.clock import Clock, iso
from memory.faults import said_truly, unwritable
from memory.migrate import Migrations, migrate


def open_sqlite(path: Path, clock: Clock, migrations: Migrations) -> sqlite3.Connection:
    """A WAL-mode autocommit connection with the schema migrated (shared by SQLite stores);
    a file that cannot be used is a ``MemoryFault`` naming it (``memory.faults``).

    When nothing can be written beside the file (its disk is full or read-only: SQLite cannot
    even make the index of its WAL to open it), a file that holds the whole schema is opened
    for reading only (``reading_only``): what is stored is still read, and a write fails as
    the file's fault ("cannot be written: the disk is full; nothing new was kept")."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        return _writer(path, clock, migrations)
    except MemoryFault:
        conn = _reader(path, migrations)
        if conn is None:
            raise
        return conn


def _writer(path: Path, clock: Clock, migrations: Migrations) -> sqlite3.Connection:
    with said_truly(path):
        conn = sqlite3.connect(path, isolation_level=None, timeout=30.0, check_same_thread=False)
    try:
        with said_truly(path):
            set_wal(conn)
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA busy_timeout=30000")
            conn.execute("PRAGMA foreign_keys=ON")
            migrate(conn, migrations, iso(clock.now()), begin="BEGIN IMMEDIATE")
    except BaseException:
        conn.close()
        raise
    return conn


READERS = ("mode=ro", "immutable=1")
"""How a file is opened for reading only: as read-only (SQLite reads its WAL too, when it can
map the WAL's index), else as immutable (the main file alone, taken only when no WAL holds
rows it lacks)."""


def _reader(path: Path, migrations: Migrations) -> sqlite3.Connection | None:
    """``path`` opened for reading only, when nothing can be written beside it (``unwritable``)
    and it holds every migration of ``migrations``; None when it cannot be so read."""
    if unwritable(path) is None or not path.is_file():
        return None
    wal = path.with_name(f"{path.name}-wal")
    for how in READERS:
        if how == "immutable=1" and wal.is_file() and wal.stat().st_size > 0:
            return None
        try:
            conn = sqlite3.connect(
                f"{path.resolve().as_uri()}?{how}",
                uri=True,
                isolation_level=None,
                timeout=30.0,
                check_same_thread=False,
            )
        except sqlite3.Error:
            continue
        try:
            conn.execute("PRAGMA query_only=ON")
            done = {str(r[0]) for r in conn.execute("SELECT name FROM _migrations")}
        except sqlite3.Error:
            conn.close()
            continue
        if set(migrations.names()) <= done:
            return conn
        conn.close()
        return None
    return None


def reading_only(conn: sqlite3.Connection) -> bool:
    """Whether ``conn`` was opened for reading only (``open_sqlite`` on a blocked disk)."""
    row = conn.execute("PRAGMA query_only").fetchone()
    return bool(row and row[0])


def set_wal(conn: sqlite3.Connection, timeout: float = 30.0) -> None:
    """Switch to WAL, retrying: the switch on a new file can fail at once with "database is
    locked" (no busy handler) while another process is creating it."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            mode = conn.execute("PRAGMA journal_mode").fetchone()
            if mode and str(mode[0]).lower() == "wal":
                return
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def compact_sqlite(path: Path, timeout: float = 30.0) -> bool:
    """Rewrite a SQLite file from its live rows and empty its WAL, so deleted rows leave no
    bytes behind (``VACUUM`` builds a fresh copy; the checkpoint moves it into the main file
    and truncates the WAL). False, leaving the file readable as it was, when another
    connection's open read kept the WAL from being emptied."""
    if not path.exists():
        return False
    conn = sqlite3.connect(path, isolation_level=None, timeout=timeout)
    try:
        with said_truly(path):
            conn.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
            conn.execute("VACUUM")
            row = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    finally:
        conn.close()
    return row is None or int(row[0]) == 0
