"""The PostgreSQL schema: named, recorded migrations (``helix._migrations``), row-level
security on every per-user table, and the database invariants of the vault.

Per-user tables carry ``user_id`` (default: the transaction's ``helix.user``) and a policy
admitting only rows of ``current_setting('helix.user')``, forced on the owner too; a
superuser or BYPASSRLS role is refused at connect (``memory.store.pg.check_role``).
Supersession is an invariant: an exclusion constraint (btree_gist) over
``(user_id, subj, rel, key, tstzrange(t_start, t_end))`` for functional relations, and over
``(user_id, subj, rel, obj, ...)`` for every relation, so no two writers can leave two current
values. ``functional`` is set by a trigger from ``helix.functional_relations``, which
``sync_catalog`` fills from the relation catalog on every ``db migrate``.
"""

from __future__ import annotations

from typing import Any

from engine.util.text import safe_user_id
from memory.migrate import Migrations

MIGRATIONS = Migrations("postgres")
SCHEMAS = ("helix", "helix_vault", "helix_episodic", "helix_cache", "helix_sessions")
USER_TABLES: tuple[str, ...] = (
    "helix_vault.facts",
    "helix_vault.mem_index",
    "helix_episodic.turns",
    "helix_cache.answers",
    "helix_cache.deps",
    "helix_sessions.sessions",
    "helix_sessions.turns",
)
"""Every table holding a user's rows (each has ``user_id`` and the row-level policy)."""
ACCOUNT_TABLES = ("helix.users", "helix.tokens")
"""Who may connect to the team server (names and token hashes, no memory)."""

_USER = "user_id TEXT NOT NULL DEFAULT current_setting('helix.user')"


@MIGRATIONS.register
def m001_initial(db: Any) -> None:
    db.execute("CREATE EXTENSION IF NOT EXISTS btree_gist")
    for schema in SCHEMAS[1:]:
        db.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
    db.execute(
        "CREATE FUNCTION helix.instr(haystack TEXT, needle TEXT) RETURNS INTEGER "
        "LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT strpos(haystack, needle)'"
    )
    db.execute("CREATE TABLE helix.functional_relations (rel TEXT PRIMARY KEY)")
    db.execute(
        """CREATE TABLE helix.users (
            name TEXT PRIMARY KEY, user_id TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL)"""
    )
    db.execute(
        """CREATE TABLE helix.tokens (
            token_hash TEXT PRIMARY KEY,
            name TEXT NOT NULL REFERENCES helix.users(name) ON DELETE CASCADE,
            created_at TEXT NOT NULL)"""
    )
    _vault(db)
    db.execute(
        f"""CREATE TABLE helix_episodic.turns ({_USER},
            id BIGSERIAL PRIMARY KEY, session TEXT NOT NULL, subject TEXT, query TEXT NOT NULL,
            chain TEXT NOT NULL DEFAULT '[]', evidence TEXT NOT NULL DEFAULT '[]',
            quality DOUBLE PRECISION, created_at TEXT NOT NULL)"""
    )
    db.execute("CREATE INDEX ON helix_episodic.turns (user_id, session, id)")
    db.execute("CREATE INDEX ON helix_episodic.turns (user_id, subject)")
    db.execute(
        f"""CREATE TABLE helix_cache.answers ({_USER},
            id BIGSERIAL PRIMARY KEY, mode TEXT NOT NULL, question TEXT NOT NULL,
            norm TEXT NOT NULL, vec BYTEA, result TEXT NOT NULL, created_at TEXT NOT NULL,
            last_hit TEXT NOT NULL, hits INTEGER NOT NULL DEFAULT 0)"""
    )
    db.execute("CREATE INDEX ON helix_cache.answers (user_id, mode, norm)")
    db.execute(
        f"""CREATE TABLE helix_cache.deps ({_USER},
            answer_id BIGINT NOT NULL REFERENCES helix_cache.answers(id) ON DELETE CASCADE,
            node TEXT NOT NULL)"""
    )
    db.execute("CREATE INDEX ON helix_cache.deps (user_id, node)")
    db.execute("CREATE INDEX ON helix_cache.deps (answer_id)")
    db.execute(
        f"""CREATE TABLE helix_sessions.sessions ({_USER},
            id TEXT NOT NULL, rowid BIGSERIAL, title TEXT NOT NULL, created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL, auto_title INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (user_id, id))"""
    )
    db.execute(
        f"""CREATE TABLE helix_sessions.turns ({_USER},
            id BIGSERIAL PRIMARY KEY, session_id TEXT NOT NULL, question TEXT NOT NULL,
            result TEXT NOT NULL, created_at TEXT NOT NULL,
            FOREIGN KEY (user_id, session_id) REFERENCES helix_sessions.sessions (user_id, id)
                ON DELETE CASCADE)"""
    )
    db.execute("CREATE INDEX ON helix_sessions.turns (user_id, session_id, id)")
    for table in USER_TABLES:
        _isolate(db, table)


@MIGRATIONS.register
def m002_full_user_ids(db: Any) -> None:
    """Key every user's rows by the full hash of their name (``safe_user_id``), not the 32
    bits two crafted names could share. The owner is bound by row-level security too, so it
    is lifted for the move and forced again in the same transaction; a chat session and its
    turns move in one statement, so their foreign key holds at its end."""
    rows = db.execute("SELECT name, user_id FROM helix.users").fetchall()
    moves = [(str(old), safe_user_id(str(name))) for name, old in rows]
    moves = [(old, new) for old, new in moves if old != new]
    if not moves:
        return
    for table in USER_TABLES:
        db.execute(f"ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY")
    for old, new in moves:
        for table in USER_TABLES:
            if table.startswith("helix_sessions."):
                continue
            db.execute(f"UPDATE {table} SET user_id = %s WHERE user_id = %s", [new, old])
        db.execute(
            "WITH s AS (UPDATE helix_sessions.sessions SET user_id = %s WHERE user_id = %s) "
            "UPDATE helix_sessions.turns SET user_id = %s WHERE user_id = %s",
            [new, old, new, old],
        )
        db.execute("UPDATE helix.users SET user_id = %s WHERE user_id = %s", [new, old])
    for table in USER_TABLES:
        db.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")


def _vault(db: Any) -> None:
    db.execute("CREATE SEQUENCE helix_vault.fact_id_seq")
    db.execute(
        f"""CREATE TABLE helix_vault.facts ({_USER},
            id BIGINT PRIMARY KEY,
            subj TEXT NOT NULL, rel TEXT NOT NULL, obj TEXT NOT NULL,
            key TEXT NOT NULL DEFAULT '', subj_name TEXT, obj_name TEXT,
            first_seen TIMESTAMPTZ NOT NULL, last_used TIMESTAMPTZ NOT NULL,
            usage_count INTEGER NOT NULL DEFAULT 1, quality DOUBLE PRECISION NOT NULL,
            t_start TIMESTAMPTZ NOT NULL, t_end TIMESTAMPTZ, replaced_by BIGINT,
            evidence TEXT, source TEXT NOT NULL, session TEXT,
            functional BOOLEAN NOT NULL DEFAULT FALSE,
            CONSTRAINT interval_forward CHECK (t_end IS NULL OR t_end >= t_start),
            CONSTRAINT one_current_value EXCLUDE USING gist (
                user_id WITH =, subj WITH =, rel WITH =, key WITH =,
                tstzrange(t_start, t_end) WITH &&) WHERE (functional)
                DEFERRABLE INITIALLY DEFERRED,
            CONSTRAINT one_row_per_triple EXCLUDE USING gist (
                user_id WITH =, subj WITH =, rel WITH =, obj WITH =,
                tstzrange(t_start, t_end) WITH &&) DEFERRABLE INITIALLY DEFERRED)"""
    )
    db.execute("CREATE INDEX ON helix_vault.facts (user_id, subj, rel)")
    db.execute("CREATE INDEX ON helix_vault.facts (user_id, obj)")
    db.execute(
        """CREATE FUNCTION helix_vault.mark_functional() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            NEW.functional := EXISTS (
                SELECT 1 FROM helix.functional_relations f WHERE f.rel = NEW.rel);
            RETURN NEW;
        END $$"""
    )
    db.execute(
        "CREATE TRIGGER facts_functional BEFORE INSERT OR UPDATE OF rel ON helix_vault.facts "
        "FOR EACH ROW EXECUTE FUNCTION helix_vault.mark_functional()"
    )
    db.execute(
        f"""CREATE TABLE helix_vault.mem_index ({_USER},
            alias_hash TEXT NOT NULL, alias TEXT NOT NULL, kind TEXT NOT NULL,
            subject TEXT NOT NULL, first_seen TIMESTAMPTZ NOT NULL,
            last_seen TIMESTAMPTZ NOT NULL, PRIMARY KEY (user_id, alias_hash, subject))"""
    )
    db.execute("CREATE INDEX ON helix_vault.mem_index (user_id, subject)")


@MIGRATIONS.register
def m003_fact_detail(db: Any) -> None:
    """A fact's qualifiers as stated (``Fact.detail``: a dose, route and frequency)."""
    db.execute("ALTER TABLE helix_vault.facts ADD COLUMN detail TEXT")


def _isolate(db: Any, table: str) -> None:
    db.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
    db.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
    db.execute(
        f"CREATE POLICY own_rows ON {table} "
        "USING (user_id = current_setting('helix.user', true)) "
        "WITH CHECK (user_id = current_setting('helix.user', true))"
    )


def applied(conn: Any) -> list[str]:
    """Migrations recorded in ``helix._migrations`` (none when the database is new)."""
    row = conn.execute("SELECT to_regclass('helix._migrations')").fetchone()
    if not row or row[0] is None:
        return []
    rows = conn.execute("SELECT name FROM helix._migrations ORDER BY applied_at, name").fetchall()
    return [str(r[0]) for r in rows]


def pending(conn: Any) -> list[str]:
    done = set(applied(conn))
    return [name for name in MIGRATIONS.names() if name not in done]


def migrate_pg(conn: Any, applied_at: str) -> list[str]:
    """Apply the migrations not yet recorded, in one transaction, one migrator at a time."""
    ran: list[str] = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext('helix-migrate'))")
        conn.execute("CREATE SCHEMA IF NOT EXISTS helix")
        conn.execute(
            "CREATE TABLE IF NOT EXISTS helix._migrations (name TEXT PRIMARY KEY, "
            "applied_at TEXT NOT NULL)"
        )
        done = set(applied(conn))
        for name, step in MIGRATIONS:
            if name in done:
                continue
            step(conn)
            conn.execute(
                "INSERT INTO helix._migrations (name, applied_at) VALUES (%s, %s)",
                [name, applied_at],
            )
            ran.append(name)
    return ran


def sync_catalog(conn: Any, functional: list[str]) -> None:
    """Make ``helix.functional_relations`` the catalog's functional relations."""
    with conn.transaction():
        conn.execute("DELETE FROM helix.functional_relations")
        for rel in sorted(functional):
            conn.execute("INSERT INTO helix.functional_relations (rel) VALUES (%s)", [rel])


def grant(conn: Any, role: str) -> None:
    """Let ``role`` (the application's, not the owner) use the tables; RLS still applies."""
    ident = '"' + role.replace('"', '""') + '"'
    with conn.transaction():
        for schema in SCHEMAS:
            conn.execute(f"GRANT USAGE ON SCHEMA {schema} TO {ident}")
        for schema in SCHEMAS[1:]:
            conn.execute(
                f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {ident}"
            )
            conn.execute(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA {schema} TO {ident}")
        conn.execute(f"GRANT SELECT ON helix._migrations, helix.functional_relations TO {ident}")
        conn.execute(f"GRANT SELECT, DELETE ON helix.users, helix.tokens TO {ident}")
        conn.execute(f"GRANT EXECUTE ON FUNCTION helix.instr(TEXT, TEXT) TO {ident}")
