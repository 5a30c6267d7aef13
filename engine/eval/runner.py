"""Running a benchmark through an engine and scoring result files.

The engine only ever sees each question's ``id`` and ``question`` text: the runner copies those
two fields out of the gold record before asking, and the gold record (``seeds``, ``answers``,
``gold_*``) is used for scoring alone.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any, Literal, NamedTuple, Protocol

from engine.config import Mode
from engine.eval.report import EvalReport, score
from engine.result import Result

__all__ = [
    "AskEngine",
    "BenchFileError",
    "Progress",
    "QuestionInput",
    "load_questions",
    "load_results",
    "out_path_for",
    "run_eval",
    "score",
    "score_file",
]

Progress = Callable[[int], None]
"""Called with 1 after each question (e.g. ``lambda n: progress.advance(task, n)``)."""

REQUIRED_FIELDS = ("id", "kind", "question", "expect_status")


class AskEngine(Protocol):
    """What the runner needs from an engine (``engine.api.Helix`` satisfies it)."""

    def ask(self, question: str, *, mode: Mode | None = None, qid: str | None = None) -> Result: ...


class QuestionInput(NamedTuple):
    """The only part of a benchmark record a system under test may see. ``question`` is what
    the file holds: a question that is not a string is recorded as an error row, never asked."""

    id: str
    question: object


class BenchFileError(ValueError):
    """A question or result file that cannot be read: the message names the file and line."""


def _read_jsonl(path: str | Path) -> list[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for each non-blank line of a JSONL file."""
    rows: list[tuple[int, dict[str, Any]]] = []
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise BenchFileError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    for lineno, data in enumerate(raw.split(b"\n"), start=1):
        try:
            line = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BenchFileError(
                f"{path}:{lineno}: not valid UTF-8 (byte {exc.start + 1}); save the file as UTF-8"
            ) from None
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise BenchFileError(f"{path}:{lineno}: not valid JSON ({exc})") from None
        if not isinstance(row, dict):
            raise BenchFileError(f"{path}:{lineno}: expected a JSON object")
        rows.append((lineno, row))
    return rows


def load_questions(path: str | Path) -> list[dict[str, Any]]:
    """Gold records of a benchmark file, each tagged with ``bench`` (the file's stem)."""
    bench = Path(path).name.removesuffix(".jsonl")
    records: list[dict[str, Any]] = []
    seen: set[str] = set()
    for lineno, rec in _read_jsonl(path):
        absent = [f for f in REQUIRED_FIELDS if f not in rec]
        if absent:
            raise BenchFileError(f"{path}:{lineno}: the record lacks {', '.join(absent)}")
        key = str(rec["id"])
        if key in seen:
            raise BenchFileError(f"{path}:{lineno}: duplicate id {key!r}")
        seen.add(key)
        rec.setdefault("bench", bench)
        records.append(rec)
    return records


def load_results(path: str | Path) -> list[dict[str, Any]]:
    """Result objects of a results JSONL file (one ``to_contract()`` object with ``id`` a line)."""
    rows = _read_jsonl(path)
    for lineno, row in rows:
        if "id" not in row:
            raise BenchFileError(f"{path}:{lineno}: the result has no id")
    return [row for _, row in rows]


def out_path_for(out_path: str | Path, mode: str) -> Path:
    """Results path of one mode when several are compared.

    ``runs/r.jsonl`` -> ``runs/r.dense.jsonl``."""
    p = Path(out_path)
    return p.with_name(f"{p.name.removesuffix('.jsonl')}.{mode}.jsonl")


def _error_row(item: QuestionInput, mode: Mode | None, error: str, ms: float) -> dict[str, Any]:
    return {
        "id": item.id,
        "status": "NOT_ANSWERED",
        "answers": [],
        "evidence": [],
        "paths": [],
        "clarification": None,
        "latency_ms": ms,
        "mode": mode,
        "error": error,
    }


def _ask_one(
    engine: AskEngine,
    item: QuestionInput,
    mode: Mode | None,
    on_error: Literal["record", "raise"],
) -> dict[str, Any]:
    start = time.perf_counter()
    if not isinstance(item.question, str):
        problem = f"the question is a JSON {type(item.question).__name__}, not a string"
        if on_error == "raise":
            raise BenchFileError(f"question {item.id}: {problem}")
        return _error_row(item, mode, problem, 0.0)
    try:
        result = engine.ask(item.question, mode=mode, qid=item.id)
    except Exception as exc:
        if on_error == "raise":
            raise
        ms = (time.perf_counter() - start) * 1000.0
        return _error_row(item, mode, f"{type(exc).__name__}: {exc}", ms)
    wall_ms = (time.perf_counter() - start) * 1000.0
    row = result.to_contract()
    row["id"] = item.id
    if not row.get("latency_ms"):
        row["latency_ms"] = wall_ms
    row["eval_wall_ms"] = wall_ms
    return row


def run_eval(
    engine: AskEngine,
    questions: Sequence[Mapping[str, Any]],
    *,
    mode: Mode | None,
    out_path: str | Path | None = None,
    progress: Progress | None = None,
    warmup: Iterable[str] = (),
    on_error: Literal["record", "raise"] = "record",
) -> list[dict[str, Any]]:
    """Ask every question in one warm process; return (and write) one result object each.

    ``warmup`` questions are asked first and discarded, so lazy loading stays out of the latency.
    An exception on a question is recorded as a ``NOT_ANSWERED`` row with an ``error`` key
    (``on_error="record"``) or propagates (``"raise"``). Rows are written to ``out_path`` as JSONL
    as they come, so an interrupted run keeps what it did.
    """
    inputs = [QuestionInput(str(q["id"]), q["question"]) for q in questions]
    for text in warmup:
        if isinstance(text, str):
            engine.ask(text, mode=mode)
    rows: list[dict[str, Any]] = []
    with ExitStack() as stack:
        sink: IO[str] | None = None
        if out_path is not None:
            path = Path(out_path)
            path.parent.mkdir(parents=True, exist_ok=True)
            # a lone surrogate is written as its JSON escape (\ud800), not refused
            sink = stack.enter_context(path.open("w", encoding="utf-8", errors="backslashreplace"))
        for item in inputs:
            row = _ask_one(engine, item, mode, on_error)
            rows.append(row)
            if sink is not None:
                sink.write(json.dumps(row, ensure_ascii=False) + "\n")
                sink.flush()
            if progress is not None:
                progress(1)
    return rows


def score_file(
    bench_path: str | Path | Sequence[str | Path], results_path: str | Path
) -> EvalReport:
    """Score a previously written results file against one or several benchmark files."""
    paths = [bench_path] if isinstance(bench_path, str | Path) else list(bench_path)
    gold = [rec for p in paths for rec in load_questions(p)]
    return score(gold, load_results(results_path))
