"""Hostile chat statements, facts and user ids through real per-user memory (DuckDB vault,
SQLite episodic log and cache in a tmp home): nothing escapes, nothing lands outside the home,
and no user ever sees another's facts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.config import Settings
from engine.util.text import user_id_problem
from memory.clock import SimulatedClock
from memory.service import InvalidText, UserMemory
from tests.memory.memfakes import fake_linker
from tests.reliability.conftest import REPO
from tests.reliability.strategies import nasty_text

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
T = TypeVar("T")


def _memory(home: Path, user: str) -> UserMemory:
    settings = Settings(home=home, user="tester", trace_exporter="none")
    return UserMemory(settings, user, clock=SimulatedClock(START), linker=fake_linker())


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, UserMemory, UserMemory]]:
    """alice and bob in one home, kept across examples (opening a memory takes a while)."""
    home = tmp_path_factory.mktemp("mem") / "h"
    with _memory(home, "alice") as alice, _memory(home, "bob") as bob:
        bob.store_fact("patient:9", "takes", "Compound::DB00331", evidence="bob's only fact")
        yield home, alice, bob


def _or_refused(call: Callable[[], T]) -> T | None:
    """``call()``, or None when it refuses the text in one sentence."""
    try:
        return call()
    except InvalidText as exc:
        assert "not valid Unicode" in str(exc) and "\n" not in str(exc)
        return None


@FUZZ
@given(statements=st.lists(nasty_text, min_size=1, max_size=4), probe=nasty_text)
def test_statements_and_searches_never_escape(pair, statements, probe) -> None:
    home, alice, bob = pair
    for text in statements:
        _or_refused(lambda t=text: alice.state(t, "s1"))
    mine = _or_refused(lambda: alice.search(probe)) if probe.strip() else []
    assert all(f.subj != "patient:9" for f in mine or [])
    if probe.strip():
        _or_refused(lambda: alice.forget(probe))
    assert [f.subj for f in bob.search("patient:9")] == ["patient:9"]
    assert {p.name for p in home.iterdir()} == {"users"}


@FUZZ
@given(subj=nasty_text, rel=nasty_text, obj=nasty_text)
def test_structured_facts_are_stored_or_refused_never_crash(pair, subj, rel, obj) -> None:
    _home, alice, bob = pair
    fact = _or_refused(lambda: alice.store_fact(subj, rel, obj))
    if fact is not None:
        assert fact.triple in {f.triple for f in alice.facts()}
    assert [f.subj for f in bob.search("patient:9")] == ["patient:9"]


@settings(FUZZ, max_examples=15)
@given(user=nasty_text)
def test_user_ids_are_refused_clearly_or_kept_apart(tmp_path: Path, user: str) -> None:
    problem = user_id_problem(user)
    if problem is not None:
        assert "give a name such as --user" in problem
        return
    home = tmp_path / "h"
    with _memory(home, user) as mem:
        mem.store_fact("patient:1", "takes", "Compound::DB00331")
        assert mem.dir.resolve().parent == (home / "users").resolve()
    with _memory(home, user + "x") as other:
        assert other.search("patient:1") == []


WRITER = """
import sys
from datetime import UTC, datetime
from engine.config import Settings
from memory.clock import SimulatedClock
from memory.service import InvalidText, UserMemory
mem = UserMemory(Settings(home=sys.argv[1], trace_exporter="none"), "alice",
                 clock=SimulatedClock(datetime(2026, 3, 2, tzinfo=UTC)))
for i in range(100000):
    mem.store_fact(f"patient:{i}", "takes", "Compound::DB00331")
    print(i, flush=True)
"""


def test_a_writer_killed_mid_stream_leaves_every_acknowledged_fact(tmp_path: Path) -> None:
    home = tmp_path / "h"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(home)],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        text=True,
    )
    acked = -1
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while acked < 40 and time.monotonic() < deadline:
        acked = int(proc.stdout.readline())
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    assert acked >= 40
    with _memory(home, "alice") as mem:
        for i in range(acked + 1):
            found = [f.obj for f in mem.search(f"patient:{i}") if f.subj == f"patient:{i}"]
            assert found == ["Compound::DB00331"], i
