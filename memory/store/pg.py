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

A database that stops answering is ``DatabaseUnreachable`` (a ``MemoryFault``: graph questions
go on without memory) after ``settings.database_timeout_s`` at most; while it stays down,
``Health`` makes later units fail at once, and the first after a pause (1 s, doubling to 30 s)
tries a fresh connection: when it answers, a new pool is opened.
"""

from __future__ import annotations

import atexit
import math
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool, PoolClosed, PoolTimeout

from engine.config import Settings
from engine.util.faults import MemoryFault
from engine.util.text import safe_user_id
from memory.store.pg_schema import pending


class DatabaseError(RuntimeError):
    """The configured database cannot be used; the message says why and what to do."""


class DatabaseUnreachable(DatabaseError, MemoryFault):
    """The database did not answer (or was too busy to): memory is unavailable until it does,
    nothing stored is lost, and the knowledge graph does not need it."""


FIRST_PAUSE_S = 1.0
LONGEST_PAUSE_S = 30.0


class Health:
    """Whether the database answered last time. After a failure, units of work fail at once
    for a pause (``FIRST_PAUSE_S``, doubling to ``LONGEST_PAUSE_S`` while the database stays
    down) instead of each waiting for a connection; the first unit after it tries again."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self.reason: str | None = None
        """Why the database is down; None while it answers."""
        self._pause = FIRST_PAUSE_S
        self._retry_at = 0.0

    def pausing(self) -> str | None:
        """Why the database is down while its pause runs (fail at once), else None (try)."""
        with self._lock:
            if self.reason is not None and self._clock() < self._retry_at:
                return self.reason
            return None

    def failed(self, reason: str) -> None:
        with self._lock:
            self._pause = (
                FIRST_PAUSE_S if self.reason is None else min(self._pause * 2, LONGEST_PAUSE_S)
            )
            self.reason = reason
            self._retry_at = self._clock() + self._pause

    def answered(self) -> None:
        with self._lock:
            self.reason = None
            self._pause = FIRST_PAUSE_S


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


CONNECT_TIMEOUT_S = 5


def connect(url: str, **kwargs: Any) -> psycopg.Connection[Any]:
    """One autocommit connection in UTC, or a ``DatabaseError`` naming the URL's host (within
    ``CONNECT_TIMEOUT_S`` unless ``connect_timeout`` is given; ``DatabaseUnreachable`` when the
    server does not take the connection)."""
    kwargs.setdefault("connect_timeout", CONNECT_TIMEOUT_S)
    try:
        return psycopg.connect(url, autocommit=True, options="-c TimeZone=UTC", **kwargs)
    except psycopg.Error as exc:
        said = f"cannot connect to HELIX_DATABASE_URL ({_where(url)}): {refusal(exc)}"
        if isinstance(exc, psycopg.OperationalError):  # down, or refusing this role
            raise DatabaseUnreachable(said, unwritten=True) from exc
        raise DatabaseError(said) from exc


def _where(url: str) -> str:
    return re.sub(r"//[^@/]*@", "//", url)


def refusal(exc: BaseException) -> str:
    """A driver's connection error in a few words: 'Connection refused', 'timeout expired',
    'password authentication failed for user "x"' (libpq puts the cause after the last
    'failed: ' of its first line, and a hint on the next)."""
    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return first.rsplit("failed: ", 1)[-1].strip()[:200] or type(exc).__name__


@dataclass
class _Open:
    """A unit of work open in this thread for one user: its connection and schema stack."""

    conn: psycopg.Connection[Any]
    schemas: list[str] = field(default_factory=list)


class PgBackend:
    """The pool, the per-user units of work, and the checks made once at open."""

    def __init__(self, url: str, *, pool_size: int = 8, timeout: float = 5.0) -> None:
        self.url = url
        self.timeout = timeout
        """Seconds a unit waits for a connection before the database is said unreachable."""
        with connect(url, connect_timeout=self._connect_timeout) as conn:
            check_role(conn)
            missing = pending(conn)
        if missing:
            raise DatabaseError(
                f"the database at {_where(url)} lacks migrations {', '.join(missing)}; run "
                "`helix-chat db migrate` (as the schema owner) first"
            )
        self._size = max(1, pool_size)
        self._pool_lock = threading.RLock()
        self.health = Health()
        self.pool: ConnectionPool | None = self._new_pool()
        """Closed (None) while the database is down: it would retry on its own meanwhile."""
        self._local = threading.local()

    @property
    def _connect_timeout(self) -> int:
        return max(2, math.ceil(self.timeout))  # libpq takes whole seconds, 2 at least

    def _new_pool(self) -> ConnectionPool:
        return ConnectionPool(
            self.url,
            min_size=1,
            max_size=self._size,
            kwargs={
                "autocommit": True,
                "options": "-c TimeZone=UTC",
                "connect_timeout": self._connect_timeout,
            },
            open=True,
            timeout=self.timeout,
            check=ConnectionPool.check_connection,  # a connection the server dropped is replaced
            name="helix",
        )

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool for the block; ``DatabaseUnreachable`` when the database
        does not give one within ``timeout`` (at once while it is known to be down), or drops
        it during the block."""
        pool = self._pool()
        try:
            conn = self._getconn(pool)
        except (PoolTimeout, PoolClosed) as exc:
            raise self._no_connection() from exc
        try:
            yield conn
        except psycopg.OperationalError as exc:
            if not (conn.broken or conn.closed):
                raise
            raise self._lost(exc) from exc
        finally:
            pool.putconn(conn)
        self.health.answered()

    def _getconn(self, pool: ConnectionPool) -> psycopg.Connection[Any]:
        """A connection within ``timeout``; after the first second without one, a fresh
        connection is tried, so a database that refuses is known at once, not at the end."""
        first = min(1.0, self.timeout)
        try:
            return pool.getconn(timeout=first)
        except PoolTimeout:
            if self.timeout <= first or self.probe() is not None:
                raise
        return pool.getconn(timeout=self.timeout - first)

    def _pool(self) -> ConnectionPool:
        """The pool; while the database is down, why (at once during the pause, else after a
        fresh connection was tried), and a new pool once it answers again."""
        why = self.health.pausing()
        if why is not None:
            raise self.unreachable(why)
        with self._pool_lock:
            if self.pool is None:
                why = self.probe()
                if why is not None:
                    raise self._down(why)
                self.pool = self._new_pool()
            return self.pool

    def probe(self) -> str | None:
        """Why a fresh connection cannot be made, or None when the database answers."""
        try:
            with psycopg.connect(
                self.url, autocommit=True, connect_timeout=self._connect_timeout
            ) as conn:
                conn.execute("SELECT 1")
        except psycopg.Error as exc:
            return refusal(exc)
        return None

    def _no_connection(self) -> DatabaseUnreachable:
        why = self.probe()
        if why is not None:
            return self._down(why)
        return DatabaseUnreachable(  # it answers: this process's connections are all busy
            f"the database at {_where(self.url)} had no free connection for {self.timeout:g} s "
            f"(HELIX_DATABASE_POOL_SIZE={self._size} per process); nothing was written, try "
            "again or raise the pool size",
            unwritten=True,
        )

    def _lost(self, exc: BaseException) -> DatabaseUnreachable:
        why = self.probe()
        if why is not None:
            fault = self._down(why)
            fault.unwritten = False  # it went down during the work: what it kept is unknown
            return fault
        return DatabaseUnreachable(
            f"the connection to the database at {_where(self.url)} was lost during the "
            f"operation ({refusal(exc)}); it answers again, so try once more"
        )

    def _down(self, why: str) -> DatabaseUnreachable:
        """Note that the database is down and close the pool (it would keep retrying)."""
        self.health.failed(why)
        with self._pool_lock:
            pool, self.pool = self.pool, None
        if pool is not None:  # its workers may be waiting out a retry: not on this thread
            threading.Thread(target=pool.close, name="helix-pool-close", daemon=True).start()
        return self.unreachable(why)

    def unreachable(self, why: str) -> DatabaseUnreachable:
        return DatabaseUnreachable(
            f"the database at {_where(self.url)} (HELIX_DATABASE_URL) cannot be reached "
            f"({why}), so memory is unavailable until it answers (nothing stored is lost, graph "
            "questions are still answered): start PostgreSQL or correct HELIX_DATABASE_URL",
            unwritten=True,
        )

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
        with self.connection() as conn, conn.transaction():
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
        with self._pool_lock:
            pool, self.pool = self.pool, None
        if pool is not None:
            pool.close()


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

    reading = False
    """A database that answers takes writes (one that does not is a fault of its own)."""

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
            found = _BACKENDS[url] = PgBackend(
                url, pool_size=settings.database_pool_size, timeout=settings.database_timeout_s
            )
        return found


def close_backends() -> None:
    with _GUARD:
        for backend in _BACKENDS.values():
            backend.close()
        _BACKENDS.clear()


atexit.register(close_backends)
