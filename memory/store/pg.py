"""PostgreSQL as the home of every user's state (``HELIX_DATABASE_URL``).

One ``PgBackend`` per process and URL holds a psycopg connection pool. Every unit of work is
one transaction that first sets ``helix.user`` (``set_config(..., true)``: it ends with the
transaction); row-level security on every per-user table (``memory.store.pg_schema``) shows
and admits only the rows of that user, so a query that forgets its ``WHERE user = ...`` still
sees one user's rows. A thread that opens a unit of work for a user inside another one joins
it (nested blocks are savepoints), so ``forget`` across vault, turns, cache and sessions is
one transaction. Each store's tables live in their own schema (``helix_vault``,
``helix_episodic``, ``helix_cache``, ``helix_sessions``), chosen per block by ``search_path``,
so the stores keep their table names and their SQL.
"""

from __future__ import annotations

import atexit
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from engine.config import Settings
from engine.util.text import safe_user_id
from memory.store.pg_schema import pending


class DatabaseError(RuntimeError):
    """The configured database cannot be used; the message says why and what to do."""


def pg_key(user: str) -> str:
    """The ``helix.user`` value of a user: the same safe id that names their file directory."""
    return safe_user_id(user)


@lru_cache(maxsize=256)
def _qmark(sql: str) -> str:
    return sql.replace("%", "%%").replace("?", "%s")


class Qmark:
    """A psycopg connection that takes the ``?`` parameters the file stores' SQL uses."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.raw = conn

    def execute(self, sql: str, parameters: Any = (), /) -> psycopg.Cursor[Any]:
        return self.raw.execute(_qmark(sql), parameters)


def connect(url: str, **kwargs: Any) -> psycopg.Connection[Any]:
    """One autocommit connection in UTC, or a ``DatabaseError`` naming the URL's host."""
    try:
        return psycopg.connect(url, autocommit=True, options="-c TimeZone=UTC", **kwargs)
    except psycopg.Error as exc:
        raise DatabaseError(f"cannot connect to HELIX_DATABASE_URL ({_where(url)}): {exc}") from exc


def _where(url: str) -> str:
    return re.sub(r"//[^@/]*@", "//", url)


@dataclass
class _Open:
    """A unit of work open in this thread for one user: its connection and schema stack."""

    conn: psycopg.Connection[Any]
    schemas: list[str] = field(default_factory=list)


class PgBackend:
    """The pool, the per-user units of work, and the checks made once at open."""

    def __init__(self, url: str, *, pool_size: int = 8) -> None:
        self.url = url
        with connect(url) as conn:
            check_role(conn)
            missing = pending(conn)
        if missing:
            raise DatabaseError(
                f"the database at {_where(url)} lacks migrations {', '.join(missing)}; run "
                "`helix-chat db migrate` (as the schema owner) first"
            )
        self.pool = ConnectionPool(
            url,
            min_size=1,
            max_size=max(1, pool_size),
            kwargs={"autocommit": True, "options": "-c TimeZone=UTC"},
            open=True,
            timeout=30.0,
            name="helix",
        )
        self._local = threading.local()

    def _opened(self) -> dict[str, _Open]:
        table: dict[str, _Open] | None = getattr(self._local, "open", None)
        if table is None:
            table = self._local.open = {}
        return table

    @contextmanager
    def unit(self, user: str, schema: str, *, savepoint: bool = True) -> Iterator[Qmark]:
        """A transaction as ``user`` with ``schema`` first on the search path; joined (as a
        savepoint, unless ``savepoint`` is False) when one is already open in this thread."""
        key = pg_key(user)
        opened = self._opened()
        current = opened.get(key)
        if current is not None:
            with _schema(current, schema):
                if not savepoint:
                    yield Qmark(current.conn)
                    return
                with current.conn.transaction():
                    yield Qmark(current.conn)
            return
        with self.pool.connection() as conn, conn.transaction():
            conn.execute(  # one round trip: the user and the store's schema
                "SELECT set_config('helix.user', %s, true), set_config('search_path', %s, true)",
                [key, _path(schema)],
            )
            opened[key] = _Open(conn, [schema])
            try:
                yield Qmark(conn)
            finally:
                del opened[key]

    def close(self) -> None:
        self.pool.close()


@contextmanager
def _schema(work: _Open, schema: str) -> Iterator[None]:
    before = work.schemas[-1] if work.schemas else None
    if schema != before:
        _search(work.conn, schema)
    work.schemas.append(schema)
    try:
        yield
    finally:
        work.schemas.pop()
        if before is not None and schema != before and not work.conn.broken:
            _search(work.conn, before)


def _path(schema: str) -> str:
    return f"{schema}, helix"


def _search(conn: psycopg.Connection[Any], schema: str) -> None:
    conn.execute("SELECT set_config('search_path', %s, true)", [_path(schema)])


def check_role(conn: psycopg.Connection[Any]) -> None:
    """Refuse a role that row-level security does not apply to (a superuser or BYPASSRLS)."""
    row = conn.execute(
        "SELECT rolsuper OR rolbypassrls, current_user FROM pg_roles WHERE rolname = current_user"
    ).fetchone()
    if row and row[0]:
        raise DatabaseError(
            f"HELIX_DATABASE_URL connects as {row[1]!r}, a superuser or BYPASSRLS role that "
            "row-level security does not restrict; connect as the application role instead "
            "(README, 'Team server')"
        )


class PgRows:
    """One user's rows of one store schema (``memory.store.rows.RowDB``)."""

    def __init__(self, backend: PgBackend, user: str, schema: str) -> None:
        self.backend = backend
        self.user = user
        self.schema = schema

    def conn(self) -> Any:
        return self.backend.unit(self.user, self.schema, savepoint=False)

    def tx(self) -> Any:
        return self.backend.unit(self.user, self.schema)

    def close(self) -> None:
        """The pool stays open for the process (other users share it)."""


_BACKENDS: dict[str, PgBackend] = {}
_GUARD = threading.Lock()


def pg_backend(settings: Settings) -> PgBackend:
    """The process's backend for ``settings.database_url`` (opened, checked once)."""
    url = settings.database_url
    if not url:
        raise DatabaseError("HELIX_DATABASE_URL is not set")
    if not url.startswith(("postgresql://", "postgres://")):
        raise DatabaseError(f"HELIX_DATABASE_URL must be a postgresql:// URL, got {_where(url)!r}")
    with _GUARD:
        found = _BACKENDS.get(url)
        if found is None:
            found = _BACKENDS[url] = PgBackend(url, pool_size=settings.database_pool_size)
        return found


def close_backends() -> None:
    with _GUARD:
        for backend in _BACKENDS.values():
            backend.close()
        _BACKENDS.clear()


atexit.register(close_backends)
