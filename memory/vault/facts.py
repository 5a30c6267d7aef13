"""The per-user fact vault: one DuckDB file of (subj, rel, obj) triples with validity intervals.

History is never rewritten by an update: when a functional relation gets a new value, the old
row gets ``t_end`` (and ``replaced_by``) and the new row starts at the same instant, so "what
was she on before?" stays answerable. Rows have a surrogate id; "one valid row per triple" is
enforced here, inside the file lock, because DuckDB has no partial unique indexes. A triple
re-stated after being superseded opens a new row (a new interval).

This module writes facts; reads are ``memory.vault.queries``, aliases ``memory.vault.aliases``,
the file, its lock and transactions ``memory.vault.file``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from engine.result import Triple
from engine.util.faults import MemoryFault
from engine.util.text import alias_key
from memory.clock import Clock, from_naive_utc, naive_utc
from memory.literals import measurement_key
from memory.migrate import Executor
from memory.notes import labelled_key
from memory.relations import RelationCatalog
from memory.vault.fact import INSERT, Fact, Source, StoreOutcome, row_of
from memory.vault.file import VaultDB
from memory.vault.queries import FactQueries

_PRUNE_EVERY = 128
_USES_KEPT = 64
"""Uses of facts kept before they are written without waiting for another write."""
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Slim:
    id: int
    obj: str
    key: str
    detail: str | None = None


@dataclass(frozen=True)
class _Place:
    """Where a new row goes: its interval, the row that follows it, the rows it ends."""

    start: datetime
    end: datetime | None
    replaced_by: int | None
    ending: list[_Slim]


def _naive(value: datetime) -> datetime:
    """A stored timestamp as naive UTC (PostgreSQL returns it aware, DuckDB naive)."""
    return naive_utc(value) if value.tzinfo is not None else value


class Vault(FactQueries):
    """One user's facts and alias index (``mem_index``)."""

    def __init__(
        self,
        path: Path | VaultDB,
        clock: Clock,
        *,
        catalog: RelationCatalog,
        max_facts: int = 50_000,
        lock_timeout: float = 30.0,
    ) -> None:
        super().__init__(path, clock, lock_timeout=lock_timeout)
        self._catalog = catalog
        self._max_facts = max_facts
        self._adds = 0

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
        detail: str | None = None,
        valid_from: datetime | None = None,
    ) -> StoreOutcome:
        """Store a fact (or refresh the identical valid one) and end what it supersedes.

        Reviewed facts are admitted only with quality 1 (the Reviewer accepted them).
        ``supersede_current`` ends every current value of (subj, rel): a switch whose old
        value was not named. ``aliases`` ((alias, kind, subject) triples) are learned in the
        same transaction. ``detail`` is how the value holds as stated (a dose); the same value
        re-stated with another detail ("apixaban 2.5 mg" after "apixaban 5 mg") ends the old
        row and opens a new one, so the previous dose stays answerable. ``valid_from`` is when
        the statement says the value held ("on Tuesday"), when earlier than now: the value
        takes its place in the history (``_placed``).
        """
        if source == "reviewed" and quality < 1.0:
            return StoreOutcome(None, False)
        key = self.key_of(rel, obj)
        with self._tx() as conn:
            self._db.serialize(conn, subj, rel)
            now = naive_utc(self._clock.now())
            self._learn(conn, aliases, now)
            valid = [
                _Slim(int(i), o, k, d)
                for i, o, k, d in conn.execute(
                    "SELECT id, obj, key, detail FROM facts "
                    "WHERE subj = ? AND rel = ? AND t_end IS NULL",
                    [subj, rel],
                ).fetchall()
            ]
            same = [f for f in valid if f.obj == obj]
            redosed = [f for f in same if detail is not None and f.detail not in (None, detail)]
            if same and not redosed:
                conn.execute(
                    "UPDATE facts SET last_used = ?, usage_count = usage_count + 1, "
                    "subj_name = coalesce(subj_name, ?), obj_name = coalesce(obj_name, ?), "
                    "quality = greatest(quality, ?), detail = coalesce(?, detail) WHERE id = ?",
                    [now, subj_name, obj_name, quality, detail, same[0].id],
                )
                self._reads.stored(subj, rel, key)  # the row read before has changed
                return StoreOutcome(self._get(conn, same[0].id), False)
            ending = self._to_supersede(valid, subj, rel, key, supersedes, supersede_current)
            ending += [f for f in redosed if f not in ending]
            place = self._placed(conn, subj, rel, key, now, valid_from, ending)
            ending = place.ending
            if supersedes is not None and not any(f.obj == supersedes[2] for f in ending):
                ending += self._implied_past(
                    conn, supersedes, place.start, source, quality, evidence, session
                )
            fact = _new_fact(subj, rel, obj, key, now, quality, evidence, source, session)
            fact = replace(
                fact,
                subj_name=subj_name,
                obj_name=obj_name,
                detail=detail,
                t_start=from_naive_utc(place.start),
                t_end=from_naive_utc(place.end) if place.end is not None else None,
                replaced_by=place.replaced_by,
            )
            new_id = _insert(conn, fact)
            ended: list[Fact] = []
            if ending:
                marks = ",".join("?" for _ in ending)
                ids = [f.id for f in ending]
                conn.execute(
                    f"UPDATE facts SET t_end = ?, replaced_by = ? WHERE id IN ({marks})",
                    [place.start, new_id, *ids],
                )
                ended = self._rows(conn, f"id IN ({marks})", ids)
        self._reads.stored(subj, rel, key)
        self._adds += 1
        if self._adds % _PRUNE_EVERY == 0:
            self.prune()
        return StoreOutcome(replace(fact, id=new_id), True, tuple(ended))

    def _placed(
        self,
        conn: Executor,
        subj: str,
        rel: str,
        key: str,
        now: datetime,
        valid_from: datetime | None,
        ending: list[_Slim],
    ) -> _Place:
        """Where a new value goes in the history of (subj, rel), all times naive UTC.

        Without a stated earlier time it starts now and ends ``ending``. A value of a keyed
        relation stated for a time before a later value of its key ("potassium 5.9 on Tuesday"
        said after Wednesday's 4.8) is history: it holds until that later value, which stays
        current, and ends the value that held at its time. Otherwise a stated time moves the
        start back, never before the start of a value it ends."""
        start = now if valid_from is None else min(now, naive_utc(valid_from))
        if start == now:
            return _Place(now, None, None, ending)
        if self._catalog.functional(rel) == "key":
            later = conn.execute(
                "SELECT id, t_start FROM facts WHERE subj = ? AND rel = ? AND key = ? "
                "AND t_start > ? ORDER BY t_start, id LIMIT 1",
                [subj, rel, key, start],
            ).fetchone()
            if later is not None:
                held = [
                    _Slim(int(i), o, k, d)
                    for i, o, k, d in conn.execute(
                        "SELECT id, obj, key, detail FROM facts WHERE subj = ? AND rel = ? "
                        "AND key = ? AND t_start <= ? AND t_end > ?",
                        [subj, rel, key, start, start],
                    ).fetchall()
                ]
                return _Place(start, _naive(later[1]), int(later[0]), held)
        if ending:
            marks = ",".join("?" for _ in ending)
            row = conn.execute(
                f"SELECT max(t_start) FROM facts WHERE id IN ({marks})", [f.id for f in ending]
            ).fetchone()
            if row is not None and row[0] is not None:
                start = max(start, _naive(row[0]))
        return _Place(start, None, None, ending)

    def end(
        self,
        subj: str,
        rel: str,
        obj: str,
        *,
        evidence: str | None = None,
        session: str | None = None,
        obj_name: str | None = None,
    ) -> Fact | None:
        """End the current value ``obj`` of (subj, rel) now: a statement stopped it ("held
        her spironolactone") and named nothing in its place. A value never stored is kept as
        past (``_implied_past``), so "which drug did we hold?" can answer it. Returns the ended
        row (None when ``obj`` had already ended)."""
        with self._tx() as conn:
            self._db.serialize(conn, subj, rel)
            now = naive_utc(self._clock.now())
            ids = [
                int(row[0])
                for row in conn.execute(
                    "SELECT id FROM facts WHERE subj = ? AND rel = ? AND obj = ? AND t_end IS NULL",
                    [subj, rel, obj],
                ).fetchall()
            ]
            if not ids:
                implied = self._implied_past(
                    conn, (subj, rel, obj), now, "stated", 1.0, evidence, session
                )
                ids = [f.id for f in implied]
                if ids and obj_name:
                    conn.execute("UPDATE facts SET obj_name = ? WHERE id = ?", [obj_name, ids[0]])
            if not ids:
                return None
            marks = ",".join("?" for _ in ids)
            conn.execute(f"UPDATE facts SET t_end = ? WHERE id IN ({marks})", [now, *ids])
            rows = self._rows(conn, f"id IN ({marks})", ids)
        self._reads.stored(subj, rel, self.key_of(rel, obj))
        return rows[-1] if rows else None

    def _implied_past(
        self,
        conn: Executor,
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
        past = _new_fact(subj, rel, obj, key, now, quality, evidence, source, session)
        return [_Slim(_insert(conn, past), obj, key)]

    def key_of(self, rel: str, obj: str) -> str:
        """The functional key of a value ("hba1c" for "HbA1c 7.5%"); '' when not keyed."""
        if self._catalog.functional(rel) != "key":
            return ""
        return self._catalog.canonical_key(
            measurement_key(obj) or labelled_key(obj) or alias_key(obj)
        )

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
        """Record a use (LRU order, usage count) of these facts. An answer does not wait for
        a write of its own: the uses are written with the next write of the vault, every
        ``_USES_KEPT`` uses, or at ``flush`` (``UserMemory.close``). A store that cannot be
        written now (its disk full or read-only) does not stop the answer that used them:
        the uses go unrecorded, and the log says so."""
        for fact_id in ids:
            self._uses[fact_id] = self._uses.get(fact_id, 0) + 1
            self._used_at = naive_utc(self._clock.now())
        if len(self._uses) < _USES_KEPT:
            return
        try:
            self.flush()
        except MemoryFault as exc:
            log.warning("the use of %d remembered facts was not recorded: %s", len(self._uses), exc)
            self._uses, self._used_at = {}, None

    def forget_facts(self, triples: Iterable[Triple]) -> list[Fact]:
        """Delete every row (all intervals) of these triples; returns what was deleted."""
        self._reads.clear()
        gone: list[Fact] = []
        with self._tx() as conn:
            for subj, rel, obj in triples:
                rows = self._rows(conn, "subj = ? AND rel = ? AND obj = ?", [subj, rel, obj])
                gone.extend(rows)
            self._delete(conn, [f.id for f in gone])
        return gone

    def forget_source(self, source: str) -> list[Fact]:
        """Delete every fact of one kind (``stated`` by the user, ``reviewed``: looked up)."""
        self._reads.clear()
        with self._tx() as conn:
            gone = self._rows(conn, "source = ?", [source])
            self._delete(conn, [f.id for f in gone])
        return gone

    def forget_subject(self, subject: str) -> list[Fact]:
        """Delete every fact about (or pointing at) ``subject`` and every alias of it."""
        self._reads.clear()
        with self._tx() as conn:
            gone = self._rows(conn, "subj = ? OR obj = ?", [subject, subject])
            self._delete(conn, [f.id for f in gone])
            conn.execute("DELETE FROM mem_index WHERE subject = ?", [subject])
        return gone

    def _delete(self, conn: Executor, ids: list[int]) -> None:
        if not ids:
            return
        marks = ",".join("?" for _ in ids)
        conn.execute(f"DELETE FROM facts WHERE id IN ({marks})", ids)
        conn.execute(f"UPDATE facts SET replaced_by = NULL WHERE replaced_by IN ({marks})", ids)

    def prune(self) -> int:
        """LRU-drop superseded rows past ``max_facts``; current facts are never dropped."""
        self._reads.clear()
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


def _new_fact(
    subj: str,
    rel: str,
    obj: str,
    key: str,
    now: datetime,
    quality: float,
    evidence: str | None,
    source: str,
    session: str | None,
) -> Fact:
    """A current fact first seen ``now`` (naive UTC), before the database gives it an id."""
    t_now = from_naive_utc(now)
    return Fact(
        id=0,
        subj=subj,
        rel=rel,
        obj=obj,
        key=key,
        subj_name=None,
        obj_name=None,
        first_seen=t_now,
        last_used=t_now,
        usage_count=1,
        quality=quality,
        t_start=t_now,
        t_end=None,
        replaced_by=None,
        evidence=evidence,
        source=source,
        session=session,
    )


def _insert(conn: Executor, fact: Fact) -> int:
    """Insert ``fact`` as a new row; returns the id the sequence gave it."""
    row = conn.execute(INSERT, row_of(fact)).fetchone()
    assert row is not None
    return int(row[0])
