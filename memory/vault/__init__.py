"""The per-user fact vault (``vault.duckdb``): facts with validity intervals and an alias index.

``facts`` (the ``Vault`` and its fact operations), ``fact`` (the ``Fact`` model and the one
column list), ``aliases`` (the alias index), ``cache`` (a small read cache) and ``file`` (the
DuckDB file: migrations, lock, transactions).
"""

from memory.vault.aliases import Alias, alias_hash
from memory.vault.fact import COLUMNS, Fact, Source, StoreOutcome
from memory.vault.facts import Vault
from memory.vault.file import MIGRATIONS, VAULT_FILE, vault_lock

__all__ = [
    "COLUMNS",
    "MIGRATIONS",
    "VAULT_FILE",
    "Alias",
    "Fact",
    "Source",
    "StoreOutcome",
    "Vault",
    "alias_hash",
    "vault_lock",
]
