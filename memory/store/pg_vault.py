"""The vault over PostgreSQL: ``memory.vault.Vault``'s SQL, run on one user's rows of
``helix_vault`` (``memory.vault.file.VaultDB``)."""

from __future__ import annotations

from contextlib import AbstractContextManager

from memory.migrate import Executor
from memory.store.pg import PgBackend, pg_key

SCHEMA = "helix_vault"


class PgVaultDB:
    batches = False

    def __init__(self, backend: PgBackend, user: str) -> None:
        self.backend = backend
        self.user = user

    def hold(self) -> AbstractContextManager[Executor]:
        """One transaction for the block (joined when one is open for this user)."""
        return self.backend.unit(self.user, SCHEMA, savepoint=False)

    def tx(self) -> AbstractContextManager[Executor]:
        return self.backend.unit(self.user, SCHEMA)

    def serialize(self, conn: Executor, *key: str) -> None:
        """Writers of one (user, subject, relation) take turns until their transaction ends,
        so each reads the current value the previous one left (the exclusion constraint
        would refuse the second of two writers that did not)."""
        conn.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))",
            ["\x1f".join((pg_key(self.user), *key))],
        )
