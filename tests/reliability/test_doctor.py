"""``helix-chat doctor`` on real stores in tmp homes: a healthy slice passes, and each broken
variant fails (exit 1) naming the file and what to run."""

from __future__ import annotations

import contextlib
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


def _home_on(disk: Path, home_copy: Path) -> tuple[Path, Path]:
    """A data home on ``disk`` (its graph stores linked from ``home_copy``) with one user."""
    home = disk / "home"
    home.mkdir()
    (home / "stores").symlink_to(home_copy / "stores")
    user_dir = _with_user(home)
    from engine.result import Result, Status

    with UserMemory(
        Settings(home=home, trace_exporter="none"),
        "alice",
        clock=SimulatedClock(datetime(2026, 3, 3, tzinfo=UTC)),
    ) as m:  # a turn, so the SQLite stores hold rows too
        m.record("What does patient 1 take?", Result(status=Status.NOT_ANSWERED), "s1")
    return home, user_dir


def _digests(folder: Path) -> dict[str, str]:
    import hashlib

    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file() and p.suffix in (".duckdb", ".sqlite")
    }


def test_a_full_disk_is_said_and_no_intact_store_is_to_be_moved(
    small_disk: Path, home_copy: Path
) -> None:
    home, user_dir = _home_on(small_disk, home_copy)
    before = _digests(user_dir)
    filler = small_disk / "filler"
    with filler.open("wb") as fh, contextlib.suppress(OSError):
        while True:
            fh.write(b"\0" * 65536)
    res = _doctor(home)
    assert res.exit_code == 1, res.output
    flat = " ".join(res.output.split())
    assert "full" in flat and "free space on the disk" in flat
    assert "run mv" not in flat and "damaged" not in flat, res.output
    filler.unlink()
    assert _digests(user_dir) == before  # nothing was touched
    assert _doctor(home).exit_code == 0


def test_a_read_only_user_directory_is_said_and_nothing_moved(
    small_disk: Path, home_copy: Path
) -> None:
    import subprocess

    home, user_dir = _home_on(small_disk, home_copy)
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    res = _doctor(home)
    assert res.exit_code == 1, res.output
    flat = " ".join(res.output.split())
    assert f"make {user_dir} writable" in flat and "read-only" in flat
    assert "run mv" not in flat and "damaged" not in flat, res.output


def test_an_unreachable_database_fails_the_doctor(home_copy: Path) -> None:
    from tests.support.postgres import free_port

    url = f"postgresql://helix_app@127.0.0.1:{free_port()}/helix"
    res = CliRunner().invoke(
        cli, ["--home", str(home_copy), "doctor"], obj={}, env={"HELIX_DATABASE_URL": url}
    )
    assert res.exit_code == 1, res.output
    assert "cannot connect to HELIX_DATABASE_URL" in res.output
    assert "run start PostgreSQL" in res.output and "in place" not in res.output


def test_verify_reads_every_block_and_finds_one_overwritten(home_copy: Path) -> None:
    import duckdb

    user_dir = _with_user(home_copy)
    vault = user_dir / "vault.duckdb"
    con = duckdb.connect(str(vault))  # rows enough for many blocks, as a long-used vault has
    con.execute(
        "CREATE TABLE padding AS SELECT i, md5(i::VARCHAR) || md5((i + 1)::VARCHAR) AS t "
        "FROM range(400000) r(i)"
    )
    con.close()
    size = vault.stat().st_size
    with vault.open("r+b") as fh:  # one block in the middle of the file
        fh.seek(size // 2)
        fh.write(b"\xab" * 262144)
    plain = _doctor(home_copy)
    assert plain.exit_code == 0, plain.output  # the quick check reads no data blocks
    res = CliRunner().invoke(cli, ["--home", str(home_copy), "doctor", "--verify"], obj={})
    assert res.exit_code == 1, res.output
    flat = " ".join(res.output.split())
    assert "is damaged" in flat and "vault.duckdb: run mv " in flat


@pytest.mark.parametrize("name", ["names.faiss", "passages.faiss"])
def test_verify_finds_an_index_overwritten_inside(home_copy: Path, name: str) -> None:
    """FAISS keeps no checksum: an index whose vectors were overwritten still loads and
    searches (garbage); its build kept the file's sha256 beside it, and --verify compares."""
    path = home_copy / "stores" / name
    size = path.stat().st_size
    with path.open("r+b") as fh:  # 64 KB of vectors in the middle of the file
        fh.seek(size // 2)
        fh.write(b"\xab" * 65536)
    plain = _doctor(home_copy)
    assert plain.exit_code == 0, plain.output  # it loads, its ids in step
    res = CliRunner().invoke(cli, ["--home", str(home_copy), "doctor", "--verify"], obj={})
    assert res.exit_code == 1, res.output
    flat = " ".join(res.output.split())
    assert "is damaged" in flat and f"{name}: run helix-chat ingest --force" in flat, flat


def test_verify_passes_the_indexes_as_built(home_copy: Path) -> None:
    res = CliRunner().invoke(cli, ["--home", str(home_copy), "doctor", "--verify"], obj={})
    flat = " ".join(res.output.split())
    assert res.exit_code == 0 and flat.count("ids in step, its bytes as built") == 2, flat
