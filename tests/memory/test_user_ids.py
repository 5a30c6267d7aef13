"""Two user ids never share a directory or a database key; older 32-bit names are moved to
the full hash, in the files and in PostgreSQL; ``users add|remove`` answer in one sentence
(issue 37, item 5)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
from click.testing import CliRunner

from engine.config import Settings
from engine.util.text import legacy_user_id, safe_user_id
from helix_tui.cli import cli
from memory.clock import SimulatedClock
from memory.service import UserMemory
from memory.store.pg import connect, pg_key
from memory.store.pg_admin import add_user, list_users
from memory.store.pg_schema import USER_TABLES, migrate_pg
from sessions.store import SessionStore
from tests.memory.memfakes import fake_linker

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
CRAFTED = ("dr$%]#", "dr&;[[")  # both cleaned to "dr____", same first 32 bits of SHA-1


def _memory(settings: Settings, user: str) -> UserMemory:
    return UserMemory(settings, user, clock=SimulatedClock(START), linker=fake_linker())


def test_crafted_ids_that_shared_32_bits_get_apart_directories(tmp_path: Path) -> None:
    a, b = CRAFTED
    assert legacy_user_id(a) == legacy_user_id(b)  # the fault: one directory for both
    assert safe_user_id(a) != safe_user_id(b)
    settings = Settings(home=tmp_path, trace_exporter="none")
    assert settings.user_dir(a) != settings.user_dir(b)
    with _memory(settings, a) as first:
        first.state("Patient MRN 4471 is allergic to aspirin.", "s1")
        assert [f.obj for f in first.facts()] == ["Compound::DB00945"]
    with _memory(settings, b) as second:
        assert second.facts() == [] and second.search("4471") == []


def test_a_directory_of_the_older_name_moves_to_the_full_hash(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path, trace_exporter="none")
    with _memory(settings, "alice") as mem:
        mem.state("Patient MRN 4471 is allergic to aspirin.", "s1")
    new = settings.user_dir("alice")
    old = settings.users_dir / legacy_user_id("alice")
    new.rename(old)  # as an older Helix left it
    with _memory(settings, "alice") as mem:
        assert [f.obj for f in mem.facts()] == ["Compound::DB00945"]
    assert new.is_dir() and not old.exists()


@pytest.fixture
def owner(pg_server: Any) -> Iterator[str]:
    pg_server.reset()
    yield str(pg_server.owner_url)


def _facts_seen_by(url: str, user: str) -> list[str]:
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        conn.execute("SELECT set_config('helix.user', %s, true)", [pg_key(user)])
        return [str(r[0]) for r in conn.execute("SELECT obj FROM helix_vault.facts")]


def test_database_rows_keyed_by_the_older_id_move_to_the_full_hash(
    owner: str, pg_server: Any, tmp_path: Path
) -> None:
    with connect(owner) as conn:
        add_user(conn, "alice")
    settings = Settings(home=tmp_path, trace_exporter="none", database_url=pg_server.app_url)
    with _memory(settings, "alice") as mem:
        mem.state("Patient MRN 4471 is allergic to aspirin.", "s1")
    with SessionStore(settings, "alice", SimulatedClock(START)) as store:
        store.create("rounds for MRN 4471", session_id="s1")
    old, new = legacy_user_id("alice"), pg_key("alice")
    with connect(owner) as conn, conn.transaction():  # back to how an older Helix keyed them
        for table in USER_TABLES:
            conn.execute(f"ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY")
        conn.execute(
            "WITH s AS (UPDATE helix_sessions.sessions SET user_id = %s) "
            "UPDATE helix_sessions.turns SET user_id = %s",
            [old, old],
        )
        for table in USER_TABLES:
            if not table.startswith("helix_sessions."):
                conn.execute(f"UPDATE {table} SET user_id = %s", [old])
            conn.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        conn.execute("UPDATE helix.users SET user_id = %s", [old])
        conn.execute("DELETE FROM helix._migrations WHERE name = 'm002_full_user_ids'")
    assert _facts_seen_by(pg_server.app_url, "alice") == []  # lost to the new key, until:
    with connect(owner) as conn:
        assert migrate_pg(conn, "2026-03-03T00:00:00") == ["m002_full_user_ids"]
        unbound = [r for t in USER_TABLES for r in conn.execute(f"SELECT user_id FROM {t}")]
        account = conn.execute("SELECT user_id FROM helix.users").fetchall()
    assert unbound == []  # row-level security binds the owner again
    assert account == [(new,)]
    assert _facts_seen_by(pg_server.app_url, "alice") == ["Compound::DB00945"]
    with SessionStore(settings, "alice", SimulatedClock(START)) as store:
        assert [s.title for s in store.list()] == ["rounds for MRN 4471"]


def test_users_add_a_taken_id_and_users_remove_answer_in_one_sentence(
    owner: str, pg_server: Any, tmp_path: Path
) -> None:
    with connect(owner) as conn:
        conn.execute(
            "INSERT INTO helix.users (name, user_id, created_at) VALUES (%s, %s, 'then')",
            ["carol-from-before", pg_key("carol")],
        )
    runner = CliRunner()
    env = {"HELIX_HOME": str(tmp_path), "HELIX_TRACE_EXPORTER": "none"}
    taken = runner.invoke(cli, ["users", "add", "carol", "--url", owner], env=env, obj={})
    assert taken.exit_code == 1
    assert taken.output.strip().splitlines() == [
        f"Error: cannot register 'carol': another registered user has the same id "
        f"{pg_key('carol')!r}; choose another name"
    ]
    bad = runner.invoke(cli, ["users", "add", "ca\x1brol", "--url", owner], env=env, obj={})
    assert bad.exit_code == 1 and len(bad.output.strip().splitlines()) == 1, bad.output
    assert "control characters" in bad.output and "`users add alice`" in bad.output
    assert "--user" not in bad.output  # the name is an argument of `users add` here
    added = runner.invoke(cli, ["users", "add", "dave", "--url", owner], env=env, obj={})
    assert added.exit_code == 0 and added.output.startswith("hx_")
    settings = Settings(home=tmp_path, trace_exporter="none", database_url=pg_server.app_url)
    with _memory(settings, "dave") as mem:
        mem.state("Patient MRN 4471 is allergic to aspirin.", "s1")
    host_files = settings.user_dir("dave")
    (host_files / "traces").mkdir(parents=True)
    (host_files / "traces" / "spans.jsonl").write_text("MRN 4471\n")
    gone = runner.invoke(cli, ["users", "remove", "dave", "--url", owner], env=env, obj={})
    assert gone.exit_code == 0, gone.output
    assert gone.output.startswith("removed dave: tokens revoked")
    assert _facts_seen_by(pg_server.app_url, "dave") == [] and not host_files.exists()
    with connect(owner) as conn:
        assert "dave" not in dict(list_users(conn))
    again = runner.invoke(cli, ["users", "remove", "dave", "--url", owner], env=env, obj={})
    assert again.exit_code == 1
    assert again.output.strip() == ("Error: no user named 'dave' is registered (see `users list`)")
