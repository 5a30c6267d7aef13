from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from memory.clock import SimulatedClock, SystemClock, iso, parse_instant


def test_simulated_clock_only_moves_when_told() -> None:
    clock = SimulatedClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    assert clock.now() == clock.now()
    clock.advance(minutes=5)
    assert clock.now() == datetime(2026, 3, 2, 9, 5, tzinfo=UTC)
    clock.advance(timedelta(hours=1), seconds=30)
    assert clock.now() == datetime(2026, 3, 2, 10, 5, 30, tzinfo=UTC)
    clock.set(datetime(2026, 3, 2, 12, 0, tzinfo=timezone(timedelta(hours=2))))
    assert clock.now() == datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
    assert clock.now().tzinfo == UTC


def test_naive_instants_are_refused() -> None:
    with pytest.raises(ValueError):
        SimulatedClock().set(datetime(2026, 3, 2, 9, 0))


def test_system_clock_is_tz_aware_utc() -> None:
    assert SystemClock().now().tzinfo == UTC


def test_iso_round_trip_and_sort_order() -> None:
    a = parse_instant("2026-03-02T09:14:00Z")
    b = a + timedelta(microseconds=1)
    assert parse_instant(iso(a)) == a
    assert iso(a) < iso(b)
