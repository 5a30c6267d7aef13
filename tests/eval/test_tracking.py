"""``eval --track`` / ``--replay --track`` / ``eval --compare-runs``: runs in a real MLflow store.

The pure parts (metric keys, memory figures, the comparison's order and signs) are tested
without MLflow; the end-to-end test logs evals of a tiny question file on the small real stores
to a SQLite tracking store in ``tmp_path`` and reads them back with ``MlflowClient``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.config import Settings
from engine.eval import score
from engine.eval.report_data import DayRecall
from engine.eval.tracking import (
    INSTALL_HINT,
    TrackedRun,
    compare_table,
    diff_metrics,
    eval_metrics,
    memory_metrics,
    metric_key,
    param_changes,
)
from engine.eval.tracking.compare import direction
from helix_tui.cli import cli

AD, DONEPEZIL = "Disease::DOID:10652", "Compound::DB00843"
QUESTIONS = [
    {
        "id": "t1", "kind": "one_hop", "question": "What drugs treat Alzheimer's disease?",
        "expect_status": "ANSWERED", "seeds": [AD], "answers": [DONEPEZIL],
        "gold_triples": [[DONEPEZIL, "CtD", AD]],
    },
    {
        "id": "t2", "kind": "not_found", "question": "What is emapalumab used for?",
        "expect_status": "NOT_ANSWERED", "answers": [], "gold_triples": [],
    },
]  # fmt: skip
STREAM = [
    {"at": "2026-03-02T09:00:00Z", "user": "ua", "session": "ua-1", "type": "say",
     "text": "Started MRN 4471 on donepezil.", "fact": ["patient:4471", "takes", DONEPEZIL]},
    {"at": "2026-03-03T09:00:00Z", "user": "ua", "session": "ua-2", "type": "ask",
     "text": "What is MRN 4471 taking now?", "expect": DONEPEZIL},
]  # fmt: skip


def _row(qid: str, status: str, answer: str | None, ms: float) -> dict[str, object]:
    return {
        "id": qid, "status": status, "answers": [{"id": answer, "score": 0.9}] if answer else [],
        "evidence": [], "paths": [], "clarification": None, "latency_ms": ms,
        "timings": {"plan": ms / 2, "walk": ms / 4},
    }  # fmt: skip


# --- without MLflow -------------------------------------------------------------------------------


def test_metric_keys_are_what_mlflow_accepts() -> None:
    assert metric_key("kind", "one_hop", "hit@1") == "kind/one_hop/hit_at_1"
    assert metric_key("bench", "dev (v2)+x", "mrr") == "bench/dev _v2__x/mrr"


def test_one_mode_keys_are_bare_and_several_modes_are_prefixed() -> None:
    gold = [{**q, "bench": "tiny"} for q in QUESTIONS]
    hybrid = score(
        gold, [_row("t1", "ANSWERED", DONEPEZIL, 80.0), _row("t2", "ANSWERED", AD, 40.0)]
    )
    dense = score(gold, [_row("t1", "ANSWERED", AD, 20.0), _row("t2", "NOT_ANSWERED", None, 10.0)])
    one = eval_metrics({"hybrid": hybrid})
    assert one["overall/hit_at_1"] == 1.0
    assert one["kind/one_hop/evidence_recall_at_5"] == 0.0
    assert one["kind/not_found/status_acc"] == 0.0
    assert one["bench/tiny/questions"] == 2.0
    assert one["overall/latency_p50_ms"] == pytest.approx(60.0)
    assert one["stage/plan/p95_ms"] == pytest.approx(39.0)
    both = eval_metrics({"hybrid": hybrid, "dense": dense})
    assert both["dense/kind/not_found/status_acc"] == 1.0
    assert both["hybrid/overall/hit_at_1"] == 1.0
    assert not any(k.startswith("overall/") for k in both)


def test_memory_figures_take_numbers_relations_and_days() -> None:
    summary = {"extract": "fact", "recall_at_1": 0.5, "leaks": 1, "asks": 4, "flag": True}
    out = memory_metrics(summary, {"takes": (0.5, 2)}, [DayRecall("2026-03-02", 2, 1)])
    assert out == {
        "memory/recall_at_1": 0.5,
        "memory/leaks": 1.0,
        "memory/asks": 4.0,
        "memory/relation/takes/recall_at_1": 0.5,
        "memory/relation/takes/probes": 2.0,
        "memory/day/2026-03-02/recall_at_1": 0.5,
        "memory/day/2026-03-02/probes": 2.0,
    }


def test_the_comparison_orders_rows_and_colours_by_which_way_is_better() -> None:
    a = {"stage/walk/p50_ms": 3.0, "kind/one_hop/mrr": 0.5, "overall/hit_at_1": 0.5}
    b = {"overall/hit_at_1": 0.75, "overall/latency_p95_ms": 90.0, "kind/one_hop/mrr": 0.5}
    diffs = diff_metrics(a, b)
    assert [d.key for d in diffs] == [
        "overall/hit_at_1", "overall/latency_p95_ms", "kind/one_hop/mrr", "stage/walk/p50_ms",
    ]  # fmt: skip
    assert diffs[0].delta == pytest.approx(0.25) and diffs[1].delta is None
    assert direction("overall/latency_p95_ms") == -1 and direction("overall/mrr") == 1
    assert direction("bench/x/questions") == 0 and direction("memory/leaks") == -1
    assert param_changes({"mode": "hybrid", "x": "1"}, {"mode": "dense", "x": "1"}) == [
        ("mode", "hybrid", "dense")
    ]
    table = compare_table(TrackedRun("a" * 32, "before", {}, a), TrackedRun("b" * 32, "", {}, b))
    assert [c.header for c in table.columns] == ["Metric", "A", "B", "B - A"]
    assert table.row_count == 4


def test_the_default_store_is_sqlite_under_the_data_home(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path / "h", mlflow_tracking_uri="")
    assert settings.tracking_uri == f"sqlite:///{(tmp_path / 'h' / 'mlruns' / 'mlflow.db')}"
    given = Settings(home=tmp_path, mlflow_tracking_uri="http://127.0.0.1:5000")
    assert given.tracking_uri == "http://127.0.0.1:5000"


def test_track_without_mlflow_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "mlflow", None)  # `import mlflow` raises ImportError
    bench = tmp_path / "tiny.jsonl"
    bench.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    home = tmp_path / "home"
    res = CliRunner().invoke(
        cli, ["--home", str(home), "eval", "--bench", str(bench), "--track"], obj={}
    )
    assert res.exit_code == 1
    assert INSTALL_HINT in " ".join(res.output.split())
    assert not (home / "stores").exists(), "the eval ran before the tracker was checked"


def test_compare_runs_is_given_no_bench(tmp_path: Path) -> None:
    bench = tmp_path / "tiny.jsonl"
    bench.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    res = CliRunner().invoke(
        cli, ["eval", "--compare-runs", "a", "b", "--bench", str(bench)], obj={}
    )
    assert res.exit_code == 2 and "give no --bench" in res.output
    assert "Missing option '--bench'" in CliRunner().invoke(cli, ["eval"], obj={}).output


# --- with MLflow, on the small real stores --------------------------------------------------------


SQLALCHEMY_21 = "ignore:The ``noload`` loader strategy:DeprecationWarning"
"""MLflow's store still asks SQLAlchemy 2.1 for a loader it deprecates (not ours to mend)."""


@pytest.fixture
def mlflow_client():  # type: ignore[no-untyped-def]
    pytest.importorskip("mlflow", reason="MLflow is not installed (pip install -e '.[track]')")
    from mlflow import MlflowClient

    return MlflowClient


@pytest.fixture(scope="module")
def store_uri(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One SQLite tracking store for the module (a new one costs MLflow's migrations)."""
    return f"sqlite:///{tmp_path_factory.mktemp('track') / 'mlruns' / 'mlflow.db'}"


def _runs(client, kind: str):  # type: ignore[no-untyped-def]
    experiment = client.get_experiment_by_name("helix-eval")
    assert experiment is not None
    return client.search_runs(
        [experiment.experiment_id],
        filter_string=f"tags.`helix.kind` = '{kind}'",
        order_by=["attributes.start_time ASC"],
    )


@pytest.mark.integration
@pytest.mark.filterwarnings(SQLALCHEMY_21)
def test_tracked_evals_are_read_back_and_compared(
    small_home: Path, small_settings: Settings, helix, tmp_path: Path, mlflow_client, store_uri
) -> None:
    """One eval through the command line (with its report and a replay), a second one through
    the same record and store on the session's engine, then ``--compare-runs`` on the two."""
    from engine.eval import load_questions, run_eval
    from engine.eval.tracking import Tracker, eval_record

    uri = store_uri
    env = {"HELIX_TRACE_EXPORTER": "none", "HELIX_MLFLOW_TRACKING_URI": uri}
    bench = tmp_path / "tiny.jsonl"
    bench.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    stream = tmp_path / "mini.replay.jsonl"
    stream.write_text("".join(json.dumps(e) + "\n" for e in STREAM))

    def run(*args: str):  # type: ignore[no-untyped-def]
        res = CliRunner().invoke(cli, ["--home", str(small_home), *args], obj={}, env=env)
        assert res.exit_code == 0, res.output
        return res

    report = tmp_path / "report"
    run("eval", "--bench", str(bench), "--mode", "hybrid", "--track",
        "--report", str(report), "--replay", str(stream))  # fmt: skip
    gold = load_questions(bench)
    settings = small_settings.model_copy(update={"mlflow_tracking_uri": uri})
    graph_rows = run_eval(helix, gold, mode="graph")
    record = eval_record(
        settings, {"graph": score(gold, graph_rows)}, {"graph": graph_rows}, benches=[bench]
    )
    graph_id = Tracker.open(settings).log(record)

    client = mlflow_client(tracking_uri=uri)
    experiment = client.get_experiment_by_name("helix-eval")
    store_dir = Path(uri.removeprefix("sqlite:///")).parent
    assert experiment.artifact_location == (store_dir / "artifacts").as_uri()
    runs = _runs(client, "eval")
    assert [r.info.status for r in runs] == ["FINISHED", "FINISHED"]
    first, second = runs
    assert second.info.run_id == graph_id
    params = first.data.params
    assert params["mode"] == "hybrid" and params["layers"] == "all built"
    assert params["bench_files"] == "tiny.jsonl" and len(params["bench/tiny.jsonl/sha256"]) == 64
    assert params["replay_files"] == "mini.replay.jsonl" and params["llm"] == "off"
    for name in ("fusion", "max_depth", "max_nodes", "max_ms", "embed_model", "git_dirty",
                 "calibration", "calibration_temperature", "git_commit"):  # fmt: skip
        assert params[name], name

    def artifacts(folder: str) -> set[str]:
        return {a.path for a in client.list_artifacts(first.info.run_id, folder)}

    assert artifacts("results") == {"results/results.hybrid.jsonl"}
    assert {"report/report.html", "report/results.hybrid.jsonl"} <= artifacts("report")
    assert any(p.endswith(".png") for p in artifacts("report"))
    lines = client.download_artifacts(
        first.info.run_id, "results/results.hybrid.jsonl", str(tmp_path)
    )
    rows = [json.loads(x) for x in Path(lines).read_text().splitlines()]
    assert [r["id"] for r in rows] == ["t1", "t2"]
    metrics = first.data.metrics
    table = eval_metrics({"hybrid": score(gold, rows)})
    assert {k: v for k, v in metrics.items() if not k.startswith("memory/")} == pytest.approx(table)
    assert metrics["kind/not_found/questions"] == 1.0 and "stage/walk/p95_ms" in metrics
    assert metrics["memory/recall_at_1"] == 1.0
    assert metrics["memory/day/2026-03-03/probes"] == 1.0

    res = run("eval", "--compare-runs", first.info.run_id, graph_id[:10])
    out = res.stdout
    assert "overall/evidence_recall_at_5" in out and "stage/walk/p50_ms" in out
    assert "B - A" in out and "Parameters that differ" in out
    mode_row = next(line for line in out.splitlines() if "│ mode " in line)
    assert "hybrid" in mode_row and "graph" in mode_row
    missing = CliRunner().invoke(
        cli, ["--home", str(small_home), "eval", "--compare-runs", "nope", "x"], obj={}, env=env
    )
    assert missing.exit_code == 1 and "no run 'nope'" in missing.output


@pytest.mark.integration
@pytest.mark.filterwarnings(SQLALCHEMY_21)
def test_a_tracked_headless_replay_logs_its_memory_figures(
    small_settings: Settings, helix, tmp_path: Path, mlflow_client, store_uri
) -> None:
    from engine.eval.tracking import Tracker
    from helix_tui.replay_cli import run_headless_replay

    uri = store_uri
    settings = small_settings.model_copy(update={"mlflow_tracking_uri": uri})
    stream = tmp_path / "mini.replay.jsonl"
    stream.write_text("".join(json.dumps(e) + "\n" for e in STREAM))
    assert run_headless_replay(helix, settings, stream, None, "fact", Tracker.open(settings)) == 0
    client = mlflow_client(tracking_uri=uri)
    (run,) = _runs(client, "replay")
    assert run.data.tags["helix.kind"] == "replay"
    assert run.data.params["extract"] == "fact"
    assert len(run.data.params["replay/mini.replay.jsonl/sha256"]) == 64
    assert run.data.metrics["memory/recall_at_1"] == 1.0
    assert run.data.metrics["memory/relation/takes/probes"] == 1.0
    assert [a.path for a in client.list_artifacts(run.info.run_id, "results")] == [
        "results/replay_results.jsonl"
    ]
    env = {"HELIX_MLFLOW_TRACKING_URI": uri}
    tui = CliRunner().invoke(cli, ["--replay", str(stream), "--tui", "--track"], obj={}, env=env)
    assert tui.exit_code == 2 and "--track goes with a headless --replay" in tui.output
