"""``helix-chat doctor`` on real stores in tmp homes: a healthy slice passes, and each broken
variant fails (exit 1) naming the file and what to run."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.config import Settings
from helix_tui.cli import cli
from memory.clock import SimulatedClock
from memory.service import UserMemory


def _doctor(home: Path):
    return CliRunner().invoke(cli, ["--home", str(home), "doctor"], obj={})


def _with_user(home: Path) -> Path:
    settings = Settings(home=home, trace_exporter="none")
    with UserMemory(settings, "alice", clock=SimulatedClock(datetime(2026, 3, 2, tzinfo=UTC))) as m:
        m.store_fact("patient:1", "takes", "Compound::DB00331")
    traces = m.dir / "traces"
    traces.mkdir()
    (traces / "spans.jsonl").write_text('{"resourceSpans": []}\n', encoding="utf-8")
    return m.dir


def test_a_healthy_home_passes(home_copy: Path) -> None:
    _with_user(home_copy)
    res = _doctor(home_copy)
    assert res.exit_code == 0, res.output
    for item in ("kg.duckdb", "names.faiss", "passages.faiss", "vault.duckdb", "spans.jsonl"):
        assert item in res.output
    assert "everything Helix needs is in place" in res.output


def test_an_empty_home_says_to_ingest(tmp_path: Path) -> None:
    res = _doctor(tmp_path)
    assert res.exit_code == 1
    assert "run helix-chat ingest" in res.output


@pytest.mark.parametrize(
    ("breakage", "expected"),
    [
        ("kg", "kg.duckdb: run helix-chat ingest --force"),
        ("passage-ids", "passages.faiss: run helix-chat ingest --force"),
        ("names", "names.faiss: run helix-chat ingest --force"),
        ("vault", "vault.duckdb: run mv "),
        ("episodic", "episodic.sqlite: run mv "),
        ("newer-schema", "upgrade helix-ragxmem"),
        ("users-is-a-file", "users: run mv "),
    ],
)
def test_each_broken_part_is_named_with_its_fix(
    home_copy: Path, breakage: str, expected: str
) -> None:
    user_dir = _with_user(home_copy)
    stores = home_copy / "stores"
    if breakage == "kg":
        data = (stores / "kg.duckdb").read_bytes()
        (stores / "kg.duckdb").write_bytes(data[:4096])
    elif breakage == "passage-ids":
        ids = stores / "passages.ids.json"
        ids.write_text(json.dumps(json.loads(ids.read_text())[:-2]), encoding="utf-8")
    elif breakage == "names":
        (stores / "names.faiss").write_bytes(b"\0" * 512)
    elif breakage == "vault":
        (user_dir / "vault.duckdb").write_bytes(b"not a database" * 100)
    elif breakage == "episodic":
        (user_dir / "episodic.sqlite").write_bytes(b"SQLite format 3\0" + b"\xff" * 5000)
    elif breakage == "newer-schema":
        con = sqlite3.connect(user_dir / "cache.sqlite")
        con.execute("INSERT INTO _migrations VALUES ('m999_from_the_future', 'x')")
        con.commit()
        con.close()
    elif breakage == "users-is-a-file":
        import shutil

        shutil.rmtree(home_copy / "users")
        (home_copy / "users").write_text("in the way")
    res = _doctor(home_copy)
    assert res.exit_code == 1, res.output
    assert expected in res.output, res.output
    assert "Traceback" not in res.output


def test_torn_trace_lines_are_a_warning_not_a_failure(home_copy: Path) -> None:
    user_dir = _with_user(home_copy)
    with (user_dir / "traces" / "spans.jsonl").open("ab") as fh:
        fh.write(b'{"resourceSpans": [\n\xff\xfe\n')
    res = _doctor(home_copy)
    assert res.exit_code == 0, res.output
    assert "2 of 3 lines unreadable" in res.output and "spans.jsonl: run mv" in res.output
