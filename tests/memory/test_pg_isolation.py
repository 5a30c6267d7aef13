"""PostgreSQL keeps users apart in the database itself, and supersession is its invariant."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest

from engine.config import Settings
from memory.clock import SimulatedClock
from memory.service import UserMemory, delete_user
from memory.store.pg import pg_key
from memory.store.pg_schema import USER_TABLES
from sessions.store import SessionStore, mention_scrubber
from tests.memory.memfakes import fake_linker

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def pg(pg_server: object, tmp_path: Path) -> Iterator[Settings]:
    pg_server.reset()  # type: ignore[attr-defined]
    url = pg_server.app_url  # type: ignore[attr-defined]
    yield Settings(home=tmp_path / "home", trace_exporter="none", database_url=url)


def _fill(settings: Settings, user: str, mrn: str) -> None:
    clock = SimulatedClock(START)
    scrub = mention_scrubber(settings, user, clock)
    with UserMemory(
        settings, user, clock=clock, linker=fake_linker(), forget_elsewhere=scrub
    ) as mem:
        mem.state(f"Patient MRN {mrn} (Ada Moreno) was started on metformin.", "s1")
        mem.store_fact(f"patient:{mrn}", "allergic_to", "Compound::DB00945", session="s1")
        mem.store_fact(f"note:{user}-notes", "lead_compound", "Compound::DB00843")
    with SessionStore(settings, user, clock) as store:
        store.create(f"rounds for MRN {mrn}", session_id="s1")


def _rows_by_user(url: str, as_user: str | None) -> dict[str, set[str]]:
    """user_id values each table shows to a session that set ``helix.user`` to ``as_user``
    (none set: ``as_user`` None) and then queried without any WHERE."""
    out: dict[str, set[str]] = {}
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        if as_user is not None:
            conn.execute("SELECT set_config('helix.user', %s, true)", [pg_key(as_user)])
        for table in USER_TABLES:
            out[table] = {str(r[0]) for r in conn.execute(f"SELECT user_id FROM {table}")}
    return out


def test_a_query_without_a_user_filter_sees_only_its_users_rows(
    pg: Settings, pg_server: object
) -> None:
    _fill(pg, "alice", "4471")
    _fill(pg, "bob", "4471")
    url = pg.database_url
    assert url is not None
    alice = _rows_by_user(url, "alice")
    assert alice["helix_vault.facts"] == {pg_key("alice")}
    assert all(users <= {pg_key("alice")} for users in alice.values())
    assert all(not users for users in _rows_by_user(url, None).values())
    # the owner is bound too (FORCE ROW LEVEL SECURITY)
    owner = _rows_by_user(pg_server.owner_url, "bob")  # type: ignore[attr-defined]
    assert owner["helix_vault.facts"] == {pg_key("bob")}
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        conn.execute("SELECT set_config('helix.user', %s, true)", [pg_key("alice")])
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # WITH CHECK: no writing as bob
            conn.execute(
                "INSERT INTO helix_episodic.turns (user_id, session, query, created_at) "
                "VALUES (%s, 's', 'q', 'now')",
                [pg_key("bob")],
            )


def _remaining(url: str, user: str, needles: list[str]) -> dict[str, int]:
    """Rows of ``user`` in every per-user table whose any column mentions a needle."""
    out: dict[str, int] = {}
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        conn.execute("SELECT set_config('helix.user', %s, true)", [pg_key(user)])
        for table in USER_TABLES:
            rows = conn.execute(f"SELECT t::text FROM {table} t").fetchall()
            out[table] = sum(1 for (text,) in rows if any(n in text.lower() for n in needles))
    return out


def test_forget_and_delete_user_leave_no_row_in_any_table(pg: Settings) -> None:
    _fill(pg, "alice", "4471")
    _fill(pg, "bob", "4471")
    url = pg.database_url
    assert url is not None
    assert sum(_remaining(url, "alice", ["4471"]).values()) > 0
    clock = SimulatedClock(START)
    scrub = mention_scrubber(pg, "alice", clock)
    with UserMemory(pg, "alice", clock=clock, linker=fake_linker(), forget_elsewhere=scrub) as m:
        assert m.forget("patient:4471") >= 2
    assert _remaining(url, "alice", ["patient:4471", "mrn 4471", "ada moreno"]) == dict.fromkeys(
        USER_TABLES, 0
    )
    assert sum(_remaining(url, "bob", ["4471"]).values()) > 0  # bob's patient untouched
    delete_user(pg, "alice")
    with psycopg.connect(url, autocommit=True) as conn:
        for table in USER_TABLES:  # as the owner of every row would see them: none left
            conn.execute("SELECT set_config('helix.user', %s, false)", [pg_key("alice")])
            assert conn.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,)
        conn.execute("SELECT set_config('helix.user', %s, false)", [pg_key("bob")])
        assert conn.execute("SELECT count(*) FROM helix_vault.facts").fetchone()[0] > 0  # type: ignore[index]


def test_two_concurrent_supersessions_leave_one_current_value(pg: Settings) -> None:
    clock = SimulatedClock(START)
    mems = [UserMemory(pg, "alice", clock=clock) for _ in range(2)]
    drugs = ["Compound::DB00843", "Compound::DB00945", "Compound::DB01050", "Compound::DB00331"]
    errors: list[BaseException] = []

    def write(mem: UserMemory, offset: int) -> None:
        try:
            for i in range(20):
                mem.store_fact("note:trial", "lead_compound", drugs[(i + offset) % len(drugs)])
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(m, n)) for n, m in enumerate(mems)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    current = [f for f in mems[0].facts(include_superseded=False) if f.subj == "note:trial"]
    assert len(current) == 1
    with pytest.raises(psycopg.errors.ExclusionViolation), mems[0].vault.hold() as conn:
        conn.execute(
            "INSERT INTO facts (id, subj, rel, obj, first_seen, last_used, quality, t_start, "
            "source) VALUES (nextval('fact_id_seq'), 'note:trial', 'lead_compound', 'X', "
            "now(), now(), 1, now(), 'stated')"
        )
    for mem in mems:
        mem.close()


def test_a_database_that_cannot_be_used_says_why(pg_server: object, tmp_path: Path) -> None:
    from memory.store.pg import DatabaseError, pg_backend

    def backend(url: str) -> None:
        pg_backend(Settings(home=tmp_path, database_url=url))

    with pytest.raises(DatabaseError, match="must be a postgresql:// URL"):
        backend("mysql://localhost/helix")
    with pytest.raises(DatabaseError, match="superuser or BYPASSRLS"):
        backend(pg_server.url("postgres"))  # type: ignore[attr-defined]
    with pytest.raises(DatabaseError, match="db migrate"):
        backend(pg_server.url("helix_owner", "postgres"))  # type: ignore[attr-defined]
    port = pg_server.port  # type: ignore[attr-defined]
    with pytest.raises(DatabaseError, match="cannot connect"):
        backend(f"postgresql://helix_app@127.0.0.1:{port}/no_such_db")
