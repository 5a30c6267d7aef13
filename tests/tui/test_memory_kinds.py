"""The memory panel (and ``--inline``'s ``/memory``) shows what the user said apart from what
Helix looked up, from a real memory's facts, and ``/forget looked-up`` drops the latter."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from engine.config import Settings
from engine.result import Answer, Evidence, Result, Status
from helix_tui.facts import FactView
from helix_tui.memory_view import forget_in, memory_table
from memory.clock import SimulatedClock
from memory.service import UserMemory
from tests.memory.memfakes import fake_linker

LOOKED = ("Compound::DB04868", "CtD", "Disease::DOID:9352")


def test_the_panel_shows_the_users_word_first_and_the_looked_up_apart(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path, trace_exporter="none")
    clock = SimulatedClock(datetime(2026, 3, 2, 9, tzinfo=UTC))
    with UserMemory(settings, "alice", clock=clock, linker=fake_linker()) as memory:
        found = Result(
            question="What does nilotinib treat?",
            status=Status.ANSWERED,
            answers=[Answer(id=LOOKED[2], name="type 2 diabetes mellitus", score=0.9)],
            evidence=[Evidence(kind="triple", triple=LOOKED, score=0.9, source="hetionet")],
        )
        memory.record("What does nilotinib treat?", found, "s1")
        clock.advance(minutes=1)
        memory.state("MRN 4471 is on metformin 500 mg twice daily.", "s1")
        names = {"Compound::DB04868": "Nilotinib", "Disease::DOID:9352": "type 2 diabetes"}
        shown = memory_table([FactView.of(f) for f in memory.facts()], names, "alice")
        assert [(r.subject, r.object, r.source) for r in shown.rows] == [
            ("MRN 4471", "Metformin 500 mg twice daily", "you said"),
            ("Nilotinib", "type 2 diabetes", "looked up"),
        ]
        assert shown.summary == (
            "alice: 1 current fact you said; 1 looked up by Helix (/forget looked-up drops them)"
        )
        assert forget_in(memory, "looked-up") == (True, "Forgot 1 fact looked up")
        assert [f.source for f in memory.facts()] == ["stated"]
