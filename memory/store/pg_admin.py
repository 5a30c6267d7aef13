"""Administering the PostgreSQL back end: users and their bearer tokens, deleting a user."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

import psycopg

from engine.util.text import user_id_problem
from memory.clock import SystemClock, iso
from memory.store.pg import PgBackend, pg_key
from memory.store.pg_schema import USER_TABLES

TOKEN_PREFIX = "hx_"


def token_hash(token: str) -> str:
    """What is stored of a token (its SHA-256); the token itself is shown once."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def add_user(conn: Any, name: str) -> str:
    """Register ``name`` (if new) and return a new bearer token for it (store only its hash)."""
    problem = user_id_problem(name, "give another name, such as `users add alice`")
    if problem:
        raise ValueError(problem)
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    now = iso(SystemClock().now())
    try:
        with conn.transaction():
            conn.execute(
                "INSERT INTO helix.users (name, user_id, created_at) VALUES (%s, %s, %s) "
                "ON CONFLICT (name) DO NOTHING",
                [name, pg_key(name), now],
            )
            conn.execute(
                "INSERT INTO helix.tokens (token_hash, name, created_at) VALUES (%s, %s, %s)",
                [token_hash(token), name, now],
            )
    except psycopg.errors.UniqueViolation as exc:
        raise ValueError(
            f"cannot register {name!r}: another registered user has the same id "
            f"{pg_key(name)!r}; choose another name"
        ) from exc
    except psycopg.Error as exc:
        raise ValueError(f"cannot register {name!r}: {_first_line(exc)}") from exc
    return token


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def user_of_token(backend: PgBackend, token: str) -> str | None:
    """The user a bearer token belongs to, or None for an unknown token
    (``DatabaseUnreachable`` when the database cannot say)."""
    if not token.startswith(TOKEN_PREFIX):
        return None
    with backend.connection() as conn:
        row = conn.execute(
            "SELECT name FROM helix.tokens WHERE token_hash = %s", [token_hash(token)]
        ).fetchone()
    return str(row[0]) if row else None


def list_users(conn: Any) -> list[tuple[str, int]]:
    rows = conn.execute(
        "SELECT u.name, count(t.token_hash) FROM helix.users u "
        "LEFT JOIN helix.tokens t ON t.name = u.name GROUP BY u.name ORDER BY u.name"
    ).fetchall()
    return [(str(n), int(c)) for n, c in rows]


def remove_user(backend: PgBackend, name: str) -> int | None:
    """Revoke ``name``'s tokens and delete every row of theirs, in one transaction; the rows
    deleted, or None when no user of that name is registered."""
    with backend.connection() as conn:
        known = conn.execute("SELECT 1 FROM helix.users WHERE name = %s", [name]).fetchone()
    return delete_user_rows(backend, name) if known else None


def delete_user_rows(backend: PgBackend, user: str) -> int:
    """Delete every row of ``user`` in every per-user table, and their account, in one
    transaction; returns the rows deleted."""
    total = 0
    key = pg_key(user)
    with backend.unit(user, "helix") as db:
        for table in USER_TABLES:  # row-level security limits each to the user's rows too
            total += int(db.execute(f"DELETE FROM {table} WHERE user_id = ?", [key]).rowcount)
        # the account: its tokens go with it (ON DELETE CASCADE)
        total += int(db.execute("DELETE FROM helix.users WHERE user_id = ?", [key]).rowcount)
    return total
