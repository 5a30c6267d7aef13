"""Reading facts from the vault: history, current values, search, verification, and the
cached small reads (subjects, measurement keys, whether a subject is known)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.result import Triple
from engine.util.text import alias_key
from memory.migrate import Executor
from memory.vault.aliases import AliasIndex
from memory.vault.fact import SELECT_LIST, Fact


class FactQueries(AliasIndex):
    """The read side of ``memory.vault.Vault``."""

    def history(self, subj: str, rel: str | None = None, key: str | None = None) -> list[Fact]:
        """Every row about ``subj`` (optionally one relation / key), oldest first."""
        where, args = "subj = ?", [subj]
        if rel is not None:
            where, args = where + " AND rel = ?", [*args, rel]
        if key is not None:
            where, args = where + " AND key = ?", [*args, key]

        def load(conn: Executor) -> list[Fact]:
            return self._rows(conn, where, args, order="t_start, id")

        # read again and again while one question is answered: through the read cache
        return list(self._read(("history", f"{subj}|{rel}|{key}"), load))

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

    def of_source(self, source: str, limit: int = 50) -> list[Fact]:
        """Facts of one kind (``stated``, ``reviewed``), current first, newest first."""
        with self.hold() as conn:
            return self._rows(
                conn,
                "source = ?",
                [source],
                order="t_end IS NOT NULL, t_start DESC, id",
                limit=limit,
            )

    def subjects(self, prefix: str = "") -> list[str]:
        def load(conn: Executor) -> list[str]:
            rows = conn.execute(
                "SELECT DISTINCT subj FROM facts WHERE starts_with(subj, ?) ORDER BY subj", [prefix]
            ).fetchall()
            return [str(r[0]) for r in rows]

        return list(self._read(("subjects", prefix), load))

    def keys(self, rel: str) -> list[str]:
        """Normalized measurement names used in values of ``rel`` ("hba1c", "ca 19 9")."""

        def load(conn: Executor) -> list[str]:
            rows = conn.execute(
                "SELECT DISTINCT key FROM facts WHERE rel = ? AND key <> '' ORDER BY key", [rel]
            ).fetchall()
            return [str(r[0]) for r in rows]

        return list(self._read(("keys", rel), load))

    def verified(self, triples: Iterable[Triple], not_for: str | None = None) -> set[Triple]:
        """The given triples that are current quality-1 facts, leaving out those the engine
        looked up (``reviewed``) for the question ``not_for`` (compared by ``alias_key``)."""
        wanted = set(triples)
        subjects = sorted({t[0] for t in wanted})
        if not subjects:
            return set()
        marks = ",".join("?" for _ in subjects)
        with self.hold() as conn:
            rows = conn.execute(
                f"SELECT subj, rel, obj, source, evidence FROM facts WHERE subj IN ({marks}) "
                "AND t_end IS NULL AND quality >= 1.0",
                subjects,
            ).fetchall()
        own = alias_key(not_for) if not_for else None
        return {
            (str(s), str(r), str(o))
            for s, r, o, source, evidence in rows
            if not (source == "reviewed" and own is not None and alias_key(evidence or "") == own)
        } & wanted

    def search(self, terms: Sequence[str], limit: int = 50) -> list[Fact]:
        """Facts whose ids, names or evidence contain every term (case-insensitive)."""
        terms = [t.lower() for t in terms if t.strip()]
        if not terms:
            return []
        hay = (
            "lower(subj || ' ' || obj || ' ' || coalesce(subj_name, '') || ' ' || "
            "coalesce(obj_name, '') || ' ' || coalesce(evidence, ''))"
        )
        where = " AND ".join(f"strpos({hay}, ?) > 0" for _ in terms)
        with self.hold() as conn:
            return self._rows(
                conn, where, terms, order="t_end IS NOT NULL, t_start DESC, id", limit=limit
            )

    def _get(self, conn: Executor, fact_id: int) -> Fact:
        rows = self._rows(conn, "id = ?", [fact_id])
        return rows[0]

    def _rows(
        self,
        conn: Executor,
        where: str,
        args: list[Any],
        *,
        order: str = "t_start, id",
        limit: int | None = None,
    ) -> list[Fact]:
        sql = f"SELECT {SELECT_LIST} FROM facts WHERE {where} ORDER BY {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [Fact.from_row(r) for r in conn.execute(sql, args).fetchall()]

    def exists(self, subject: str) -> bool:
        """Whether this user's memory has any fact or alias for ``subject``."""

        def load(conn: Executor) -> bool:
            row = conn.execute(
                "SELECT EXISTS (SELECT 1 FROM facts WHERE subj = ?) OR "
                "EXISTS (SELECT 1 FROM mem_index WHERE subject = ?)",
                [subject, subject],
            ).fetchone()
            return bool(row and row[0])

        return bool(self._read(("exists", subject), load))
