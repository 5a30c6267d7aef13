"""Opening the per-user SQLite files (episodic turns, answer cache, sessions)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from memory.clock import Clock, iso
from memory.faults import said_truly
from memory.migrate import Migrations, migrate


def open_sqlite(path: Path, clock: Clock, migrations: Migrations) -> sqlite3.Connection:
    """A WAL-mode autocommit connection with the schema migrated (shared by SQLite stores);
    a file that cannot be used is a ``MemoryFault`` naming it (``memory.faults``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
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
