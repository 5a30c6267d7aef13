"""The helix-chat command line on real stores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from helix_tui.cli import cli

pytestmark = pytest.mark.integration


def _run(home: Path, *args: str, stdin: str | None = None):  # type: ignore[no-untyped-def]
    env = {"HELIX_TRACE_EXPORTER": "none"}
    return CliRunner().invoke(cli, ["--home", str(home), *args], obj={}, input=stdin, env=env)


def test_ask_json_is_the_contract(small_home: Path) -> None:
    res = _run(small_home, "ask", "--json", "What drugs treat Alzheimer's disease?")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout.strip().splitlines()[-1])
    assert data["status"] == "ANSWERED"
    assert ["Compound::DB00843", "CtD", "Disease::DOID:10652"] in [
        e["triple"] for e in data["evidence"] if e["kind"] == "triple"
    ]


def test_ask_rich_output_and_bad_input_exit_codes(small_home: Path) -> None:
    res = _run(small_home, "ask", "What drugs treat Alzheimer's disease?")
    assert res.exit_code == 0 and "Donepezil" in res.output and "treats" in res.output
    empty = _run(small_home, "ask", "")
    assert empty.exit_code == 0 and "empty" in empty.output
    binary = _run(small_home, "ask", "-", stdin="\x00\x01\x02" * 50)
    assert binary.exit_code == 0 and "binary" in binary.output
    assert _run(small_home, "ask").exit_code == 2
    assert _run(small_home, "ask", "--mode", "nonsense", "x").exit_code == 2


def test_replay_scores_in_a_scratch_home(small_home: Path, tmp_path: Path) -> None:
    stream = tmp_path / "mini.replay.jsonl"
    events = [
        {
            "at": "2026-03-02T09:00:00Z",
            "user": "ua",
            "session": "ua-1",
            "type": "say",
            "text": "Started MRN 4471 on donepezil.",
            "fact": ["patient:4471", "takes", "Compound::DB00843"],
        },
        {
            "at": "2026-03-03T09:00:00Z",
            "user": "ua",
            "session": "ua-2",
            "type": "ask",
            "text": "What is MRN 4471 taking now?",
            "expect": "Compound::DB00843",
        },
        {
            "at": "2026-03-03T09:01:00Z",
            "user": "ub",
            "session": "ub-1",
            "type": "ask",
            "text": "What is MRN 4471 taking now?",
            "expect": None,
        },
    ]
    stream.write_text("".join(json.dumps(e) + "\n" for e in events))
    out = tmp_path / "out.jsonl"
    res = _run(small_home, "--replay", str(stream), "--out", str(out))
    assert res.exit_code == 0, res.output
    assert "Memory Recall@1" in res.output and "1.000" in res.output
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 2 and lines[1]["status"] == "NOT_ANSWERED"
    assert not (small_home / "users").exists() or not any(
        p.name.startswith("ua") for p in (small_home / "users").iterdir()
    )
    bad = tmp_path / "bad.replay.jsonl"
    bad.write_text('{"at": "nope"}\nnot json\n')
    res = _run(small_home, "--replay", str(bad))
    assert res.exit_code == 2
