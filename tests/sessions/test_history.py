"""History search: FTS5 over a user's turns, fused with an embedder; per user."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from engine.config import Settings
from engine.result import Answer, Result, Status
from memory.clock import SimulatedClock
from sessions.history import search_history
from sessions.store import SESSIONS_FILE, SessionStore


@pytest.fixture
def clock() -> SimulatedClock:
    return SimulatedClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(home=tmp_path / "home", trace_exporter="none")


def _result(text: str, *names: str) -> Result:
    answers = [Answer(id=f"Compound::{n}", name=n, score=0.9) for n in names]
    return Result(status=Status.ANSWERED, text=text, answers=answers)


def _fill(store: SessionStore, clock: SimulatedClock) -> tuple[str, str]:
    old = store.create("Monday")
    store.add_turn(old.id, "Which drugs treat Alzheimer's disease?", _result("", "Donepezil"))
    store.add_turn(old.id, "What genes are linked to asthma?", _result("IL13 is linked."))
    clock.advance(minutes=3 * 24 * 60)
    new = store.create("Thursday")
    store.add_turn(new.id, "How could metformin act on diabetes?", _result("Via PPARG."))
    return old.id, new.id


def test_text_search_finds_a_turn_of_an_older_session(
    settings: Settings, clock: SimulatedClock
) -> None:
    with SessionStore(settings, "ada", clock) as store:
        old, _ = _fill(store, clock)
        hits = store.search_turns("asthma genes")
        assert [(h.session_id, h.position) for h in hits] == [(old, 2)]
        assert hits[0].session_title == "Monday" and "«asthma»" in hits[0].snippet
        # answer names are indexed too, and words are stemmed (treating ~ treat)
        assert [h.question for h in store.search_turns("donepezil")] == [
            "Which drugs treat Alzheimer's disease?"
        ]
        assert len(store.search_turns("treating")) == 1
        # all words first, then any of them
        any_words = store.search_turns("asthma metformin")
        assert {h.position for h in any_words} == {1, 2} and len(any_words) == 2


def test_fts_syntax_and_punctuation_are_plain_text(
    settings: Settings, clock: SimulatedClock
) -> None:
    with SessionStore(settings, "ada", clock) as store:
        _fill(store, clock)
        assert store.search_turns('"AND( NEAR* -') == []
        assert store.search_turns("   ?!  ") == []
        assert len(store.search_turns("alzheimer's")) == 1


def test_deleting_a_session_removes_its_hits(settings: Settings, clock: SimulatedClock) -> None:
    with SessionStore(settings, "ada", clock) as store:
        old, _ = _fill(store, clock)
        store.delete(old)
        assert store.search_turns("asthma") == []
        assert store.forget_mentions(["metformin"]) == 1
        assert store.search_turns("diabetes") == []


def test_one_users_history_is_never_searched_for_another(
    settings: Settings, clock: SimulatedClock
) -> None:
    with SessionStore(settings, "ada", clock) as ada:
        _fill(ada, clock)
    with SessionStore(settings, "bob", clock) as bob:
        s = bob.create()
        bob.add_turn(s.id, "What treats gout?", _result("Allopurinol."))
        assert bob.search_turns("asthma") == []
        assert search_history(bob, "asthma", embed=_bag_of_words) == []
        assert [h.hit.question for h in search_history(bob, "gout")] == ["What treats gout?"]


def test_an_existing_file_is_indexed_when_opened(settings: Settings, clock: SimulatedClock) -> None:
    with SessionStore(settings, "ada", clock) as store:
        _fill(store, clock)
    path = settings.user_dir("ada") / SESSIONS_FILE
    db = sqlite3.connect(path)
    for sql in ("DROP TRIGGER turns_fts_insert", "DROP TRIGGER turns_fts_delete"):
        db.execute(sql)
    db.execute("DROP TABLE turns_fts")
    db.execute("DELETE FROM _migrations WHERE name = 'm003_turns_fts'")
    db.commit()
    db.close()
    with SessionStore(settings, "ada", clock) as store:
        assert len(store.search_turns("asthma")) == 1


VOCAB = ["alzheimer", "dementia", "asthma", "lung", "metformin", "diabetes", "sugar", "drug"]
SYNONYMS = {"dementia": "alzheimer", "lung": "asthma", "sugar": "diabetes"}


def _bag_of_words(texts: list[str]) -> np.ndarray:
    rows = []
    for text in texts:
        words = [SYNONYMS.get(w, w) for w in text.lower().replace("'", " ").split()]
        v = np.array([sum(w.startswith(k) for w in words) for k in VOCAB], dtype=np.float32)
        rows.append(v / (np.linalg.norm(v) or 1.0))
    return np.stack(rows)


def test_meaning_finds_what_the_words_do_not(settings: Settings, clock: SimulatedClock) -> None:
    with SessionStore(settings, "ada", clock) as store:
        _fill(store, clock)
        assert store.search_turns("dementia") == []
        found = search_history(store, "dementia", embed=_bag_of_words)
        assert found and found[0].hit.question.startswith("Which drugs treat Alzheimer")
        assert found[0].how == "meaning"
        both = search_history(store, "asthma lung", embed=_bag_of_words)
        assert both[0].how == "both" and both[0].hit.position == 2
        assert both[0].to_dict()["session_title"] == "Monday"


def test_headless_history_search(settings: Settings, clock: SimulatedClock) -> None:
    import json

    from click.testing import CliRunner

    from helix_tui.cli import cli

    with SessionStore(settings, "ada", clock) as store:
        old, _ = _fill(store, clock)

    def run(*args: str):  # type: ignore[no-untyped-def]
        home = ["--home", str(settings.home)]
        return CliRunner().invoke(cli, [*home, *args], obj={}, env={"HELIX_TRACE_EXPORTER": "none"})

    res = run("--user", "ada", "history", "search", "asthma", "--json")
    assert res.exit_code == 0, res.output
    (hit,) = json.loads(res.stdout)
    assert hit["session_id"] == old and hit["position"] == 2 and hit["how"] == "text"
    table = run("--user", "ada", "history", "search", "asthma")
    assert table.exit_code == 0 and f"(ids: {old})" in table.output
    other = run("--user", "bob", "history", "search", "asthma", "--json")
    assert other.exit_code == 0 and json.loads(other.stdout) == []
    assert run("--user", "ada", "history", "search", "  ").exit_code == 2
