"""``helix-chat db copy``: files -> PostgreSQL -> files, verified by counts and checksums."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from engine.config import Settings
from engine.result import Answer, Result, Status
from helix_tui.cli import cli
from memory.clock import SimulatedClock
from memory.service import UserMemory
from sessions.store import SessionStore
from tests.memory.memfakes import fake_linker


def _fill(settings: Settings) -> None:
    clock = SimulatedClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    with UserMemory(settings, "ada", clock=clock, linker=fake_linker()) as mem:
        mem.state("Patient MRN 4471 (Ada Moreno) was started on metformin.", "s1")
        clock.advance(minutes=5)
        mem.store_fact(
            "patient:4471",
            "takes",
            "Compound::DB00945",
            supersedes=("patient:4471", "takes", "Compound::DB00331"),
        )
    with SessionStore(settings, "ada", clock) as store:
        result = Result(status=Status.ANSWERED, answers=[Answer(id="x", name="X", score=0.9)])
        store.add_turn("s1", "What is MRN 4471 on?", result)


def _facts(settings: Settings) -> list[tuple[Any, ...]]:
    clock = SimulatedClock()
    with UserMemory(settings, "ada", clock=clock) as mem:
        return [(f.triple, f.t_start, f.t_end, f.replaced_by is not None) for f in mem.facts()]


def test_copy_to_postgres_and_back(tmp_path: Path, pg_server: Any) -> None:
    pg_server.reset()
    files = Settings(home=tmp_path / "a", trace_exporter="none")
    _fill(files)
    runner = CliRunner()
    out = runner.invoke(
        cli, ["--home", str(files.home), "db", "copy", "--to", pg_server.app_url], obj={}
    )
    assert out.exit_code == 0, out.output
    assert "copied, verified" in out.output
    assert f"vault.facts: {len(_facts(files))} rows" in out.output and len(_facts(files)) >= 2
    on_pg = files.model_copy(update={"database_url": pg_server.app_url})
    assert _facts(on_pg) == _facts(files)
    again = runner.invoke(
        cli, ["--home", str(files.home), "db", "copy", "--to", pg_server.app_url], obj={}
    )
    assert again.exit_code != 0 and "already holds rows" in again.output
    back = Settings(home=tmp_path / "b", trace_exporter="none")
    out = runner.invoke(
        cli,
        ["--home", str(back.home), "db", "copy", "--from", pg_server.app_url, "--user", "ada"],
        obj={},
    )
    assert out.exit_code == 0, out.output
    assert _facts(back) == _facts(files)
    with SessionStore(back, "ada") as store:
        assert [t.question for t in store.turns("s1")] == ["What is MRN 4471 on?"]
