"""The per-user fact vault: one DuckDB file of (subj, rel, obj) triples with validity intervals.

History is never rewritten by an update: when a functional relation gets a new value, the old
row gets ``t_end`` (and ``replaced_by``) and the new row starts at the same instant, so "what
was she on before?" stays answerable. Rows have a surrogate id; "one valid row per triple" is
enforced here, inside the file lock, because DuckDB has no partial unique indexes. A triple
re-stated after being superseded opens a new row (a new interval).

Durability and concurrency: every write is its own committed transaction (DuckDB syncs its WAL
on commit), so an acknowledged write survives ``kill -9``. DuckDB admits one writing process
per file, so each operation runs under ``memory.lock.FileLock``; a process keeps the file open
only for the duration of one operation, or of a ``hold()`` block for batch work.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

import duckdb

from engine.result import Triple
from engine.util.text import alias_key, content_hash
from memory.clock import Clock, from_naive_utc, iso, naive_utc
from memory.literals import measurement_key
from memory.lock import file_lock
from memory.migrate import Migrations, migrate
from memory.relations import RelationCatalog

Source = Literal["stated", "reviewed"]
VAULT_FILE = "vault.duckdb"
_PRUNE_EVERY = 128
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


_COLUMNS = (
    "id, subj, rel, obj, key, subj_name, obj_name, first_seen, last_used, usage_count, "
    "quality, t_start, t_end, replaced_by, evidence, source, session"
)


@dataclass(frozen=True)
class Fact:
    id: int
    subj: str
    rel: str
    obj: str
    key: str
    subj_name: str | None
    obj_name: str | None
    first_seen: datetime
    last_used: datetime
    usage_count: int
    quality: float
    t_start: datetime
    t_end: datetime | None
    replaced_by: int | None
    evidence: str | None
    source: str
    session: str | None

    @property
    def triple(self) -> Triple:
        return (self.subj, self.rel, self.obj)

    @property
    def current(self) -> bool:
        return self.t_end is None

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> Fact:
        (
            fid,
            subj,
            rel,
            obj,
            key,
            sname,
            oname,
            first,
            last,
            count,
            quality,
            t0,
            t1,
            repl,
            evidence,
            source,
            session,
        ) = row
        return cls(
            int(fid),
            subj,
            rel,
            obj,
            key,
            sname,
            oname,
            from_naive_utc(first),
            from_naive_utc(last),
            int(count),
            float(quality),
            from_naive_utc(t0),
            from_naive_utc(t1) if t1 is not None else None,
            int(repl) if repl is not None else None,
            evidence,
            source,
            session,
        )


@dataclass(frozen=True)
class _Slim:
    id: int
    obj: str
    key: str


@dataclass(frozen=True)
class StoreOutcome:
    fact: Fact | None
    created: bool
    superseded: tuple[Fact, ...] = ()


@dataclass(frozen=True)
class Alias:
    alias: str
    kind: str
    subject: str
    last_seen: datetime


class Vault:
    """One user's facts and alias index (``mem_index``)."""

    def __init__(
        self,
        path: Path,
        clock: Clock,
        *,
        catalog: RelationCatalog,
        max_facts: int = 50_000,
        lock_timeout: float = 30.0,
    ) -> None:
        self.path = path
        self._clock = clock
        self._catalog = catalog
        self._max_facts = max_facts
        self._timeout = lock_timeout
        self._lock = file_lock(path.with_suffix(".lock"))
        self._conn: duckdb.DuckDBPyConnection | None = None
        self._depth = 0
        self._adds = 0
        self._memo: dict[tuple[str, str], Any] = {}
        """Small read results, valid while this process holds the lock and has not written."""

    # --- connection lifecycle --------------------------------------------------------------
    @contextmanager
    def hold(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """Keep the file open and locked for the whole block (batch work, replays)."""
        with self._lock.hold(self._timeout):
            if self._conn is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._conn = duckdb.connect(str(self.path))
                migrate(self._conn, MIGRATIONS, iso(self._clock.now()))
                self._memo.clear()  # another process may have written since we last held it
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

    # --- writes ------------------------------------------------------------------------------
    def add(
        self,
        subj: str,
        rel: str,
        obj: str,
        *,
        supersedes: Triple | None = None,
        supersede_current: bool = False,
        source: Source = "stated",
        quality: float = 1.0,
        evidence: str | None = None,
        subj_name: str | None = None,
        obj_name: str | None = None,
        session: str | None = None,
        aliases: Sequence[tuple[str, str, str]] = (),
    ) -> StoreOutcome:
        """Store a fact (or refresh the identical valid one) and end what it supersedes.

        Reviewed facts are admitted only with quality 1 (the Reviewer accepted them).
        ``supersede_current`` ends every current value of (subj, rel): a switch whose old
        value was not named. ``aliases`` ((alias, kind, subject) triples) are learned in the
        same transaction.
        """
        if source == "reviewed" and quality < 1.0:
            return StoreOutcome(None, False)
        now = naive_utc(self._clock.now())
        key = self.key_of(rel, obj)
        with self._tx() as conn:
            self._learn(conn, aliases, now)
            valid = [
                _Slim(int(i), o, k)
                for i, o, k in conn.execute(
                    "SELECT id, obj, key FROM facts WHERE subj = ? AND rel = ? AND t_end IS NULL",
                    [subj, rel],
                ).fetchall()
            ]
            same = [f for f in valid if f.obj == obj]
            if same:
                conn.execute(
                    "UPDATE facts SET last_used = ?, usage_count = usage_count + 1, "
                    "subj_name = coalesce(subj_name, ?), obj_name = coalesce(obj_name, ?), "
                    "quality = greatest(quality, ?) WHERE id = ?",
                    [now, subj_name, obj_name, quality, same[0].id],
                )
                return StoreOutcome(self._get(conn, same[0].id), False)
            ending = self._to_supersede(valid, subj, rel, key, supersedes, supersede_current)
            if supersedes is not None and not any(f.obj == supersedes[2] for f in ending):
                ending += self._implied_past(
                    conn, supersedes, now, source, quality, evidence, session
                )
            row = conn.execute(
                f"INSERT INTO facts ({_COLUMNS}) VALUES (nextval('fact_id_seq'), "
                "?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, NULL, NULL, ?, ?, ?) RETURNING id",
                [
                    subj,
                    rel,
                    obj,
                    key,
                    subj_name,
                    obj_name,
                    now,
                    now,
                    quality,
                    now,
                    evidence,
                    source,
                    session,
                ],
            ).fetchone()
            assert row is not None
            new_id = int(row[0])
            ended: list[Fact] = []
            if ending:
                marks = ",".join("?" for _ in ending)
                ids = [f.id for f in ending]
                conn.execute(
                    f"UPDATE facts SET t_end = ?, replaced_by = ? WHERE id IN ({marks})",
                    [now, new_id, *ids],
                )
                ended = self._rows(conn, f"id IN ({marks})", ids)
        self._noted(subj, rel, key)
        self._adds += 1
        if self._adds % _PRUNE_EVERY == 0:
            self.prune()
        t_now = from_naive_utc(now)
        fact = Fact(
            new_id,
            subj,
            rel,
            obj,
            key,
            subj_name,
            obj_name,
            t_now,
            t_now,
            1,
            quality,
            t_now,
            None,
            None,
            evidence,
            source,
            session,
        )
        return StoreOutcome(fact, True, tuple(ended))

    def _noted(self, subj: str, rel: str, key: str) -> None:
        """Keep memoized reads true after this process stored (subj, rel, key)."""
        for (kind, arg), value in list(self._memo.items()):
            if kind == "keys" and arg == rel and key and key not in value:
                self._memo[(kind, arg)] = sorted([*value, key])
            elif kind == "subjects" and subj.startswith(arg) and subj not in value:
                self._memo[(kind, arg)] = sorted([*value, subj])
        self._memo[("exists", subj)] = True

    def _implied_past(
        self,
        conn: duckdb.DuckDBPyConnection,
        old: Triple,
        now: datetime,
        source: str,
        quality: float,
        evidence: str | None,
        session: str | None,
    ) -> list[_Slim]:
        """A replaced value never stored before ("switched from A to B") is recorded as past.

        It gets a zero-length interval ending now, so "what was she on before?" can answer A.
        """
        subj, rel, obj = old
        if conn.execute(
            "SELECT 1 FROM facts WHERE subj = ? AND rel = ? AND obj = ? LIMIT 1", [subj, rel, obj]
        ).fetchone():
            return []
        key = self.key_of(rel, obj)
        row = conn.execute(
            f"INSERT INTO facts ({_COLUMNS}) VALUES (nextval('fact_id_seq'), "
            "?, ?, ?, ?, NULL, NULL, ?, ?, 1, ?, ?, NULL, NULL, ?, ?, ?) RETURNING id",
            [subj, rel, obj, key, now, now, quality, now, evidence, source, session],
        ).fetchone()
        assert row is not None
        return [_Slim(int(row[0]), obj, key)]

    def key_of(self, rel: str, obj: str) -> str:
        """The functional key of a value ("hba1c" for "HbA1c 7.5%"); '' when not keyed."""
        if self._catalog.functional(rel) != "key":
            return ""
        key = measurement_key(obj) or alias_key(obj)
        return alias_key(self._catalog.measurement_keys.get(key, key))

    def _to_supersede(
        self,
        valid: list[_Slim],
        subj: str,
        rel: str,
        key: str,
        supersedes: Triple | None,
        supersede_current: bool,
    ) -> list[_Slim]:
        """Current rows of (subj, rel) that the new value ends."""
        mode = self._catalog.functional(rel)
        out: list[_Slim] = []
        for f in valid:
            if (
                (supersedes is not None and tuple(supersedes) == (subj, rel, f.obj))
                or mode == "subject"
                or supersede_current
                or (mode == "key" and f.key == key)
            ):
                out.append(f)
        return out

    def touch(self, ids: Iterable[int]) -> None:
        """Record a use (LRU order, usage count) of these facts."""
        ids = list(ids)
        if not ids:
            return
        marks = ",".join("?" for _ in ids)
        with self._tx() as conn:
            conn.execute(
                f"UPDATE facts SET last_used = ?, usage_count = usage_count + 1 "
                f"WHERE id IN ({marks})",
                [naive_utc(self._clock.now()), *ids],
            )

    def forget_facts(self, triples: Iterable[Triple]) -> list[Fact]:
        """Delete every row (all intervals) of these triples; returns what was deleted."""
        self._memo.clear()
        gone: list[Fact] = []
        with self._tx() as conn:
            for subj, rel, obj in triples:
                rows = self._rows(conn, "subj = ? AND rel = ? AND obj = ?", [subj, rel, obj])
                gone.extend(rows)
            self._delete(conn, [f.id for f in gone])
        return gone

    def forget_subject(self, subject: str) -> list[Fact]:
        """Delete every fact about (or pointing at) ``subject`` and every alias of it."""
        self._memo.clear()
        with self._tx() as conn:
            gone = self._rows(conn, "subj = ? OR obj = ?", [subject, subject])
            self._delete(conn, [f.id for f in gone])
            conn.execute("DELETE FROM mem_index WHERE subject = ?", [subject])
        return gone

    def _delete(self, conn: duckdb.DuckDBPyConnection, ids: list[int]) -> None:
        if not ids:
            return
        marks = ",".join("?" for _ in ids)
        conn.execute(f"DELETE FROM facts WHERE id IN ({marks})", ids)
        conn.execute(f"UPDATE facts SET replaced_by = NULL WHERE replaced_by IN ({marks})", ids)

    def prune(self) -> int:
        """LRU-drop superseded rows past ``max_facts``; current facts are never dropped."""
        self._memo.clear()
        with self._tx() as conn:
            row = conn.execute("SELECT count(*) FROM facts").fetchone()
            excess = int(row[0]) - self._max_facts if row else 0
            if excess <= 0:
                return 0
            ids = [
                int(r[0])
                for r in conn.execute(
                    "SELECT id FROM facts WHERE t_end IS NOT NULL ORDER BY last_used, id LIMIT ?",
                    [excess],
                ).fetchall()
            ]
            self._delete(conn, ids)
        return len(ids)

    # --- reads -------------------------------------------------------------------------------
    def history(self, subj: str, rel: str | None = None, key: str | None = None) -> list[Fact]:
        """Every row about ``subj`` (optionally one relation / key), oldest first."""
        where, args = "subj = ?", [subj]
        if rel is not None:
            where, args = where + " AND rel = ?", [*args, rel]
        if key is not None:
            where, args = where + " AND key = ?", [*args, key]
        with self.hold() as conn:
            return self._rows(conn, where, args, order="t_start, id")

    def about_object(self, obj: str, rel: str | None = None) -> list[Fact]:
        where, args = "obj = ?", [obj]
        if rel is not None:
            where, args = where + " AND rel = ?", [*args, rel]
        with self.hold() as conn:
            return self._rows(conn, where, args, order="t_start, id")

    def facts(self, include_superseded: bool = True) -> list[Fact]:
        where = "TRUE" if include_superseded else "t_end IS NULL"
        with self.hold() as conn:
            return self._rows(conn, where, [], order="t_start, id")

    def subjects(self, prefix: str = "") -> list[str]:
        def load(conn: duckdb.DuckDBPyConnection) -> list[str]:
            rows = conn.execute(
                "SELECT DISTINCT subj FROM facts WHERE starts_with(subj, ?) ORDER BY subj", [prefix]
            ).fetchall()
            return [str(r[0]) for r in rows]

        return list(self._read(("subjects", prefix), load))

    def keys(self, rel: str) -> list[str]:
        """Normalized measurement names used in values of ``rel`` ("hba1c", "ca 19 9")."""

        def load(conn: duckdb.DuckDBPyConnection) -> list[str]:
            rows = conn.execute(
                "SELECT DISTINCT key FROM facts WHERE rel = ? AND key <> '' ORDER BY key", [rel]
            ).fetchall()
            return [str(r[0]) for r in rows]

        return list(self._read(("keys", rel), load))

    def _read(
        self, memo_key: tuple[str, str], load: Callable[[duckdb.DuckDBPyConnection], Any]
    ) -> Any:
        with self.hold() as conn:
            if memo_key not in self._memo:
                self._memo[memo_key] = load(conn)
            value = self._memo[memo_key]
            if self._depth == 1:  # not held by a caller: nothing to keep valid
                self._memo.clear()
            return value

    def verified(self, triples: Iterable[Triple]) -> set[Triple]:
        """The given triples that are current quality-1 facts."""
        wanted = set(triples)
        subjects = sorted({t[0] for t in wanted})
        if not subjects:
            return set()
        marks = ",".join("?" for _ in subjects)
        with self.hold() as conn:
            rows = conn.execute(
                f"SELECT subj, rel, obj FROM facts WHERE subj IN ({marks}) AND t_end IS NULL "
                "AND quality >= 1.0",
                subjects,
            ).fetchall()
        return {(str(s), str(r), str(o)) for s, r, o in rows} & wanted

    def search(self, terms: Sequence[str], limit: int = 50) -> list[Fact]:
        """Facts whose ids, names or evidence contain every term (case-insensitive)."""
        terms = [t.lower() for t in terms if t.strip()]
        if not terms:
            return []
        hay = (
            "lower(subj || ' ' || obj || ' ' || coalesce(subj_name, '') || ' ' || "
            "coalesce(obj_name, '') || ' ' || coalesce(evidence, ''))"
        )
        where = " AND ".join(f"contains({hay}, ?)" for _ in terms)
        with self.hold() as conn:
            return self._rows(
                conn, where, terms, order="t_end IS NOT NULL, t_start DESC, id", limit=limit
            )

    def _get(self, conn: duckdb.DuckDBPyConnection, fact_id: int) -> Fact:
        rows = self._rows(conn, "id = ?", [fact_id])
        return rows[0]

    def _rows(
        self,
        conn: duckdb.DuckDBPyConnection,
        where: str,
        args: list[Any],
        *,
        order: str = "t_start, id",
        limit: int | None = None,
    ) -> list[Fact]:
        sql = f"SELECT {_COLUMNS} FROM facts WHERE {where} ORDER BY {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [Fact.from_row(r) for r in conn.execute(sql, args).fetchall()]

    # --- alias index -------------------------------------------------------------------------
    def learn_alias(self, alias: str, kind: str, subject: str) -> None:
        """Remember that ``alias`` (a name, surname, note phrase, ...) denotes ``subject``."""
        self.learn_aliases([(alias, kind, subject)])

    def learn_aliases(self, aliases: Sequence[tuple[str, str, str]]) -> None:
        if aliases:
            with self._tx() as conn:
                self._learn(conn, aliases, naive_utc(self._clock.now()))

    def _learn(
        self,
        conn: duckdb.DuckDBPyConnection,
        aliases: Sequence[tuple[str, str, str]],
        now: datetime,
    ) -> None:
        for alias, kind, subject in aliases:
            self._memo[("exists", subject)] = True
            key = alias_key(alias)
            if not key:
                continue
            digest = alias_hash(kind, key)
            hit = conn.execute(
                "UPDATE mem_index SET last_seen = ? WHERE alias_hash = ? AND "
                "subject = ? RETURNING 1",
                [now, digest, subject],
            ).fetchone()
            if hit is None:
                conn.execute(
                    "INSERT INTO mem_index VALUES (?, ?, ?, ?, ?, ?)",
                    [digest, key, kind, subject, now, now],
                )

    def exists(self, subject: str) -> bool:
        """Whether this user's memory has any fact or alias for ``subject``."""

        def load(conn: duckdb.DuckDBPyConnection) -> bool:
            row = conn.execute(
                "SELECT EXISTS (SELECT 1 FROM facts WHERE subj = ?) OR "
                "EXISTS (SELECT 1 FROM mem_index WHERE subject = ?)",
                [subject, subject],
            ).fetchone()
            return bool(row and row[0])

        return bool(self._read(("exists", subject), load))

    def seen(self, subject: str) -> None:
        """Mark every alias of ``subject`` as just used (recency breaks ties on titles)."""
        with self._tx() as conn:
            conn.execute(
                "UPDATE mem_index SET last_seen = ? WHERE subject = ?",
                [naive_utc(self._clock.now()), subject],
            )

    def resolve(self, alias: str, kind: str) -> list[Alias]:
        """Subjects ``alias`` denotes, most recently seen first."""
        key = alias_key(alias)
        with self.hold() as conn:
            rows = conn.execute(
                "SELECT alias, kind, subject, last_seen FROM mem_index WHERE alias_hash = ? "
                "ORDER BY last_seen DESC",
                [alias_hash(kind, key)],
            ).fetchall()
        return [Alias(a, k, s, from_naive_utc(t)) for a, k, s, t in rows]

    def aliases(self, subject: str | None = None) -> list[Alias]:
        where, args = ("subject = ?", [subject]) if subject else ("TRUE", [])
        with self.hold() as conn:
            rows = conn.execute(
                f"SELECT alias, kind, subject, last_seen FROM mem_index WHERE "
                f"{where} ORDER BY last_seen DESC",
                args,
            ).fetchall()
        return [Alias(a, k, s, from_naive_utc(t)) for a, k, s, t in rows]

    def forget_alias(self, alias: str, kind: str) -> None:
        self._memo.clear()
        with self._tx() as conn:
            conn.execute(
                "DELETE FROM mem_index WHERE alias_hash = ?", [alias_hash(kind, alias_key(alias))]
            )


def alias_hash(kind: str, key: str) -> str:
    """Hash of a normalized alias within its kind: the ``mem_index`` lookup key."""
    return content_hash(kind, key)[:24]
