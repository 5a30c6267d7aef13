from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.config import Settings
from engine.result import Answer, Evidence, Result, Status
from memory.clock import SimulatedClock
from memory.migrate import Migrations, applied, migrate
from sessions.store import MIGRATIONS, SESSIONS_FILE, HistoryUnavailable, SessionStore


@pytest.fixture
def clock() -> SimulatedClock:
    return SimulatedClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))


@pytest.fixture
def settings(tmp_path: Path, backend: str | None) -> Settings:
    return Settings(home=tmp_path / "home", trace_exporter="none", database_url=backend)


def _answer() -> Result:
    return Result(
        status=Status.ANSWERED,
        text="Donepezil treats Alzheimer's disease.",
        answers=[Answer(id="Compound::DB00843", name="Donepezil", score=0.93)],
        evidence=[
            Evidence(
                kind="triple",
                score=0.93,
                source="hetionet",
                triple=("Compound::DB00843", "CtD", "Disease::DOID:10652"),
            )
        ],
    )


def test_create_list_latest_rename_delete(settings: Settings, clock: SimulatedClock) -> None:
    with SessionStore(settings, "ada", clock) as store:
        a = store.create("Morning rounds")
        clock.advance(minutes=1)
        b = store.create(session_id="fixed-id")
        assert b.id == "fixed-id" and b.title == "New chat" and b.n_turns == 0
        assert [s.id for s in store.list()] == ["fixed-id", a.id]
        clock.advance(minutes=1)
        store.add_turn(a.id, "Which drugs treat Alzheimer's disease?", _answer())
        latest = store.latest()
        assert latest is not None and latest.id == a.id and latest.n_turns == 1
        assert latest.updated_at == clock.now() and latest.created_at < latest.updated_at
        store.rename(b.id, "Renamed")
        assert store.get(b.id).title == "Renamed"  # type: ignore[union-attr]
        with pytest.raises(KeyError):
            store.rename("missing", "x")
        store.delete(a.id)
        assert store.get(a.id) is None and store.turns(a.id) == []
        assert [s.user for s in store.list()] == ["ada"]


def test_turns_round_trip_results_and_titles(settings: Settings, clock: SimulatedClock) -> None:
    with SessionStore(settings, "ada", clock) as store:
        turn = store.add_turn("new-session", "Which drugs treat Alzheimer's disease?", _answer())
        store.add_turn("new-session", "And for gout?", Result(status=Status.NOT_ANSWERED))
        turns = store.turns("new-session")
        assert turns[0] == turn and turns[0].result == _answer()
        assert [t.question for t in turns] == [
            "Which drugs treat Alzheimer's disease?",
            "And for gout?",
        ]
        info = store.get("new-session")
        assert info is not None and info.title == "Which drugs treat Alzheimer's disease?"
        titled = store.create("Kept title")
        store.add_turn(titled.id, "q", _answer())
        assert store.get(titled.id).title == "Kept title"  # type: ignore[union-attr]


def test_export_markdown(settings: Settings, clock: SimulatedClock) -> None:
    with SessionStore(settings, "ada", clock) as store:
        s = store.create("Alzheimer review")
        store.add_turn(s.id, "Which drugs treat Alzheimer's disease?", _answer())
        md = store.export_markdown(s.id)
    assert md.startswith("# Alzheimer review\n")
    assert "## 1. Which drugs treat Alzheimer's disease?" in md
    assert "- Donepezil (`Compound::DB00843`, 0.93)" in md
    assert "- triple: Donepezil —treats→ Disease::DOID:10652" in md  # named when known


def test_export_markdown_names_nodes_and_shows_control_characters(
    settings: Settings, clock: SimulatedClock
) -> None:
    named = _answer().model_copy(
        update={
            "names": {"Disease::DOID:10652": "Alzheimer's disease"},
            "text": "Donepezil\x00 treats \x1b[31mAlzheimer's\x7f disease.",
        }
    )
    with SessionStore(settings, "ada", clock) as store:
        s = store.create("rounds\x1b]0;owned\x07")
        store.add_turn(s.id, "Which drugs\x00 treat Alzheimer's disease?", named)
        md = store.export_markdown(s.id)
    assert "- triple: Donepezil —treats→ Alzheimer's disease" in md
    assert "Compound::DB00843 → CtD" not in md
    assert not any(ch in md for ch in "\x00\x1b\x07\x7f"), repr(md)
    assert "# rounds␛]0;owned␇" in md and "Donepezil␀ treats ␛[31mAlzheimer's␡ disease." in md


def test_users_have_separate_files(settings: Settings, clock: SimulatedClock) -> None:
    with SessionStore(settings, "ada", clock) as ada, SessionStore(settings, "bob", clock) as bob:
        ada.create("mine")
        assert bob.list() == []
        assert ada.path != bob.path and ada.path.name == SESSIONS_FILE


def test_upgrade_from_the_first_schema(tmp_path: Path, clock: SimulatedClock) -> None:
    settings = Settings(home=tmp_path / "home", trace_exporter="none")  # the SQLite file
    path = settings.user_dir("ada") / SESSIONS_FILE
    path.parent.mkdir(parents=True)
    first_only = Migrations("sessions", MIGRATIONS.steps[:1])
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, first_only, "2026-03-01T00:00:00.000000Z")
    conn.execute(
        "INSERT INTO sessions VALUES ('old', 'Old chat', '2026-03-01T00:00:00.000000Z',"
        " '2026-03-01T00:00:00.000000Z')"
    )
    conn.close()
    with SessionStore(settings, "ada", clock) as store:
        old = store.get("old")
        assert old is not None and old.title == "Old chat"
        conn = sqlite3.connect(path)
        assert applied(conn) == MIGRATIONS.names()
        conn.close()


def test_history_search_on_files_or_a_clear_error_on_postgresql(
    settings: Settings, clock: SimulatedClock
) -> None:
    with SessionStore(settings, "ada", clock) as store:
        store.add_turn("s1", "Which drugs treat Alzheimer's disease?", _answer())
        if settings.database_url is None:
            assert [h.question for h in store.search_turns("alzheimer")] == [
                "Which drugs treat Alzheimer's disease?"
            ]
        else:
            with pytest.raises(HistoryUnavailable, match="file back end"):
                store.search_turns("alzheimer")
        assert [t.question for t in store.turns("s1")] == ["Which drugs treat Alzheimer's disease?"]
