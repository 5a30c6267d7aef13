"""Forgetting a patient leaves nothing of them in the user's files: not in the traces of the
questions that named them, not in the deleted rows' bytes of the stores (issue 37, item 4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.config import Settings
from engine.events import StepEvent
from engine.result import Result, Status
from engine.telemetry import Tracing, spans_path
from engine.telemetry.scrub import forget_in_traces
from engine.telemetry.store import read_spans
from memory.clock import SimulatedClock
from memory.linking import StatementLinker
from memory.service import UserMemory
from sessions.store import SessionStore, mention_scrubber

USER = "u07"


def _ask_traced(settings: Settings, question: str, mention: str) -> None:
    """One question traced as the engine traces it: a root span and a linking step."""
    tracing = Tracing.from_settings(settings, environ={})
    with tracing.question(question, qid="q", session="s1", user=USER) as trace:
        trace.sink(StepEvent("link", "start", message="linking entities"))
        trace.sink(StepEvent("link", "end", data={"mentions": [mention]}))
        trace.finish(Result(status=Status.NOT_ANSWERED, text="nothing"))
    tracing.shutdown()


def _bytes_of(folder: Path, needle: bytes) -> dict[str, int]:
    """Occurrences of ``needle`` in every file under ``folder`` (the stores, WALs, traces)."""
    found = {}
    for path in folder.rglob("*"):
        if path.is_file() and (n := path.read_bytes().count(needle)):
            found[str(path.relative_to(folder))] = n
    return found


def test_forget_drops_the_traces_and_the_deleted_bytes(
    tmp_path: Path, clock: SimulatedClock, linker: StatementLinker
) -> None:
    settings = Settings(home=tmp_path / "home", user=USER, trace_exporter="jsonl")
    memory = UserMemory(
        settings,
        USER,
        clock=clock,
        linker=linker,
        forget_elsewhere=mention_scrubber(settings, USER, clock),
    )
    try:
        for text in (
            "Patient Ada Moreno (MRN 4471) was started on metformin today.",
            "MRN 5170 is allergic to aspirin.",
        ):
            clock.advance(minutes=5)
            assert memory.state(text, "s1") is not None
        asked = "What is Ada Moreno on at the moment?"
        answer = memory.answer(asked, [], session="s1")
        assert answer is not None
        memory.record(asked, answer, "s1")
        with SessionStore(settings, USER, clock) as store:
            store.add_turn("s1", asked, answer)
        _ask_traced(settings, asked, "Ada Moreno")
        _ask_traced(settings, "Is MRN 4471 still on metformin?", "4471")
        _ask_traced(settings, "Which drugs treat asthma?", "asthma")
        user_dir = settings.user_dir(USER)
        assert _bytes_of(user_dir, b"Moreno"), "the setup should have written the patient"
        assert {s.name for s in read_spans(spans_path(settings, USER))} >= {"helix.ask"}

        assert memory.forget("Ada Moreno") == 1
        assert memory.residue is None

        assert _bytes_of(user_dir, b"Moreno") == {}
        assert _bytes_of(user_dir, b"Ada") == {}
        assert _bytes_of(user_dir, b"4471") == {}
        questions = [
            s.attributes.get("helix.question")
            for s in read_spans(spans_path(settings, USER))
            if s.name == "helix.ask"
        ]
        assert questions == ["Which drugs treat asthma?"]
        # what was not forgotten is still there and still readable
        assert [f.obj for f in memory.facts()] == ["Compound::DB00945"]
        assert _bytes_of(user_dir, b"5170")
    finally:
        memory.close()


def test_forget_in_traces_searches_text_not_ids_or_times(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path, user=USER, trace_exporter="jsonl")
    _ask_traced(settings, "Which drugs treat asthma?", "asthma")
    path = spans_path(settings, USER)
    before = path.read_text()
    start = json.loads(before.splitlines()[0])["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    digits, trace_id = start["startTimeUnixNano"][3:9], start["traceId"][:8]
    assert forget_in_traces([path], [digits, trace_id, "", "  ", "zzz-not-there"]) == 0
    assert path.read_text() == before
    path.write_text(before + "not json, names Ada Moreno\n" + "not json either\n")
    assert forget_in_traces([path], ["ada moreno"]) == 1
    assert path.read_text() == before + "not json either\n"


def test_traces_that_cannot_be_rewritten_are_said_left_behind_and_the_rest_is_erased(
    tmp_path: Path, clock: SimulatedClock, linker: StatementLinker
) -> None:
    """A trace file forget may not replace (immutable here; a file of another owner or a
    full disk alike) is named in what forget left behind, with how to finish; the stores are
    still erased and compacted, and no half-written copy of the traces is left beside it."""
    import subprocess

    settings = Settings(home=tmp_path / "home", user=USER, trace_exporter="jsonl")
    memory = UserMemory(settings, USER, clock=clock, linker=linker)
    path = spans_path(settings, USER)
    try:
        assert memory.state("Patient Ada Moreno (MRN 4471) was started on metformin.") is not None
        _ask_traced(settings, "Is MRN 4471 still on metformin?", "4471")
        if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
            pytest.skip("chattr +i is not available on this file system")
        try:
            assert memory.forget("MRN 4471") == 1
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        left = memory.residue
        assert left is not None and f"traces in {path} still" in left, left
        assert "forget patient:4471 again" in left, left
        assert "\n" not in left and "Traceback" not in left
        assert b"4471" in path.read_bytes()  # said, not pretended
        user_dir = settings.user_dir(USER)
        assert {k for k in _bytes_of(user_dir, b"4471")} == {"traces/spans.jsonl"}
        assert not list(path.parent.glob("*.scrub"))
        assert memory.forget("patient:4471") == 0 and memory.residue is None  # finished
        assert _bytes_of(user_dir, b"4471") == {}
    finally:
        memory.close()
