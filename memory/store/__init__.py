"""Where per-user state is kept: files under the data home (default) or PostgreSQL.

``backend`` (open a user's vault, turn log and answer cache; delete a user), ``rows`` (the
connection SQL stores write through), ``pg`` (pool, per-user transactions under row-level
security), ``pg_schema`` (migrations), ``pg_vault`` / ``pg_turns`` (the PostgreSQL twins),
``pg_admin`` (users and tokens, status, deleting a user), ``copy`` (files <-> PostgreSQL).
Nothing is imported here, so ``memory.cache`` and ``sessions.store`` can use ``rows``.
"""
