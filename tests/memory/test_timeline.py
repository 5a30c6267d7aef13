"""Temporal selection over a history, checked against hand-built intervals."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memory import timeline
from memory.router import Temporal
from memory.vault import Fact

T0 = datetime(2026, 3, 2, tzinfo=UTC)


def _fact(
    fid: int, obj: str, day: int, end: int | None = None, by: int | None = None, key: str = ""
) -> Fact:
    start = T0 + timedelta(days=day)
    return Fact(
        fid,
        "patient:1",
        "takes",
        obj,
        key,
        None,
        None,
        start,
        start,
        1,
        1.0,
        start,
        T0 + timedelta(days=end) if end is not None else None,
        by,
        None,
        "stated",
        None,
    )


HISTORY = [_fact(1, "A", 0, 1, 2), _fact(2, "B", 1, 3, 3), _fact(3, "C", 3, 5, 4), _fact(4, "D", 5)]


def _objs(facts: list[Fact]) -> list[str]:
    return [f.obj for f in facts]


def test_current_first_previous() -> None:
    assert _objs(timeline.select(HISTORY, Temporal.CURRENT)) == ["D"]
    assert _objs(timeline.select(HISTORY, Temporal.FIRST)) == ["A"]
    assert _objs(timeline.select(HISTORY, Temporal.PREVIOUS)) == ["C"]


def test_before_and_after_an_anchor() -> None:
    def is_b(f: Fact) -> bool:
        return f.obj == "B"

    assert _objs(timeline.select(HISTORY, Temporal.BEFORE, anchor=is_b)) == ["A"]
    assert _objs(timeline.select(HISTORY, Temporal.AFTER, anchor=is_b)) == ["C"]
    unknown = timeline.select(
        HISTORY, Temporal.BEFORE, anchor=lambda f: False, fallback=Temporal.PREVIOUS
    )
    assert _objs(unknown) == ["C"]


def test_as_of_an_instant() -> None:
    at = T0 + timedelta(days=2)
    assert _objs(timeline.select(HISTORY, Temporal.AS_OF, instant=at)) == ["B"]


def test_keys_keep_chains_apart() -> None:
    labs = [
        _fact(1, "HbA1c 7.0%", 0, 2, 3, "hba1c"),
        _fact(2, "LDL 100", 1, key="ldl"),
        _fact(3, "HbA1c 7.5%", 2, key="hba1c"),
    ]
    assert _objs(timeline.select(labs, Temporal.CURRENT)) == ["HbA1c 7.5%", "LDL 100"]
    assert _objs(timeline.select(labs, Temporal.PREVIOUS)) == ["HbA1c 7.0%"]
    assert _objs(timeline.select(labs, Temporal.FIRST)) == ["HbA1c 7.0%"]


def test_many_valued_previous_is_the_one_stated_before() -> None:
    both = [_fact(1, "X", 0), _fact(2, "Y", 1)]
    assert _objs(timeline.select(both, Temporal.CURRENT)) == ["Y", "X"]
    assert _objs(timeline.select(both, Temporal.PREVIOUS)) == ["X"]
