"""Migrating and inspecting the stores: the PostgreSQL database, and the files of each user.

``db migrate`` runs as the schema owner: it applies the named migrations (recorded in
``helix._migrations``), refreshes the functional relations from the catalog, and grants the
application role what it needs (row-level security still applies to it).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from memory.cache import CACHE_FILE
from memory.cache import MIGRATIONS as CACHE_MIGRATIONS
from memory.clock import SystemClock, iso
from memory.episodic import EPISODIC_FILE
from memory.episodic import MIGRATIONS as EPISODIC_MIGRATIONS
from memory.migrate import Migrations, migrate
from memory.relations import load_catalog
from memory.sqlite import open_sqlite
from memory.store.pg import connect
from memory.store.pg_schema import MIGRATIONS, grant, migrate_pg, pending, sync_catalog
from memory.store.pg_schema import applied as pg_applied
from memory.vault import MIGRATIONS as VAULT_MIGRATIONS
from memory.vault import VAULT_FILE, vault_lock

MEMORY_FILES: tuple[tuple[str, Migrations], ...] = (
    (VAULT_FILE, VAULT_MIGRATIONS),
    (EPISODIC_FILE, EPISODIC_MIGRATIONS),
    (CACHE_FILE, CACHE_MIGRATIONS),
)
"""The memory's files in a user's directory, with their migrations (``sessions.sqlite`` is
added by the caller that knows sessions)."""


@dataclass(frozen=True)
class Status:
    store: str
    applied: list[str]
    pending: list[str]


def migrate_database(url: str, app_role: str | None) -> list[str]:
    """Bring the database to the current schema; returns the migrations applied now."""
    with connect(url) as conn:
        ran = migrate_pg(conn, iso(SystemClock().now()))
        sync_catalog(conn, load_catalog().functional_relations())
        if app_role:
            exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [app_role])
            if exists.fetchone() is None:
                raise ValueError(f"no role {app_role!r} in the database; create it first")
            grant(conn, app_role)
    return ran


def database_status(url: str) -> tuple[Status, int]:
    """The database's migrations and its number of registered users."""
    with connect(url) as conn:
        done, todo = pg_applied(conn), pending(conn)
        users = 0
        if not todo:
            row = conn.execute("SELECT count(*) FROM helix.users").fetchone()
            users = int(row[0]) if row else 0
    return Status("postgres", done, todo), users


def migrate_file(path: Path, migrations: Migrations) -> list[str]:
    """Bring one store file to the current schema (DuckDB for the vault, else SQLite)."""
    now = iso(SystemClock().now())
    if path.suffix == ".duckdb":
        with vault_lock(path).acquire(timeout=30.0):
            conn = duckdb.connect(str(path))
            try:
                return migrate(conn, migrations, now)
            finally:
                conn.close()
    before = set(file_status(path, migrations).applied) if path.exists() else set()
    open_sqlite(path, SystemClock(), migrations).close()
    return [n for n in migrations.names() if n not in before]


def file_status(path: Path, migrations: Migrations) -> Status:
    conn: Any = (
        duckdb.connect(str(path), read_only=True)
        if path.suffix == ".duckdb"
        else sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    )
    try:
        has = conn.execute(
            "SELECT count(*) FROM sqlite_master WHERE name = '_migrations'"
            if path.suffix != ".duckdb"
            else "SELECT count(*) FROM information_schema.tables WHERE table_name = '_migrations'"
        ).fetchone()
        rows = (
            conn.execute("SELECT name FROM _migrations ORDER BY applied_at, name").fetchall()
            if has and has[0]
            else []
        )
        done = [str(r[0]) for r in rows]
    finally:
        conn.close()
    return Status(path.name, done, [n for n in migrations.names() if n not in done])


__all__ = ["MEMORY_FILES", "MIGRATIONS", "Status", "database_status", "file_status"]
