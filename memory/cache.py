"""Per-user semantic answer cache (SQLite): LRU + TTL, invalidated by vault changes.

Only reviewed, high-scoring answers are admitted (see ``admissible``). Each entry records the
node ids its answer relied on; when the vault changes or forgets a fact about one of them, the
entry is dropped. Similarity is cosine over an injected ``embed`` function (normalized
vectors); without one, only the exact normalized question text hits.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

from engine.ports import Embed
from engine.result import Result, Status
from engine.util.faults import MemoryFault
from engine.util.text import normalize
from memory.clock import Clock, iso
from memory.migrate import Executor, Migrations
from memory.store.rows import RowDB, SqliteRows

CACHE_FILE = "cache.sqlite"
MIGRATIONS = Migrations("cache")
log = logging.getLogger(__name__)
REVIEWED_STOPS = frozenset({"accepted", "reviewed", "review_accepted", "reviewer_accepted"})


@MIGRATIONS.register
def m001_initial(db: Any) -> None:
    db.execute(
        """CREATE TABLE answers (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            mode TEXT NOT NULL, question TEXT NOT NULL, norm TEXT NOT NULL, vec BLOB,
            result TEXT NOT NULL, created_at TEXT NOT NULL, last_hit TEXT NOT NULL,
            hits INTEGER NOT NULL DEFAULT 0)"""
    )
    db.execute("CREATE INDEX answers_norm ON answers (mode, norm)")
    db.execute(
        """CREATE TABLE deps (
            answer_id INTEGER NOT NULL REFERENCES answers(id) ON DELETE CASCADE,
            node TEXT NOT NULL)"""
    )
    db.execute("CREATE INDEX deps_node ON deps (node)")


def is_reviewed(result: Result) -> bool:
    """True when the Reviewer accepted this KG answer (quality 1).

    The agent loop sets ANSWERED on a KG answer only after the Reviewer accepted its paths or
    verified its claim, so an answered, uncached KG result backed by graph triples counts;
    an explicit accepting ``stop_reason`` counts too.
    """
    if result.status != Status.ANSWERED or result.cached or not result.answers:
        return False
    if result.stop_reason and result.stop_reason.lower() in REVIEWED_STOPS:
        return True
    return result.answers[0].source == "kg" and any(
        e.kind == "triple" and e.triple and e.source != "vault" for e in result.evidence
    )


def admissible(result: Result, min_score: float) -> bool:
    """Cache only reviewed KG answers whose top score reaches ``min_score``."""
    return (
        is_reviewed(result)
        and bool(result.answers)
        and not result.cached
        and result.answers[0].source != "memory"
        and result.answers[0].score >= min_score
    )


def dependencies(result: Result) -> set[str]:
    """Node ids an answer relies on: its answers and the ends of its evidence triples."""
    nodes = {a.id for a in result.answers}
    for ev in result.evidence:
        if ev.triple:
            nodes.update((ev.triple[0], ev.triple[2]))
    for path in result.paths:
        for s, _, o in path:
            nodes.update((s, o))
    return nodes


DEPS_PER_INSERT = 500
"""Rows of one ``INSERT INTO deps`` statement: an answer's nodes go in a few statements, not
one round trip each (an answer of 20 paths names about 50 nodes)."""


def _insert_deps(db: Executor, answer_id: object, nodes: list[str]) -> None:
    """``answer_id``'s dependency rows, many per statement (the same SQL on both back ends)."""
    for s in range(0, len(nodes), DEPS_PER_INSERT):
        chunk = nodes[s : s + DEPS_PER_INSERT]
        rows = ", ".join("(?, ?)" for _ in chunk)
        params = [v for node in chunk for v in (answer_id, node)]
        db.execute(f"INSERT INTO deps (answer_id, node) VALUES {rows}", params)


class AnswerCache:
    def __init__(
        self,
        where: Path | RowDB,
        clock: Clock,
        *,
        size: int = 256,
        ttl_minutes: float = 1440,
        similarity: float = 0.95,
        embed: Embed | None = None,
        min_score: float = 0.5,
    ) -> None:
        """``where``: the SQLite file, or any ``RowDB`` (``memory.store``: PostgreSQL)."""
        self.path = where if isinstance(where, Path) else None
        self._clock = clock
        self.size = size
        self.ttl = timedelta(minutes=ttl_minutes)
        self.similarity = similarity
        self.min_score = min_score
        self._embed = embed
        self._rows = SqliteRows(where, clock, MIGRATIONS) if isinstance(where, Path) else where
        self._lock = threading.RLock()  # one connection, used from UI worker threads too

    def get(self, question: str, mode: str) -> Result | None:
        """A live cached answer to this (or a near-identical) question, or None."""
        with self._lock:
            with self._rows.conn() as db:
                now = self._clock.now()
                cutoff = iso(now - self.ttl)
                norm = normalize(question)
                row = db.execute(
                    "SELECT id, result FROM answers WHERE mode = ? AND norm = ? AND "
                    "created_at >= ? ORDER BY id DESC LIMIT 1",
                    (mode, norm, cutoff),
                ).fetchone()
                if row is None and self._embed is not None:
                    row = self._nearest(db, question, mode, cutoff)
            if row is None:
                return None
            self._count_hit(int(row[0]), iso(now))
            result = Result.model_validate_json(row[1])
            return result.model_copy(update={"cached": True, "question": question})

    def _count_hit(self, answer_id: int, now: str) -> None:
        """Count a hit (the LRU order): bookkeeping, so a store that cannot be written now
        (its disk full or read-only) serves the answer all the same, and the log says so."""
        if self._rows.reading:
            return
        try:
            with self._rows.conn() as db:
                db.execute(
                    "UPDATE answers SET last_hit = ?, hits = hits + 1 WHERE id = ?",
                    (now, answer_id),
                )
        except MemoryFault as exc:
            log.warning("a cached answer's hit was not counted: %s", exc)

    def _nearest(
        self, db: Executor, question: str, mode: str, cutoff: str
    ) -> tuple[int, str] | None:
        rows = db.execute(
            "SELECT id, vec, result FROM answers WHERE mode = ? AND created_at >= ? AND "
            "vec IS NOT NULL",
            (mode, cutoff),
        ).fetchall()
        if not rows:
            return None
        query = self._vector(question)
        matrix = np.stack([np.frombuffer(bytes(r[1]), dtype=np.float32) for r in rows])
        sims = matrix @ query
        best = int(np.argmax(sims))
        if float(sims[best]) < self.similarity:
            return None
        return int(rows[best][0]), str(rows[best][2])

    def _vector(self, text: str) -> np.ndarray:
        assert self._embed is not None
        vec = np.asarray(self._embed([text]), dtype=np.float32).reshape(-1)
        norm = float(np.linalg.norm(vec))
        return vec / norm if norm else vec

    def put(self, question: str, mode: str, result: Result) -> bool:
        """Admit an answer if it qualifies; evicts least-recently-hit entries past ``size``."""
        with self._lock:
            if not admissible(result, self.min_score):
                return False
            now = iso(self._clock.now())
            vec = self._vector(question).tobytes() if self._embed is not None else None
            stored = result.model_copy(update={"cached": False})
            with self._rows.tx() as db:
                row = db.execute(
                    "INSERT INTO answers (mode, question, norm, vec, result, created_at, last_hit) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (mode, question, normalize(question), vec, stored.model_dump_json(), now, now),
                ).fetchone()
                _insert_deps(db, row[0], sorted(dependencies(result)))
                db.execute(
                    "DELETE FROM answers WHERE id NOT IN (SELECT id FROM answers "
                    "ORDER BY last_hit DESC, id DESC LIMIT ?)",
                    (self.size,),
                )
            return True

    def invalidate(self, nodes: Iterable[str]) -> int:
        """Drop entries that relied on any of ``nodes``."""
        with self._lock:
            nodes = sorted(set(nodes))
            if not nodes:
                return 0
            marks = ",".join("?" for _ in nodes)
            with self._rows.conn() as db:
                cur = db.execute(
                    "DELETE FROM answers WHERE id IN "
                    f"(SELECT answer_id FROM deps WHERE node IN ({marks}))",
                    nodes,
                )
            return int(cur.rowcount or 0)

    def forget_text(self, needles: Iterable[str]) -> int:
        """Drop entries whose question or answer mentions any of ``needles``."""
        with self._lock, self._rows.tx() as db:
            total = 0
            for needle in needles:
                if needle:
                    cur = db.execute(
                        "DELETE FROM answers WHERE instr(lower(question), ?) > 0 OR "
                        "instr(lower(result), ?) > 0",
                        (needle.lower(), needle.lower()),
                    )
                    total += int(cur.rowcount or 0)
            return total

    def __len__(self) -> int:
        with self._lock, self._rows.conn() as db:
            row = db.execute("SELECT count(*) FROM answers").fetchone()
            return int(row[0]) if row else 0

    def clear(self) -> None:
        with self._lock, self._rows.conn() as db:
            db.execute("DELETE FROM answers")

    def close(self) -> None:
        with self._lock:
            self._rows.close()
