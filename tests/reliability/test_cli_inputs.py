"""``helix-chat`` input surfaces: user ids, questions that look like options, and a hostile eval
file run in a child process that must write nothing outside its ``$HELIX_HOME``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from helix_tui.cli import cli
from tests.reliability.conftest import HELIX, REPO, files_under, subprocess_env
from tests.reliability.strategies import NASTY


def _run(*args: str):
    return CliRunner().invoke(cli, list(args), obj={})


@pytest.mark.parametrize("user", ["", "   ", "\udcff", "a\x00b", "x" * 500])
@pytest.mark.parametrize("command", [["ask", "What treats asthma?"], ["mcp"], ["trace", "--last"]])
def test_unusable_user_ids_are_a_usage_error(tmp_path: Path, user: str, command) -> None:
    res = _run("--home", str(tmp_path), "--user", user, *command)
    assert res.exit_code == 2
    assert "give a name such as --user alice" in res.output
    assert not (tmp_path / "stores").exists()


def test_mcp_own_user_option_is_checked_too(tmp_path: Path) -> None:
    res = _run("--home", str(tmp_path), "mcp", "--user", "")
    assert res.exit_code == 2 and "the user id is empty" in res.output.lower()


def test_ask_help_shows_how_to_ask_a_question_starting_with_a_dash() -> None:
    res = _run("ask", "--help")
    assert res.exit_code == 0 and 'helix-chat ask -- "-x' in res.output


def test_a_question_starting_with_a_dash_is_asked(small_home: Path) -> None:
    res = _run(
        "--home",
        str(small_home),
        "--user",
        "t",
        "ask",
        "--json",
        "--",
        "-x what drugs treat Alzheimer's disease?",
    )
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["status"] == "ANSWERED"


def test_a_hostile_eval_file_runs_whole_and_writes_only_under_the_home(
    small_home: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    (home / "stores").parent.mkdir(parents=True)
    (home / "stores").symlink_to(small_home / "stores")
    sandbox = tmp_path / "sandbox"
    work = tmp_path / "cwd"
    work.mkdir()
    bench = tmp_path / "bench.jsonl"
    questions: list[object] = [*NASTY[:12], 42, None, ["a"], {"q": 1}]
    with bench.open("w", encoding="utf-8") as fh:
        for i, q in enumerate(questions):
            rec = {"id": f"q{i}", "kind": "one_hop", "question": q, "expect_status": "NOT_ANSWERED"}
            fh.write(json.dumps(rec, ensure_ascii=True) + "\n")
    out = home / "out.jsonl"
    before = files_under(sandbox) if sandbox.exists() else []
    proc = subprocess.run(
        [*HELIX, "--user", "fuzz", "eval", "--bench", str(bench), "--out", str(out)],
        env=subprocess_env(home, sandbox),
        cwd=work,
        capture_output=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")[-2000:]
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == [f"q{i}" for i in range(len(questions))]
    assert sum("not a string" in r.get("error", "") for r in rows) == 4
    assert files_under(sandbox) == before, "written outside HELIX_HOME"
    assert files_under(work) == []
    assert (REPO / "tests").is_dir()
