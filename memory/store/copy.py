"""``helix-chat db copy``: move users' state between the files and PostgreSQL, verified.

Every table of a user is read in id order from one side and written to the other, surrogate
ids renumbered (``replaced_by`` and ``answer_id`` follow them). The copy is verified by a count
and a SHA-256 per table over a canonical form of the rows (ids replaced by their rank, times in
UTC, bytes in hex) read back from the target; on the PostgreSQL side the check runs inside the
writing transaction, so a mismatch leaves nothing behind. A target that already holds rows of
the user is refused.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb

from memory.migrate import Executor, Migrations
from memory.store.pg import Qmark, connect
from memory.vault import COLUMNS as FACT_COLUMNS


@dataclass(frozen=True)
class Table:
    store: str
    name: str
    columns: tuple[str, ...]
    id: str | None = None
    refs: dict[str, str] = field(default_factory=dict)


TABLES = (
    Table("vault", "facts", FACT_COLUMNS[1:], "id", {"replaced_by": "facts"}),
    Table(
        "vault", "mem_index", ("alias_hash", "alias", "kind", "subject", "first_seen", "last_seen")
    ),
    Table(
        "episodic",
        "turns",
        ("session", "subject", "query", "chain", "evidence", "quality", "created_at"),
        "id",
    ),
    Table(
        "cache",
        "answers",
        ("mode", "question", "norm", "vec", "result", "created_at", "last_hit", "hits"),
        "id",
    ),
    Table("cache", "deps", ("answer_id", "node"), refs={"answer_id": "answers"}),
    Table("sessions", "sessions", ("id", "title", "created_at", "updated_at", "auto_title")),
    Table("sessions", "turns", ("session_id", "question", "result", "created_at"), "id"),
)
FILES = {
    "vault": "vault.duckdb",
    "episodic": "episodic.sqlite",
    "cache": "cache.sqlite",
    "sessions": "sessions.sqlite",
}

Opener = Callable[[str], AbstractContextManager[Executor]]
"""A store name -> a connection (in one transaction) whose unqualified names are its tables."""


@dataclass(frozen=True)
class Copied:
    key: str
    counts: dict[str, int]
    checksums: dict[str, str]


def _value(v: Any) -> Any:
    if isinstance(v, datetime):
        return (v if v.tzinfo else v.replace(tzinfo=UTC)).astimezone(UTC).isoformat()
    if isinstance(v, bytes | bytearray | memoryview):
        return bytes(v).hex()
    if isinstance(v, float):
        return repr(v)
    return v


def _read(conn: Executor, table: Table) -> list[tuple[Any, ...]]:
    cols = ", ".join(((table.id,) if table.id else ()) + table.columns)
    order = table.id or ", ".join(table.columns)
    rows = conn.execute(f"SELECT {cols} FROM {table.name} ORDER BY {order}").fetchall()
    return [tuple(r) for r in rows]


def digest(opener: Opener) -> tuple[dict[str, int], dict[str, str]]:
    """Count and checksum of every table of one side (one user's stores)."""
    ranks: dict[str, dict[Any, int]] = {}
    counts: dict[str, int] = {}
    sums: dict[str, str] = {}
    for table in TABLES:
        with opener(table.store) as conn:
            rows = _read(conn, table)
        label = f"{table.store}.{table.name}"
        if table.id:
            ranks[table.name] = {r[0]: n for n, r in enumerate(rows)}
            rows = [r[1:] for r in rows]
        canon = []
        for row in rows:
            values = dict(zip(table.columns, row, strict=True))
            for col, target in table.refs.items():
                values[col] = None if values[col] is None else ranks[target].get(values[col], -1)
            canon.append([_value(values[c]) for c in table.columns])
        if not table.id:
            canon.sort(key=json.dumps)
        counts[label] = len(canon)
        sums[label] = hashlib.sha256(json.dumps(canon).encode()).hexdigest()
    return counts, sums


def _write(source: Opener, target: Opener) -> None:
    ids: dict[str, dict[Any, int]] = {}
    for table in TABLES:
        with source(table.store) as conn:
            rows = _read(conn, table)
        with target(table.store) as out:
            if out.execute(f"SELECT count(*) FROM {table.name}").fetchone()[0]:
                raise ValueError(f"the target already holds rows in {table.name}; not copying")
            mapping = ids.setdefault(table.name, {})
            cols = list(table.columns)
            late = [c for c, t in table.refs.items() if t == table.name]
            for row in rows:
                old, values = (row[0], list(row[1:])) if table.id else (None, list(row))
                for col, target_table in table.refs.items():
                    i = cols.index(col)
                    if col in late:
                        values[i] = None  # set once every row of the table has its new id
                    elif values[i] is not None:
                        values[i] = ids[target_table][values[i]]
                names, marks = ", ".join(cols), ", ".join("?" for _ in cols)
                if table.name == "facts":
                    sql = (
                        f"INSERT INTO facts (id, {names}) VALUES (nextval('fact_id_seq'), {marks})"
                    )
                else:
                    sql = f"INSERT INTO {table.name} ({names}) VALUES ({marks})"
                if table.id:
                    new = out.execute(sql + f" RETURNING {table.id}", values).fetchone()[0]
                    mapping[old] = int(new)
                else:
                    out.execute(sql, values)
            for col in late:
                i = cols.index(col) + 1
                for row in rows:
                    if row[i] is not None:
                        out.execute(
                            f"UPDATE {table.name} SET {col} = ? WHERE {table.id} = ?",
                            [mapping[row[i]], mapping[row[0]]],
                        )


def file_opener(user_dir: Path, migrations: dict[str, Migrations]) -> Opener:
    @contextmanager
    def open_store(store: str) -> Iterator[Executor]:
        from memory.store.manage import migrate_file

        path = user_dir / FILES[store]
        path.parent.mkdir(parents=True, exist_ok=True)
        migrate_file(path, migrations[store])
        conn: Any = (
            duckdb.connect(str(path))
            if path.suffix == ".duckdb"
            else sqlite3.connect(path, isolation_level=None)
        )
        try:
            conn.execute("BEGIN TRANSACTION")
            yield conn
            conn.execute("COMMIT")
        finally:
            conn.close()

    return open_store


@contextmanager
def pg_opener(url: str, key: str) -> Iterator[Opener]:
    """One transaction as ``key`` for the whole copy (committed only if the block ends)."""
    with connect(url) as raw, raw.transaction():
        raw.execute("SELECT set_config('helix.user', %s, true)", [key])

        @contextmanager
        def open_store(store: str) -> Iterator[Executor]:
            raw.execute("SELECT set_config('search_path', %s, true)", [f"helix_{store}, helix"])
            yield Qmark(raw)

        yield open_store


def copy_user(
    user_dir: Path, url: str, migrations: dict[str, Migrations], *, to_pg: bool
) -> Copied:
    """Copy one user (``user_dir`` of the files; its name is their PostgreSQL key) one way,
    verify it, and return the counts and checksums both sides agree on."""
    key = user_dir.name
    files = file_opener(user_dir, migrations)
    created = not user_dir.exists()
    with ExitStack() as stack:
        pg = stack.enter_context(pg_opener(url, key))
        source, target = (files, pg) if to_pg else (pg, files)
        before = digest(source)
        try:
            _write(source, target)
            after = digest(target)
        except BaseException:
            if not to_pg and created:
                shutil.rmtree(user_dir, ignore_errors=True)
            raise
        if after != before:
            if not to_pg and created:
                shutil.rmtree(user_dir, ignore_errors=True)
            raise ValueError(f"copy of {key} does not verify: {before[0]} != {after[0]}")
    return Copied(key, *before)
