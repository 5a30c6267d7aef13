"""The headless replay: a small synthetic stream (fast) and the full dev stream (slow)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import pytest

from engine.config import Settings
from engine.result import Answer, Result, Status
from memory.linking import StatementLinker
from memory.replay.events import Event, ReplayFormatError, load_events
from memory.replay.run import format_report, run_replay
from memory.replay.score import ReplayScore
from tests.memory.memfakes import plain_memory

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
DEV_STREAM = SHARED / "bench" / "memory_dev.replay.jsonl"

P = "patient:4471"
STREAM = [
    {
        "at": "2026-03-02T09:00:00Z",
        "user": "u07",
        "session": "u07-s1",
        "type": "say",
        "text": "Patient Ada Moreno (MRN 4471) was started on metformin today.",
        "fact": [P, "takes", "Compound::DB00331"],
    },
    {
        "at": "2026-03-02T09:05:00Z",
        "user": "u12",
        "session": "u12-s1",
        "type": "say",
        "text": "Put MRN 4471 on midazolam, will review in two weeks.",
        "fact": [P, "takes", "Compound::DB00683"],
    },
    {
        "at": "2026-03-03T10:00:00Z",
        "user": "u07",
        "session": "u07-s2",
        "type": "say",
        "text": "Got Ada Moreno's results back, HbA1c 6.9%.",
        "fact": [P, "lab_value", "HbA1c 6.9%"],
    },
    {
        "at": "2026-03-05T16:40:00Z",
        "user": "u07",
        "session": "u07-s3",
        "type": "say",
        "text": "Switched MRN 4471 from metformin to sitagliptin.",
        "fact": [P, "takes", "Compound::DB01261"],
        "supersedes": [P, "takes", "Compound::DB00331"],
    },
    {
        "at": "2026-03-06T10:00:00Z",
        "user": "u07",
        "session": "u07-s4",
        "type": "say",
        "text": "Repeat for MRN 4471: HbA1c 7.5% (was HbA1c 6.9%).",
        "fact": [P, "lab_value", "HbA1c 7.5%"],
        "supersedes": [P, "lab_value", "HbA1c 6.9%"],
    },
    {
        "at": "2026-03-09T10:00:00Z",
        "user": "u07",
        "session": "u07-s9",
        "type": "ask",
        "text": "What is MRN 4471 on at the moment?",
        "expect": "Compound::DB01261",
    },
    {
        "at": "2026-03-09T10:00:30Z",
        "user": "u07",
        "session": "u07-s9",
        "type": "ask",
        "text": "What was Ada Moreno on before sitagliptin?",
        "expect": "Compound::DB00331",
        "temporal": "previous",
    },
    {
        "at": "2026-03-09T10:00:40Z",
        "user": "u07",
        "session": "u07-s9",
        "type": "ask",
        "text": "What was Ada Moreno's first HbA1c?",
        "expect": "HbA1c 6.9%",
        "temporal": "previous",
    },
    {
        "at": "2026-03-09T10:01:00Z",
        "user": "u12",
        "session": "u12-s4",
        "type": "ask",
        "text": "What is MRN 4471 on at the moment?",
        "expect": "Compound::DB00683",
    },
    {
        "at": "2026-03-09T10:02:00Z",
        "user": "u12",
        "session": "u12-s4",
        "type": "ask",
        "text": "Which allergy did we record for Ada Moreno?",
        "expect": None,
    },
    {
        "at": "2026-03-09T10:03:00Z",
        "user": "u12",
        "session": "u12-s4",
        "type": "ask",
        "text": "What is MRN 5170's latest HbA1c?",
        "expect": None,
    },
]


def _write(path: Path, events: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return path


@pytest.mark.parametrize("extract", ["fact", "text"])
def test_replay_scores_a_small_stream(
    tmp_path: Path, linker: StatementLinker, extract: str, backend: str | None
) -> None:
    stream = _write(tmp_path / "s.replay.jsonl", STREAM)
    out = tmp_path / "out.jsonl"
    settings = Settings(home=tmp_path / "home", trace_exporter="none", database_url=backend)
    seen: list[int] = []
    report = run_replay(
        stream,
        settings,
        open_memory=plain_memory(linker),
        out_path=out,
        extract=extract,  # type: ignore[arg-type]
        progress=lambda done, total: seen.append(done),
    )
    score = report.score
    assert score.current.n == 2 and score.current.recall == 1.0
    assert score.previous.n == 2 and score.previous.recall == 1.0
    assert score.null_probes == 2 and score.null_answered == 0 and score.leaks == 0
    assert seen[-1] == len(STREAM)
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 6
    for line in lines:
        assert {
            "id",
            "status",
            "answers",
            "evidence",
            "paths",
            "clarification",
            "latency_ms",
            "user",
            "session",
            "at",
            "expect",
        } <= set(line)
    assert lines[0]["answers"][0]["id"] == "Compound::DB01261"
    assert lines[-1]["status"] == "NOT_ANSWERED"
    text = format_report(report)
    assert "Memory Recall@1" in text and "cross-user leaks" in text


def test_an_ask_that_is_not_about_memory_says_why_it_is_not_answered(
    tmp_path: Path, linker: StatementLinker
) -> None:
    ask = {**STREAM[5], "text": "Which drugs treat asthma?"}
    ask.pop("expect")
    stream = _write(tmp_path / "g.replay.jsonl", [STREAM[0], ask])
    out = tmp_path / "out.jsonl"
    settings = Settings(home=tmp_path / "home", trace_exporter="none")
    run_replay(stream, settings, open_memory=plain_memory(linker), out_path=out)
    (line,) = [json.loads(x) for x in out.read_text().splitlines()]
    assert line["status"] == "NOT_ANSWERED" and line["stop_reason"] == "not-a-memory-question"
    assert "answers from memory alone" in line["text"] and "--tui" in line["text"]


def test_malformed_lines_are_reported_with_line_numbers(
    tmp_path: Path, linker: StatementLinker
) -> None:
    path = tmp_path / "bad.replay.jsonl"
    lines = [
        json.dumps(STREAM[0]),
        "{not json",
        json.dumps({**STREAM[1], "type": "shout"}),
        json.dumps(STREAM[2]),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    settings = Settings(home=tmp_path / "home", trace_exporter="none")
    with pytest.raises(ReplayFormatError) as err:
        run_replay(path, settings, open_memory=plain_memory(linker))
    assert [n for n, _ in err.value.errors] == [2, 3]
    assert "line 2" in str(err.value)
    assert not settings.users_dir.exists()  # validated before anything was stored


def test_time_must_not_go_backwards(tmp_path: Path) -> None:
    path = _write(tmp_path / "t.replay.jsonl", [STREAM[3], STREAM[0]])
    with pytest.raises(ReplayFormatError, match="backwards"):
        load_events(path)


@pytest.mark.slow
@pytest.mark.needs_shared
def test_full_dev_replay_meets_the_targets(tmp_path: Path) -> None:
    if not DEV_STREAM.exists():
        pytest.skip("../shared/bench is not available")
    from engine.ingest.build import stores_ready
    from wiring.open import memory_opener, open_engine

    engine_settings = Settings(trace_exporter="none")  # HELIX_HOME: an ingested data home
    if not stores_ready(engine_settings):
        pytest.skip("no ingested HELIX_HOME to link entities with")
    helix = open_engine(engine_settings)
    for extract, current, previous in (("fact", 0.95, 0.90), ("text", 0.85, 0.85)):
        settings = Settings(home=tmp_path / extract, trace_exporter="none")
        report = run_replay(
            DEV_STREAM,
            settings,
            open_memory=memory_opener(helix),
            extract=extract,  # type: ignore[arg-type]
        )
        print(format_report(report))
        assert report.score.current.recall >= current
        assert report.score.previous.recall >= previous
        assert report.score.leaks == 0
        assert report.wall_s <= 120


def _answered(node: str, source: Literal["kg", "memory", "dense"] = "memory") -> Result:
    answer = Answer(id=node, name=node, score=1.0, source=source)
    return Result(status=Status.ANSWERED, answers=[answer])


def test_a_null_probe_answered_with_another_users_value_is_a_leak() -> None:
    probe = Event.model_validate(STREAM[-1])  # u12 asks; expect null
    score = ReplayScore()
    score.said(Event.model_validate(STREAM[0]))  # u07 states Compound::DB00331
    verdict = score.check(probe, _answered("Compound::DB00331"))
    assert verdict.leak and not verdict.hit and "another user" in verdict.text
    assert score.null_answered == 1 and score.leaks == 1


def test_an_answer_from_the_users_own_memory_is_wrong_but_not_a_leak() -> None:
    probe = Event.model_validate(STREAM[-1])
    score = ReplayScore()
    score.said(Event.model_validate(STREAM[1]))  # u12 itself states Compound::DB00683
    own = score.check(probe, _answered("Compound::DB00683"))
    unstated = score.check(probe, _answered("Compound::DB09999", source="kg"))
    assert not own.leak and not own.hit and not unstated.leak
    assert score.null_answered == 2 and score.leaks == 0
    assert score.summary() == "Replay finished: Memory Recall@1 n/a · leaks 0/2"


def test_probes_are_tallied_by_kind_and_relation() -> None:
    score = ReplayScore()
    current, previous = Event.model_validate(STREAM[5]), Event.model_validate(STREAM[6])
    hit = _answered("Compound::DB01261").model_copy(update={"intent": "memory:takes:current"})
    assert score.check(current, hit).text == "✓ top answer is Compound::DB01261"
    miss = score.check(previous, Result(status=Status.NOT_ANSWERED))
    assert miss.text == "✗ expected Compound::DB00331, top answer none"
    assert (score.current.hits, score.previous.hits, score.probes) == (1, 0, 2)
    assert score.by_relation["takes"].n == 1 and score.by_relation["unanswered"].n == 1
    assert score.misses[0]["expect"] == "Compound::DB00331"
    assert score.summary() == "Replay finished: Memory Recall@1 1/2 · leaks 0/0"
