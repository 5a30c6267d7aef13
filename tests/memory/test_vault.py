from __future__ import annotations

import threading
from dataclasses import fields
from pathlib import Path

import duckdb
import pytest

from memory.clock import SimulatedClock
from memory.migrate import Migrations, migrate
from memory.relations import RelationCatalog
from memory.vault import COLUMNS, MIGRATIONS, Fact, Vault


def _vault(
    tmp_path: Path, backend: str | None, clock: SimulatedClock, catalog: RelationCatalog, **kw: int
) -> Vault:
    """A vault on the back end under test: a DuckDB file, or user u1's rows in PostgreSQL."""
    if backend is None:
        return Vault(tmp_path / "vault.duckdb", clock, catalog=catalog, **kw)
    from engine.config import Settings
    from memory.store.pg import pg_backend
    from memory.store.pg_vault import PgVaultDB

    db = PgVaultDB(pg_backend(Settings(home=tmp_path, database_url=backend)), "u1")
    return Vault(db, clock, catalog=catalog, **kw)


@pytest.fixture
def vault(
    tmp_path: Path, backend: str | None, clock: SimulatedClock, catalog: RelationCatalog
) -> Vault:
    return _vault(tmp_path, backend, clock, catalog, max_facts=1000)


def test_explicit_supersession_keeps_history(vault: Vault, clock: SimulatedClock) -> None:
    first = vault.add("patient:4471", "takes", "Compound::DB00331").fact
    clock.advance(minutes=10)
    out = vault.add(
        "patient:4471",
        "takes",
        "Compound::DB01261",
        supersedes=("patient:4471", "takes", "Compound::DB00331"),
    )
    assert first is not None and out.fact is not None
    assert [f.obj for f in out.superseded] == ["Compound::DB00331"]
    old, new = vault.history("patient:4471", "takes")
    assert old.t_end == new.t_start and old.replaced_by == new.id and new.current
    assert [f.obj for f in vault.facts(include_superseded=False)] == ["Compound::DB01261"]


def test_takes_is_not_superseded_without_being_told(vault: Vault, clock: SimulatedClock) -> None:
    vault.add("patient:1", "takes", "Compound::A")
    clock.advance(minutes=1)
    vault.add("patient:1", "takes", "Compound::B")
    assert len([f for f in vault.history("patient:1") if f.current]) == 2
    clock.advance(minutes=1)
    out = vault.add("patient:1", "takes", "Compound::C", supersede_current=True)
    assert {f.obj for f in out.superseded} == {"Compound::A", "Compound::B"}


def test_lab_values_are_functional_per_test_name(vault: Vault, clock: SimulatedClock) -> None:
    vault.add("patient:1", "lab_value", "HbA1c 6.9%")
    clock.advance(minutes=1)
    vault.add("patient:1", "lab_value", "LDL 120 mg/dL")
    clock.advance(minutes=1)
    out = vault.add("patient:1", "lab_value", "HbA1c 7.5%")
    assert [f.obj for f in out.superseded] == ["HbA1c 6.9%"]
    current = {f.obj for f in vault.history("patient:1") if f.current}
    assert current == {"LDL 120 mg/dL", "HbA1c 7.5%"}
    assert vault.keys("lab_value") == ["hba1c", "ldl"]


def test_subject_functional_and_many_valued_relations(vault: Vault) -> None:
    vault.add("note:crispr-screen", "lead_compound", "Compound::A")
    vault.add("note:crispr-screen", "lead_compound", "Compound::B")
    assert [f.obj for f in vault.history("note:crispr-screen") if f.current] == ["Compound::B"]
    vault.add("patient:1", "reports_symptom", "Symptom::X")
    vault.add("patient:1", "reports_symptom", "Symptom::Y")
    assert len([f for f in vault.history("patient:1") if f.current]) == 2


def test_restating_refreshes_and_restating_after_supersession_opens_a_new_interval(
    vault: Vault, clock: SimulatedClock
) -> None:
    vault.add("patient:1", "takes", "Compound::A")
    again = vault.add("patient:1", "takes", "Compound::A")
    assert not again.created and again.fact is not None and again.fact.usage_count == 2
    clock.advance(minutes=1)
    vault.add("patient:1", "takes", "Compound::B", supersedes=("patient:1", "takes", "Compound::A"))
    clock.advance(minutes=1)
    back = vault.add(
        "patient:1", "takes", "Compound::A", supersedes=("patient:1", "takes", "Compound::B")
    )
    assert back.created
    objs = [(f.obj, f.current) for f in vault.history("patient:1")]
    assert objs == [("Compound::A", False), ("Compound::B", False), ("Compound::A", True)]


def test_only_quality_one_reviewed_facts_are_inserted(vault: Vault) -> None:
    assert (
        vault.add("Compound::A", "CtD", "Disease::B", source="reviewed", quality=0.8).fact is None
    )
    assert (
        vault.add("Compound::A", "CtD", "Disease::B", source="reviewed", quality=1.0).fact
        is not None
    )
    assert vault.verified([("Compound::A", "CtD", "Disease::B"), ("X", "r", "Y")]) == {
        ("Compound::A", "CtD", "Disease::B")
    }


def test_lru_pruning_never_drops_a_current_fact(
    tmp_path: Path, backend: str | None, clock: SimulatedClock, catalog: RelationCatalog
) -> None:
    vault = _vault(tmp_path, backend, clock, catalog, max_facts=5)
    with vault.hold():
        for i in range(8):
            clock.advance(minutes=1)
            vault.add(f"patient:{i % 2}", "lab_value", f"HbA1c {i}.0%")
        for i in range(6):
            vault.add(f"patient:{10 + i}", "reports_symptom", "Symptom::X")
        vault.prune()
    facts = vault.facts()
    current = [f for f in facts if f.current]
    assert len(current) == 8  # 2 current HbA1c + 6 symptoms, above the cap: all kept
    assert len(facts) == len(current)  # every superseded row went first
    assert {f.obj for f in current if f.rel == "lab_value"} == {"HbA1c 6.0%", "HbA1c 7.0%"}


def test_aliases_resolve_per_kind_most_recent_first(vault: Vault, clock: SimulatedClock) -> None:
    vault.learn_alias("Victor Costa", "name", "patient:6328")
    vault.learn_alias("Costa", "surname", "patient:6328")
    clock.advance(minutes=1)
    vault.learn_alias("Costa", "surname", "patient:7461")
    assert [a.subject for a in vault.resolve("victor  COSTA", "name")] == ["patient:6328"]
    assert [a.subject for a in vault.resolve("Costa", "surname")] == [
        "patient:7461",
        "patient:6328",
    ]
    clock.advance(minutes=1)
    vault.seen("patient:6328")
    assert vault.resolve("Costa", "surname")[0].subject == "patient:6328"
    assert vault.resolve("Costa", "name") == []


def test_forget_removes_every_interval_and_alias(vault: Vault) -> None:
    vault.add("patient:1", "takes", "Compound::A")
    vault.add("patient:1", "takes", "Compound::B", supersedes=("patient:1", "takes", "Compound::A"))
    vault.add("patient:2", "takes", "Compound::A")
    vault.learn_alias("Ada Moreno", "name", "patient:1")
    gone = vault.forget_facts([("patient:1", "takes", "Compound::A")])
    assert [f.obj for f in gone] == ["Compound::A"]
    assert [f.replaced_by for f in vault.history("patient:1")] == [None]
    assert len(vault.forget_subject("patient:1")) == 1
    assert vault.history("patient:1") == [] and vault.resolve("Ada Moreno", "name") == []
    assert not vault.exists("patient:1") and vault.exists("patient:2")
    assert [f.subj for f in vault.search(["compound::a"])] == ["patient:2"]


def test_reopening_the_file_sees_everything(
    tmp_path: Path, clock: SimulatedClock, catalog: RelationCatalog
) -> None:
    path = tmp_path / "v.duckdb"
    Vault(path, clock, catalog=catalog).add("patient:1", "takes", "Compound::A")
    again = Vault(path, clock, catalog=catalog)
    assert [f.obj for f in again.facts()] == ["Compound::A"]


def test_the_column_list_is_the_fact_model_and_the_migrated_table(
    vault: Vault, backend: str | None
) -> None:
    with vault.hold() as conn:
        if backend is None:
            table = [r[0] for r in conn.execute("DESCRIBE facts").fetchall()]
        else:  # PostgreSQL adds the owner (user_id) and the trigger-set ``functional`` flag
            table = [
                r[0]
                for r in conn.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_schema = "
                    "'helix_vault' AND table_name = 'facts' ORDER BY ordinal_position"
                ).fetchall()
            ]
            assert table[0] == "user_id" and "functional" in table
            table = [c for c in table[1:] if c != "functional"]  # later columns follow it
    assert list(COLUMNS) == [f.name for f in fields(Fact)] == table


def test_a_vault_file_written_by_the_first_schema_opens(
    tmp_path: Path, clock: SimulatedClock, catalog: RelationCatalog
) -> None:
    path = tmp_path / "old.duckdb"
    conn = duckdb.connect(str(path))
    first = Migrations("vault", MIGRATIONS.steps[:1])
    migrate(conn, first, "2026-01-01T00:00:00.000000Z")
    conn.execute(
        "INSERT INTO facts VALUES (nextval('fact_id_seq'), 'patient:1', 'takes', 'Compound::A', "
        "'', 'Ada', NULL, TIMESTAMP '2026-03-01 10:00:00', TIMESTAMP '2026-03-01 10:00:00', 3, "
        "1.0, TIMESTAMP '2026-03-01 10:00:00', NULL, NULL, 'Ada takes A.', 'stated', 's1')"
    )
    conn.close()
    (fact,) = Vault(path, clock, catalog=catalog).facts()
    assert fact.triple == ("patient:1", "takes", "Compound::A") and fact.current
    assert (fact.subj_name, fact.usage_count, fact.session) == ("Ada", 3, "s1")
    assert fact.t_start.tzinfo is not None and fact.t_start.hour == 10
    assert fact.detail is None  # the column a later migration added


def test_the_lock_is_reentrant_in_a_thread_and_excludes_other_threads(
    tmp_path: Path, clock: SimulatedClock, catalog: RelationCatalog
) -> None:
    path = tmp_path / "locked.duckdb"
    first = Vault(path, clock, catalog=catalog)
    second = Vault(path, clock, catalog=catalog, lock_timeout=0.2)
    outcome: list[str] = []

    def other_thread() -> None:
        try:
            with second.hold():
                outcome.append("entered")
        except TimeoutError:
            outcome.append("timed out")

    with first.hold():
        first.add("patient:1", "takes", "Compound::A")
        assert [f.obj for f in second.facts()] == ["Compound::A"]  # same thread: re-entrant
        worker = threading.Thread(target=other_thread)
        worker.start()
        worker.join()
    assert outcome == ["timed out"]
    worker = threading.Thread(target=other_thread)
    worker.start()
    worker.join()
    assert outcome == ["timed out", "entered"]
