"""Opening the per-user SQLite files (episodic turns, answer cache, sessions)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from memory.clock import Clock, iso
from memory.migrate import Migrations, migrate


def open_sqlite(path: Path, clock: Clock, migrations: Migrations) -> sqlite3.Connection:
    """A WAL-mode autocommit connection with the schema migrated (shared by SQLite stores)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None, timeout=30.0, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA busy_timeout=30000")
    conn.execute("PRAGMA foreign_keys=ON")
    migrate(conn, migrations, iso(clock.now()), begin="BEGIN IMMEDIATE")
    return conn
