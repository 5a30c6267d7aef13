"""Clocks: every piece of memory code reads time from an injected ``Clock``.

``Clock`` is the port (``engine.ports``). ``SystemClock`` is the only place that touches the
wall clock; replays and tests use ``SimulatedClock`` so that TTLs, supersession times and cache
expiry follow simulated time.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engine.ports import Clock as Clock


class SystemClock:
    """The wall clock, in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class SimulatedClock:
    """A clock that only moves when told to (``set`` / ``advance``)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = as_utc(start) if start else datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def set(self, instant: datetime) -> None:
        self._now = as_utc(instant)

    def advance(
        self, delta: timedelta | None = None, *, seconds: float = 0.0, minutes: float = 0.0
    ) -> datetime:
        self._now += (delta or timedelta()) + timedelta(seconds=seconds, minutes=minutes)
        return self._now


def as_utc(instant: datetime) -> datetime:
    """The same instant in UTC; naive datetimes are refused (their zone is unknowable)."""
    if instant.tzinfo is None:
        raise ValueError(f"naive datetime {instant!r}: pass a tz-aware instant")
    return instant.astimezone(UTC)


def parse_instant(text: str) -> datetime:
    """Parse an ISO-8601 instant such as ``2026-03-02T09:14:00Z`` into UTC."""
    parsed = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    return as_utc(parsed)


def iso(instant: datetime) -> str:
    """Fixed-width, sortable UTC text form used in the SQLite stores."""
    return as_utc(instant).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def naive_utc(instant: datetime) -> datetime:
    """UTC wall time without tzinfo, for DuckDB ``TIMESTAMP`` columns."""
    return as_utc(instant).replace(tzinfo=None)


def from_naive_utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC)
