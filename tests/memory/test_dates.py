"""Calendar dates in memory questions: read against the (simulated) clock, answered with the
value that held at the end of that day. Wordings are our own, not the dev stream's."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from engine.config import Settings
from engine.result import Result, Status
from memory.clock import SimulatedClock
from memory.dates import date_spans, end_of_day, find_dates
from memory.linking import StatementLinker
from memory.replay.run import run_replay
from memory.router import Router, Temporal
from memory.service import UserMemory
from tests.memory.memfakes import plain_memory

NOW = datetime(2026, 3, 9, 10, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Which drug was Omar on as of March 3?", date(2026, 3, 3)),
        ("meds for pt 5120 on 2026-03-05", date(2026, 3, 5)),
        ("what was he taking on the 4th of March", date(2026, 3, 4)),
        ("rx as at 3/5?", date(2026, 3, 5)),
        ("HbA1c on Mar. 2nd, 2025?", date(2025, 3, 2)),
        ("What was 5120 on back on 1 Feb?", date(2026, 2, 1)),
        ("regimen on Dec 20?", date(2025, 12, 20)),
        (
            "Mar 5: which drug was MRN 2210 on?",
            date(2026, 3, 5),
        ),  # a colon after it  # later than "now" this year: last year's
    ],
)
def test_dates_are_read_with_the_year_from_the_clock(text: str, day: date) -> None:
    assert [d.day for d in find_dates(text, NOW)] == [day]


@pytest.mark.parametrize(
    "text",
    [
        "What's the latest CA 19-9 on 3461?",
        "PASI 12/40 at the last visit",
        "What did we start in March 2026?",
        "HbA1c 7.5% for MRN 2209",
        "Any notes for the 30th of February?",
        "infusion started Mar 3:15",
    ],
)
def test_no_date_where_none_is_written(text: str) -> None:
    assert find_dates(text, NOW) == []


def test_a_date_is_one_span_however_it_is_written() -> None:
    text = "What was 5120 on as of the 4th of March 2026?"
    ((start, end),) = date_spans(text)
    assert text[start:end] == "the 4th of March 2026"


def test_end_of_day_is_cut_at_now() -> None:
    assert end_of_day(date(2026, 3, 4), NOW) == datetime(2026, 3, 4, 23, 59, 59, 999999, UTC)
    assert end_of_day(NOW.date(), NOW) == NOW


@pytest.mark.parametrize(
    ("question", "instant"),
    [
        ("What was pt 5120 on as of March 3?", datetime(2026, 3, 3, 23, 59, 59, 999999, UTC)),
        ("Omar Haddad's meds on the 4th of March?", datetime(2026, 3, 4, 23, 59, 59, 999999, UTC)),
        ("What was pt 5120 on before March 4?", datetime(2026, 3, 3, 23, 59, 59, 999999, UTC)),
    ],
)
def test_router_turns_a_date_into_an_as_of_instant(question: str, instant: datetime) -> None:
    intent = Router().temporal(question, NOW)
    assert intent.kind == Temporal.AS_OF and intent.as_of == instant and intent.explicit


def test_relative_times_and_anchors_still_read_as_before() -> None:
    router = Router()
    assert router.temporal("What was she on a week ago?", NOW).as_of == NOW - timedelta(days=7)
    assert router.temporal("labs 2 days ago", NOW).as_of == NOW - timedelta(days=2)
    before = router.temporal("What was pt 5120 on prior to doxazosin?", NOW)
    assert before.kind == Temporal.BEFORE and before.anchor == "doxazosin"
    assert router.temporal("What is pt 5120 on today?", NOW).kind == Temporal.CURRENT


def _top(result: Result | None) -> str | None:
    assert result is not None
    return result.answers[0].id if result.status == Status.ANSWERED else None


def test_dated_questions_answer_the_value_held_at_the_end_of_that_day(
    settings: Settings, linker: StatementLinker
) -> None:
    """A real DuckDB vault under tmp_path, filled over several simulated days."""
    clock = SimulatedClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    with UserMemory(settings, "u40", clock=clock, linker=linker) as mem:
        assert mem.state("Omar Haddad (MRN 5120) was started on doxazosin today.", "s1")
        clock.set(datetime(2026, 3, 4, 17, 30, tzinfo=UTC))
        assert mem.state("Switched MRN 5120 from doxazosin to prazosin.", "s2")
        clock.set(datetime(2026, 3, 6, 8, 15, tzinfo=UTC))
        assert mem.state("Switched MRN 5120 from prazosin to aspirin.", "s3")
        clock.set(NOW)
        doxazosin, prazosin, aspirin = (
            "Compound::DB00590",
            "Compound::DB00457",
            "Compound::DB00945",
        )
        assert _top(mem.answer("What was MRN 5120 on as of March 3?", [])) == doxazosin
        # switched late on the 4th: the end of that day already has the new drug
        assert _top(mem.answer("Omar Haddad's meds on the 4th of March?", [])) == prazosin
        assert _top(mem.answer("What was MRN 5120 taking on 2026-03-05?", [])) == prazosin
        assert _top(mem.answer("What was MRN 5120 on as at 3/4?", [])) == prazosin
        assert _top(mem.answer("What was MRN 5120 on before March 4?", [])) == doxazosin
        assert _top(mem.answer("What is MRN 5120 on now?", [])) == aspirin
        assert _top(mem.answer("What was MRN 5120 on a week ago?", [])) == doxazosin
        older = mem.answer("What was MRN 5120 on as of February 20?", [])
        assert older is not None and older.status == Status.NOT_ANSWERED


def test_replay_reads_dates_on_its_own_clock(tmp_path: Path, linker: StatementLinker) -> None:
    """The year comes from the replay's simulated clock (2031 here), not the wall clock."""
    patient = "patient:5120"
    events = [
        ("2031-05-02T09:00:00Z", "say", "MRN 5120 was started on doxazosin.", "Compound::DB00590"),
        ("2031-05-06T09:00:00Z", "say", "Switched MRN 5120 to prazosin.", "Compound::DB00457"),
        ("2031-05-09T09:00:00Z", "ask", "What was MRN 5120 on as of May 4?", "Compound::DB00590"),
        ("2031-05-09T09:01:00Z", "ask", "MRN 5120 meds on 2031-05-07?", "Compound::DB00457"),
    ]
    lines = []
    for at, kind, text, value in events:
        event: dict[str, object] = {"at": at, "user": "u40", "session": "u40-s1", "type": kind}
        event["text"] = text
        if kind == "say":
            event["fact"] = [patient, "takes", value]
            if "Switched" in text:
                event["supersedes"] = [patient, "takes", "Compound::DB00590"]
        else:
            event["expect"] = value
        lines.append(json.dumps(event))
    stream = tmp_path / "dated.replay.jsonl"
    stream.write_text("\n".join(lines) + "\n", encoding="utf-8")
    settings = Settings(home=tmp_path / "home", trace_exporter="none")
    report = run_replay(stream, settings, open_memory=plain_memory(linker))
    score = report.score
    assert score.probes == 2 and score.recall == 1.0, score.misses
