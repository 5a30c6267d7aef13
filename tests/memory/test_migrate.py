from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import duckdb
import pytest

from memory.migrate import Migrations, applied, migrate


def _registry() -> Migrations:
    reg = Migrations("demo")

    @reg.register
    def m001_initial(db: Any) -> None:
        db.execute("CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT)")

    return reg


def test_migrations_are_named_recorded_and_applied_once(tmp_path: Path) -> None:
    reg = _registry()
    conn = sqlite3.connect(tmp_path / "a.sqlite", isolation_level=None)
    assert migrate(conn, reg, "t0") == ["m001_initial"]
    assert migrate(conn, reg, "t1") == []
    assert applied(conn) == ["m001_initial"]


def test_upgrade_from_an_older_schema_applies_only_the_new_steps(tmp_path: Path) -> None:
    path = tmp_path / "b.sqlite"
    reg = _registry()
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, reg, "t0")
    conn.execute("INSERT INTO things (name) VALUES ('kept')")

    @reg.register
    def m002_add_note(db: Any) -> None:
        db.execute("ALTER TABLE things ADD COLUMN note TEXT DEFAULT 'n/a'")

    assert migrate(conn, reg, "t1") == ["m002_add_note"]
    assert conn.execute("SELECT name, note FROM things").fetchall() == [("kept", "n/a")]
    assert applied(conn) == ["m001_initial", "m002_add_note"]


def test_a_failing_migration_leaves_nothing_half_applied(tmp_path: Path) -> None:
    reg = _registry()

    @reg.register
    def m002_broken(db: Any) -> None:
        db.execute("CREATE TABLE half (x INTEGER)")
        db.execute("THIS IS NOT SQL")

    conn = sqlite3.connect(tmp_path / "c.sqlite", isolation_level=None)
    with pytest.raises(sqlite3.OperationalError):
        migrate(conn, reg, "t0")
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "half" not in tables and "things" not in tables


def test_the_same_runner_works_on_duckdb(tmp_path: Path) -> None:
    conn = duckdb.connect(str(tmp_path / "d.duckdb"))
    assert migrate(conn, _registry(), "t0") == ["m001_initial"]
    assert applied(conn) == ["m001_initial"]
    conn.close()
