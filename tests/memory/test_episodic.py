from __future__ import annotations

from pathlib import Path

from memory.clock import SimulatedClock
from memory.episodic import AsyncEpisodicStore, EpisodicStore


async def test_async_store_keeps_a_sliding_window_per_session(
    tmp_path: Path, clock: SimulatedClock
) -> None:
    async with AsyncEpisodicStore(tmp_path / "e.sqlite", clock, window=3) as store:
        for i in range(5):
            clock.advance(seconds=10)
            await store.add(
                "s1",
                f"q{i}",
                chain=[["a", "r", "b"]],
                evidence=[{"k": i}],
                quality=0.5,
                subject=f"patient:{i}",
            )
        await store.add("s2", "other session")
        recent = await store.recent("s1")
        assert [t.query for t in recent] == ["q2", "q3", "q4"]
        assert recent[-1].evidence == [{"k": 4}] and recent[-1].chain == [["a", "r", "b"]]
        assert [t.query for t in await store.recent("s2")] == ["other session"]
        assert await store.last_subject("s1") == "patient:4"


async def test_ttl_follows_the_simulated_clock(tmp_path: Path, clock: SimulatedClock) -> None:
    async with AsyncEpisodicStore(tmp_path / "e.sqlite", clock, ttl_minutes=30) as store:
        await store.add("s1", "old", subject="patient:1")
        clock.advance(minutes=20)
        await store.add("s1", "new")
        assert [t.query for t in await store.recent("s1")] == ["old", "new"]
        clock.advance(minutes=15)
        assert [t.query for t in await store.recent("s1")] == ["new"]
        assert await store.last_subject("s1") is None
        assert await store.prune() == 1
        assert [t.query for t in await store.all()] == ["new"]


async def test_forget_by_subject_and_by_mention(tmp_path: Path, clock: SimulatedClock) -> None:
    async with AsyncEpisodicStore(tmp_path / "e.sqlite", clock) as store:
        await store.add("s1", "about 4471", subject="patient:4471")
        await store.add("s1", "What is MRN 4471 on?")
        await store.add("s1", "evidence only", evidence=[{"id": "vault:7"}])
        await store.add("s1", "unrelated")
        assert await store.forget("patient:4471", ["4471", "vault:7"]) == 3
        assert [t.query for t in await store.all()] == ["unrelated"]


def test_sync_wrapper_runs_the_async_store(tmp_path: Path, clock: SimulatedClock) -> None:
    store = EpisodicStore(tmp_path / "e.sqlite", clock, window=2, ttl_minutes=30)
    try:
        for i in range(3):
            store.add("s", f"q{i}", subject="note:crispr-screen")
        assert [t.query for t in store.recent("s")] == ["q1", "q2"]
        assert store.last_subject("s") == "note:crispr-screen"
        assert store.delete_session("s") == 2
    finally:
        store.close()
    reopened = EpisodicStore(tmp_path / "e.sqlite", clock)
    try:
        assert reopened.all() == []
    finally:
        reopened.close()


def test_a_damaged_file_is_its_fault_and_no_thread_is_left_to_fail(
    tmp_path: Path, clock: SimulatedClock
) -> None:
    """Opening a damaged log raises its one sentence before any connection thread starts, so
    none is left to report to the store's loop after it closed."""
    import threading
    import time

    import pytest

    from engine.util.faults import MemoryFault

    path = tmp_path / "episodic.sqlite"
    path.write_bytes(b"SQLite format 3\0" + b"\xff" * 5000)
    failed: list[object] = []
    before = threading.excepthook
    threading.excepthook = failed.append
    try:
        for _ in range(5):
            with pytest.raises(MemoryFault, match="is damaged"):
                EpisodicStore(path, clock)
        time.sleep(0.3)
    finally:
        threading.excepthook = before
    assert failed == []
