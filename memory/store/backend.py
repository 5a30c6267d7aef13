"""The storage boundary of one user's memory: which vault, turn log and answer cache to open,
and how a user is deleted, for the configured back end.

Embedded (the default): files under ``settings.user_dir(user)`` (``vault.duckdb``,
``episodic.sqlite``, ``cache.sqlite``; ``sessions.sqlite`` is opened by ``sessions.store``).
PostgreSQL (``HELIX_DATABASE_URL``): the same stores over one shared database, each user's
rows kept apart by row-level security (``memory.store.pg``). Callers never branch on the
back end; they use what this module opens.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from engine.config import Settings
from engine.ports import Embed
from memory.cache import CACHE_FILE, AnswerCache
from memory.clock import Clock
from memory.episodic import EPISODIC_FILE, EpisodicStore, EpisodicTurn
from memory.relations import RelationCatalog
from memory.vault import VAULT_FILE, Vault, vault_lock


class TurnLog(Protocol):
    """The episodic turn log as ``UserMemory`` uses it (``EpisodicStore`` and its PostgreSQL
    twin ``memory.store.pg_turns.PgEpisodicStore``)."""

    def add(
        self,
        session: str,
        query: str,
        *,
        chain: list[Any] | None = None,
        evidence: list[Any] | None = None,
        quality: float | None = None,
        subject: str | None = None,
    ) -> int: ...

    def recent(self, session: str, limit: int | None = None) -> list[EpisodicTurn]: ...

    def last_subject(self, session: str) -> str | None: ...

    def by_subject(self, subject: str) -> list[EpisodicTurn]: ...

    def all(self) -> list[EpisodicTurn]: ...

    def forget(self, subject: str | None = None, mentions: Iterable[str] = ()) -> int: ...

    def delete_session(self, session: str) -> int: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Stores:
    vault: Vault
    episodic: TurnLog
    cache: AnswerCache


def open_stores(
    settings: Settings,
    user: str,
    clock: Clock,
    *,
    catalog: RelationCatalog,
    embed: Embed | None = None,
) -> Stores:
    """``user``'s vault, turn log and answer cache on the configured back end."""
    cache_args: dict[str, Any] = {
        "size": settings.cache_size,
        "ttl_minutes": settings.cache_ttl_minutes,
        "similarity": settings.cache_similarity,
        "embed": embed,
    }
    if settings.database_url:
        from memory.store.pg import PgRows, pg_backend
        from memory.store.pg_turns import PgEpisodicStore
        from memory.store.pg_vault import PgVaultDB

        backend = pg_backend(settings)
        return Stores(
            Vault(
                PgVaultDB(backend, user),
                clock,
                catalog=catalog,
                max_facts=settings.vault_max_facts,
            ),
            PgEpisodicStore(
                backend,
                user,
                clock,
                window=settings.episodic_window,
                ttl_minutes=settings.episodic_ttl_minutes,
            ),
            AnswerCache(PgRows(backend, user, "helix_cache"), clock, **cache_args),
        )
    where = settings.user_dir(user)
    where.mkdir(parents=True, exist_ok=True)
    return Stores(
        Vault(where / VAULT_FILE, clock, catalog=catalog, max_facts=settings.vault_max_facts),
        EpisodicStore(
            where / EPISODIC_FILE,
            clock,
            window=settings.episodic_window,
            ttl_minutes=settings.episodic_ttl_minutes,
        ),
        AnswerCache(where / CACHE_FILE, clock, **cache_args),
    )


def delete_user(settings: Settings, user: str) -> None:
    """Delete every store of ``user`` (vault, aliases, episodic, cache, sessions): the user's
    directory, or, in PostgreSQL, every row of theirs in one transaction."""
    if settings.database_url:
        from memory.store.pg import pg_backend
        from memory.store.pg_admin import delete_user_rows

        delete_user_rows(pg_backend(settings), user)
        return
    target = settings.user_dir(user)
    with vault_lock(target / VAULT_FILE).acquire(timeout=30.0):
        if target.exists():
            shutil.rmtree(target)
