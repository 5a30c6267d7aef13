"""A stated day is the time a value refers to: "his potassium was 5.9 on Tuesday" said on a
Friday holds from Tuesday, before a value stated earlier in the conversation for today."""

from __future__ import annotations

from datetime import UTC, datetime

from memory.clock import SimulatedClock
from memory.dates import find_dates
from memory.router import load_rules
from memory.service import UserMemory
from memory.stated import stated_instant

FRIDAY = datetime(2026, 3, 6, 10, 0, tzinfo=UTC)


def test_a_placed_weekday_is_the_latest_such_day() -> None:
    (tuesday,) = find_dates("his potassium was 5.9 on Tuesday", FRIDAY)
    assert tuesday.day.isoformat() == "2026-03-03" and tuesday.text == "Tuesday"
    (friday,) = find_dates("as of Friday", FRIDAY)
    assert friday.day.isoformat() == "2026-03-06"
    assert find_dates("Tuesday clinic is full", FRIDAY) == []  # not placed as a time


def test_a_value_said_for_an_earlier_day_is_history_not_the_current_one(
    memory: UserMemory, clock: SimulatedClock
) -> None:
    clock.set(FRIDAY)
    memory.state("MRN 5170 potassium 4.8 today", "s1")
    clock.advance(minutes=1)
    fact = memory.state("his potassium was 5.9 on Tuesday", "s1")
    assert fact is not None and fact.subj == "patient:5170"
    assert fact.t_start == datetime(2026, 3, 3, 12, 0, tzinfo=UTC) and not fact.current
    current = memory.answer("What is the latest potassium of MRN 5170?", [], session="s1")
    assert current is not None and current.answers[0].id == "potassium 4.8"
    first = memory.answer("What was the first potassium of MRN 5170?", [], session="s1")
    assert first is not None and first.answers[0].id == "potassium 5.9"
    tuesday = memory.answer("What was the potassium of MRN 5170 on Tuesday?", [], session="s1")
    assert tuesday is not None and tuesday.answers[0].id == "potassium 5.9"
    assert "2026-03-03" in (tuesday.text or "")


def test_a_value_said_for_last_week_answers_last_week(
    memory: UserMemory, clock: SimulatedClock
) -> None:
    clock.set(FRIDAY)
    memory.state("MRN 5170 sodium 131 last week", "s1")
    clock.advance(minutes=1)
    memory.state("MRN 5170 sodium 136 today", "s1")
    clock.advance(minutes=1)
    week = memory.answer("What was the sodium of MRN 5170 last week?", [], session="s1")
    assert week is not None and week.answers[0].id == "sodium 131"
    now = memory.answer("What is the sodium of MRN 5170 now?", [], session="s1")
    assert now is not None and now.answers[0].id == "sodium 136"
    previous = memory.answer("What was the previous sodium of MRN 5170?", [], session="s1")
    assert previous is not None and previous.answers[0].id == "sodium 131"


def test_the_stated_time_is_read_with_the_questions_time_words() -> None:
    rules = load_rules().temporal

    def at(text: str) -> datetime | None:
        return stated_instant(text, FRIDAY, rules.as_of, rules.as_of_days)

    assert at("her creatinine was 1.8 yesterday") == datetime(2026, 3, 5, 10, 0, tzinfo=UTC)
    assert at("sodium 131 three days ago") == datetime(2026, 3, 3, 10, 0, tzinfo=UTC)
    assert at("sodium 131 two weeks ago") == datetime(2026, 2, 20, 10, 0, tzinfo=UTC)
    assert at("on letrozole since January") == datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    assert at("K 5.9 last Monday") == datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    assert at("sodium 131 3 days ago") == datetime(2026, 3, 3, 10, 0, tzinfo=UTC)
    assert at("started on metformin on 2 March") == datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    assert at("potassium 4.8 today") is None
    assert at("Yesterday's seminar: nilotinib inhibits EPHB3.") is None  # the source's time
