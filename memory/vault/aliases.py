"""The alias index (``mem_index``): which names, surnames and note phrases denote which subject.

Aliases are stored by a hash of their normalized form within their kind, so "victor  COSTA" and
"Victor Costa" find the same row; several subjects may share an alias (two patients named
Costa), most recently seen first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from engine.util.text import alias_key, content_hash
from memory.clock import from_naive_utc, naive_utc
from memory.migrate import Executor
from memory.vault.file import VaultFile


@dataclass(frozen=True)
class Alias:
    alias: str
    kind: str
    subject: str
    last_seen: datetime


def alias_hash(kind: str, key: str) -> str:
    """Hash of a normalized alias within its kind: the ``mem_index`` lookup key."""
    return content_hash(kind, key)[:24]


class AliasIndex(VaultFile):
    """The alias half of the vault file."""

    def learn_alias(self, alias: str, kind: str, subject: str) -> None:
        """Remember that ``alias`` (a name, surname, note phrase, ...) denotes ``subject``."""
        self.learn_aliases([(alias, kind, subject)])

    def learn_aliases(self, aliases: Sequence[tuple[str, str, str]]) -> None:
        if aliases:
            with self._tx() as conn:
                self._learn(conn, aliases, naive_utc(self._clock.now()))

    def _learn(
        self,
        conn: Executor,
        aliases: Sequence[tuple[str, str, str]],
        now: datetime,
    ) -> None:
        for alias, kind, subject in aliases:
            self._reads.known(subject)
            self._reads.drop(("aliases", kind))
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
                    "INSERT INTO mem_index (alias_hash, alias, kind, subject, first_seen, "
                    "last_seen) VALUES (?, ?, ?, ?, ?, ?)",
                    [digest, key, kind, subject, now, now],
                )

    def seen(self, subject: str) -> None:
        """Mark every alias of ``subject`` as just used (recency breaks ties on titles)."""
        with self._tx() as conn:
            conn.execute(
                "UPDATE mem_index SET last_seen = ? WHERE subject = ?",
                [naive_utc(self._clock.now()), subject],
            )

    def alias_keys(self, kind: str) -> frozenset[str]:
        """The normalized aliases of ``kind`` ("surname", ...) this user has, through the
        read cache: a word that is none of them needs no lookup."""

        def load(conn: Executor) -> frozenset[str]:
            rows = conn.execute("SELECT DISTINCT alias FROM mem_index WHERE kind = ?", [kind])
            return frozenset(str(r[0]) for r in rows.fetchall())

        return frozenset(self._read(("aliases", kind), load))

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
        self._reads.clear()
        with self._tx() as conn:
            conn.execute(
                "DELETE FROM mem_index WHERE alias_hash = ?", [alias_hash(kind, alias_key(alias))]
            )
