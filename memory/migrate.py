"""Named, recorded schema migrations (the simonw/llm pattern).

Each store keeps an ordered list of migration functions; applied names are recorded in a
``_migrations`` table so that opening a store upgrades it from any older schema exactly once.
Works for ``sqlite3`` and DuckDB connections alike (both have ``execute``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol


class Executor(Protocol):
    def execute(self, sql: str, parameters: Any = ..., /) -> Any: ...


MigrationFn = Callable[[Any], None]


@dataclass
class Migrations:
    """An ordered registry of migrations for one kind of store."""

    store: str
    steps: list[tuple[str, MigrationFn]] = field(default_factory=list)

    def register(self, fn: MigrationFn) -> MigrationFn:
        """Decorator: append ``fn`` under its function name (``m001_initial`` ...)."""
        name = fn.__name__
        if any(existing == name for existing, _ in self.steps):
            raise ValueError(f"duplicate migration {name!r} in {self.store}")
        self.steps.append((name, fn))
        return fn

    def __iter__(self) -> Iterator[tuple[str, MigrationFn]]:
        return iter(self.steps)

    def names(self) -> list[str]:
        return [name for name, _ in self.steps]


def applied(conn: Executor) -> list[str]:
    """Names of the migrations already recorded in ``conn``, in order applied."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS _migrations (name VARCHAR PRIMARY KEY, applied_at VARCHAR)"
    )
    rows = conn.execute("SELECT name FROM _migrations ORDER BY applied_at, name").fetchall()
    return [str(r[0]) for r in rows]


def migrate(
    conn: Executor, migrations: Migrations, applied_at: str, *, begin: str = "BEGIN TRANSACTION"
) -> list[str]:
    """Apply every migration not yet recorded, all in one transaction.

    ``begin`` lets SQLite callers pass ``BEGIN IMMEDIATE`` so that two processes opening a new
    file at once do not both run the same migration. The caller provides ``applied_at`` (from
    its clock). Returns the names applied by this call.
    """
    conn.execute(begin)
    try:
        done = set(applied(conn))
        ran: list[str] = []
        for name, fn in migrations:
            if name in done:
                continue
            fn(conn)
            conn.execute(
                "INSERT INTO _migrations (name, applied_at) VALUES (?, ?)", (name, applied_at)
            )
            ran.append(name)
        conn.execute("COMMIT")
    except BaseException:
        if getattr(conn, "in_transaction", True):  # SQLite ends it itself on a full disk
            conn.execute("ROLLBACK")
        raise
    return ran
