"""Hostile eval question files and replay files: either they load, or the error names the file
and the line, never a traceback from deep inside."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.eval import BenchFileError, load_questions, run_eval
from memory.replay.events import ReplayFormatError, load_events
from tests.reliability.strategies import json_values, nasty_text

FUZZ = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    database=None,
)


def _line(value: object) -> bytes:
    """A JSON line; lone surrogates written as their escape, as any JSON writer would."""
    return json.dumps(value, ensure_ascii=True).encode("ascii")


question_record = st.fixed_dictionaries(
    {"id": json_values, "kind": st.just("one_hop"), "question": json_values},
    optional={"expect_status": st.sampled_from(["ANSWERED", "NOT_ANSWERED"])},
)
replay_event = st.fixed_dictionaries(
    {
        "at": st.sampled_from(["2026-03-02T09:00:00Z", "yesterday", "9999-99-99"]) | nasty_text,
        "user": nasty_text,
        "session": nasty_text,
        "type": st.sampled_from(["say", "ask", "shout"]),
        "text": nasty_text,
    },
    optional={"fact": json_values, "expect": json_values},
)
raw_lines = st.one_of(
    st.binary(max_size=40),
    json_values.map(_line),
    st.just(b'{"id": "q1", "kind": "one_hop", "question": "x", "expect_status": "ANSWERED"'),
)


def _write(tmp_path: Path, lines: list[bytes], name: str) -> Path:
    path = tmp_path / name
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _count(path: Path) -> int:
    """Lines as an editor numbers them."""
    return path.read_bytes().count(b"\n") + 1


LINE_REF = re.compile(r":(\d+): ")


@FUZZ
@given(lines=st.lists(question_record.map(_line) | raw_lines, max_size=6))
def test_question_files_load_or_name_file_and_line(tmp_path: Path, lines: list[bytes]) -> None:
    path = _write(tmp_path, lines, "bench.jsonl")
    try:
        records = load_questions(path)
    except BenchFileError as exc:
        text = str(exc)
        assert text.startswith(f"{path}:"), text
        assert "\n" not in text
        found = LINE_REF.search(text)
        assert found and 1 <= int(found.group(1)) <= _count(path), text
        return
    assert all(isinstance(r, dict) and "question" in r for r in records)


@FUZZ
@given(lines=st.lists(replay_event.map(_line) | raw_lines, max_size=6))
def test_replay_files_load_or_name_file_and_line(tmp_path: Path, lines: list[bytes]) -> None:
    path = _write(tmp_path, lines, "stream.replay.jsonl")
    try:
        events = load_events(path)
    except ReplayFormatError as exc:
        assert str(exc).startswith(f"{path}:")
        assert exc.errors and all(1 <= n <= _count(path) for n, _ in exc.errors)
        return
    assert all(e.user and e.text.strip() for e in events)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (
            b'{"id": "q1", "kind": "one_hop", "question": "caf\xe9?", "expect_status": "ANSWERED"}',
            ":1: not valid UTF-8",
        ),
        (
            b'{"id": "q1", "kind": "one_hop", "question": "x", "expect_status": "ANSWERED"}\n'
            b'{"id": "q2", "kind": ',
            ":2: not valid JSON",
        ),
        (
            b'{"id": "q1", "kind": "one_hop", "expect_status": "ANSWERED"}',
            ":1: the record lacks question",
        ),
        (b"[1, 2]", ":1: expected a JSON object"),
    ],
)
def test_malformed_question_files_name_file_and_line(
    tmp_path: Path, content: bytes, expected: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    with pytest.raises(BenchFileError) as err:
        load_questions(path)
    assert str(err.value).startswith(str(path)) and expected in str(err.value)


def test_malformed_replay_bytes_name_file_and_line(tmp_path: Path) -> None:
    good = (
        b'{"at": "2026-03-02T09:00:00Z", "user": "a", "session": "s", "type": "say", "text": "x"}'
    )
    path = tmp_path / "bad.replay.jsonl"
    path.write_bytes(good + b"\n" + good.replace(b'"x"', b'"caf\xe9"') + b"\n")
    with pytest.raises(ReplayFormatError) as err:
        load_events(path)
    assert err.value.errors[0][0] == 2 and "UTF-8" in err.value.errors[0][1]


class Echo:
    """An engine that answers every string question; anything else would be a bug upstream."""

    def ask(self, question, *, mode=None, qid=None):
        from engine.result import Result, Status

        assert isinstance(question, str)
        return Result(question=question, status=Status.NOT_ANSWERED, text="no", id=qid)


def test_a_non_string_or_broken_first_question_does_not_abort_the_eval(tmp_path: Path) -> None:
    records = [
        {"id": "q1", "kind": "one_hop", "question": 42, "expect_status": "ANSWERED"},
        {"id": "q2", "kind": "one_hop", "question": "x\ud800", "expect_status": "ANSWERED"},
        {"id": "q3", "kind": "one_hop", "question": None, "expect_status": "ANSWERED"},
        {"id": "q4", "kind": "one_hop", "question": "What?", "expect_status": "ANSWERED"},
    ]
    out = tmp_path / "out.jsonl"
    rows = run_eval(Echo(), records, mode=None, out_path=out, warmup=[42, "x\ud800"])
    assert [r["id"] for r in rows] == ["q1", "q2", "q3", "q4"]
    assert "not a string" in rows[0]["error"] and "not a string" in rows[2]["error"]
    assert [json.loads(x)["id"] for x in out.read_text(encoding="utf-8").splitlines()] == [
        "q1",
        "q2",
        "q3",
        "q4",
    ]
