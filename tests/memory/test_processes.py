"""Durability and multi-process safety, tested with real subprocesses and real files."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine.config import Settings
from memory.clock import SimulatedClock
from memory.service import UserMemory
from sessions.store import SessionStore

REPO = Path(__file__).resolve().parents[2]

WRITER = textwrap.dedent("""
    import sys
    from contextlib import nullcontext
    from datetime import UTC, datetime
    from pathlib import Path
    from engine.config import Settings
    from memory.clock import SimulatedClock
    from memory.service import UserMemory

    home, user, tag, count, held = sys.argv[1:6]
    clock = SimulatedClock(datetime(2026, 3, 2, tzinfo=UTC))
    mem = UserMemory(Settings(home=Path(home), trace_exporter="none"), user, clock=clock)
    with (mem.hold() if held == "held" else nullcontext()):
        for i in range(int(count)):
            clock.advance(seconds=1)
            mem.store_fact(f"patient:{tag}{i}", "takes", f"Compound::DB{i:05d}",
                           evidence=f"Started {tag}{i}", session=f"s-{tag}")
            print(f"ACK {i}", flush=True)
    mem.close()
""")


def _spawn(home: Path, user: str, tag: str, count: int, held: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(home), user, tag, str(count), held],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def _stored(home: Path, user: str) -> set[str]:
    mem = UserMemory(Settings(home=home, trace_exporter="none"), user, clock=SimulatedClock())
    try:
        return {f.subj for f in mem.facts()}
    finally:
        mem.close()


@pytest.mark.parametrize("held", ["held", "per-op"])
def test_kill_9_mid_burst_loses_no_acknowledged_fact(tmp_path: Path, held: str) -> None:
    home = tmp_path / "home"
    proc = _spawn(home, "u1", "p", 100_000, held)
    assert proc.stdout is not None
    acked: list[int] = []
    for line in proc.stdout:
        if line.startswith("ACK"):
            acked.append(int(line.split()[1]))
        if len(acked) >= 25:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    stored = _stored(home, "u1")
    assert {f"patient:p{i}" for i in acked} <= stored
    mem = UserMemory(Settings(home=home, trace_exporter="none"), "u1", clock=SimulatedClock())
    try:
        logged = {t.query for t in mem.episodic.all()}
    finally:
        mem.close()
    assert {f"Started p{i}" for i in acked} <= logged


def test_two_processes_of_one_user_take_turns_without_corruption(tmp_path: Path) -> None:
    home = tmp_path / "home"
    procs = [_spawn(home, "u1", tag, 15, "per-op") for tag in ("a", "b")]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert out.count("ACK") == 15
    stored = _stored(home, "u1")
    assert stored == {f"patient:{t}{i}" for t in ("a", "b") for i in range(15)}


SESSION_WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from engine.config import Settings
    from engine.result import Result, Status
    from sessions.store import SessionStore

    store = SessionStore(Settings(home=Path(sys.argv[1]), trace_exporter="none"), "u1")
    for i in range(40):
        store.add_turn("shared", f"{sys.argv[2]} question {i}",
                       Result(status=Status.NOT_ANSWERED, text="nothing"))
    store.close()
""")


def test_two_processes_append_to_one_session_store(tmp_path: Path) -> None:
    home = tmp_path / "home"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", SESSION_WRITER, str(home), tag],
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            stderr=subprocess.PIPE,
            text=True,
        )
        for tag in ("a", "b")
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
    store = SessionStore(Settings(home=home, trace_exporter="none"), "u1")
    try:
        questions = [t.question for t in store.turns("shared")]
        info = store.get("shared")
    finally:
        store.close()
    assert len(questions) == 80 and info is not None and info.n_turns == 80
    assert {q.split()[0] for q in questions} == {"a", "b"}
