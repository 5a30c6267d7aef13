"""``helix-chat eval`` (bench questions in one warm process, scored) and ``calibrate``."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console

if TYPE_CHECKING:
    from engine.api import Helix
    from engine.config import Settings
    from engine.eval.report import EvalReport
    from engine.eval.report_data import DayRecall

from helix_tui.cli_engine import MODES, bench_option, err, layers_option, open_engine, settings_for


@click.command("eval")
@bench_option("Question file(s) in the bench format; repeat for several.", required=False)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write one result line per question here (one file per mode with --compare).",
)
@click.option("--mode", type=MODES, help="Retrieval mode to evaluate (default hybrid).")
@click.option("--compare", help="Comma-separated modes to run side by side, e.g. hybrid,dense.")
@click.option("--no-calibration", is_flag=True, help="Ablation: raw edge-predictor probabilities.")
@click.option(
    "--report-json",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the metrics as JSON here.",
)
@click.option(
    "--report",
    "report_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write report.html with PNG charts here (all three modes unless --mode/--compare).",
)
@click.option(
    "--replay",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="With --report: also play this memory stream and chart Recall@1 by day.",
)
@click.option(
    "--track",
    is_flag=True,
    help="Log the run to MLflow (settings, every metric, result lines, the report); the store "
    "is $HELIX_MLFLOW_TRACKING_URI or a SQLite file under the data home. Needs '.[track]'.",
)
@click.option(
    "--compare-runs",
    nargs=2,
    metavar="RUN_A RUN_B",
    help="Print two tracked runs' metrics side by side with B - A (ids, id prefixes or run "
    "names), from the tracking store; asks nothing.",
)
@layers_option()
@click.pass_context
def eval_cmd(
    ctx: click.Context,
    benches: tuple[Path, ...],
    out: Path | None,
    mode: str | None,
    compare: str | None,
    no_calibration: bool,
    report_json: Path | None,
    report_dir: Path | None,
    replay: Path | None,
    track: bool,
    compare_runs: tuple[str, str] | None,
    layers: str | None,
) -> None:
    """Run bench questions in one warm process and print the metrics table."""
    from engine.eval import BenchFileError, load_questions, render_report, score

    settings = settings_for(ctx.obj["home"], ctx.obj["user"], layers)
    if compare_runs:
        from helix_tui.cli_track import compare_runs as print_comparison

        if benches:
            raise click.UsageError("--compare-runs reads the tracking store: give no --bench")
        print_comparison(settings, *compare_runs)
        return
    if not benches:
        raise click.UsageError("Missing option '--bench' (or --compare-runs RUN_A RUN_B).")
    modes = [m.strip() for m in compare.split(",")] if compare else [mode or "hybrid"]
    if report_dir is not None and not compare and not mode:
        modes = ["hybrid", "graph", "dense"]
    if replay is not None and report_dir is None:
        raise click.UsageError("--replay goes with --report")
    bad = [m for m in modes if m not in {"hybrid", "graph", "dense"}]
    if bad:
        raise click.UsageError(f"unknown mode(s): {', '.join(bad)}")
    if no_calibration:
        settings = settings.model_copy(update={"calibration": False})
    tracker = None
    if track:
        from helix_tui.cli_track import open_tracker

        tracker = open_tracker(settings)
    try:
        questions = [q for b in benches for q in load_questions(b)]
    except BenchFileError as exc:
        raise click.ClickException(str(exc)) from None
    helix = open_engine(settings, modes=modes)  # type: ignore[arg-type]
    memory: dict[str, float] = {}
    try:
        results = {m: _run_mode(helix, questions, m, out, several=len(modes) > 1) for m in modes}
        reports = {m: score(questions, rows) for m, rows in results.items()}
        if report_dir is not None:
            written, memory = _report(
                helix,
                settings,
                report_dir,
                questions,
                reports,
                results,
                replay,
                [*(b.name for b in benches), *([replay.name] if replay else [])],
            )
    finally:
        helix.close()
    Console(width=max(100, Console().width)).print(render_report(reports))
    if report_json:
        report_json.write_text(json.dumps({m: r.to_dict() for m, r in reports.items()}, indent=2))
    if report_dir is not None:
        for path in written:
            err.print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    if tracker is not None:
        from engine.eval.tracking import eval_record
        from helix_tui.cli_track import log_run

        record = eval_record(
            settings,
            reports,
            results,
            benches=benches,
            report_dir=report_dir,
            replay=replay,
            memory=memory,
        )
        log_run(tracker, record)


def _run_mode(
    helix: Helix, questions: list[dict[str, Any]], mode: str, out: Path | None, *, several: bool
) -> list[dict[str, Any]]:
    """One mode's result rows, with a progress bar (and written to ``out``, per mode when
    several are run)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from engine.eval import out_path_for, run_eval

    target = out_path_for(out, mode) if out and several else out
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
    ) as prog:
        task = prog.add_task(f"eval {mode}", total=len(questions))
        return run_eval(
            helix,
            questions,
            mode=mode,  # type: ignore[arg-type]
            out_path=target,
            progress=partial(prog.advance, task),
            warmup=[questions[0]["question"]] if questions else [],
        )


def _report(
    helix: Helix,
    settings: Settings,
    directory: Path,
    questions: list[dict[str, Any]],
    reports: dict[str, EvalReport],
    results: dict[str, list[dict[str, Any]]],
    replay: Path | None,
    inputs: list[str],
) -> tuple[list[Path], dict[str, float]]:
    """The report's files, and the replay's ``memory/`` figures (empty without a replay)."""
    from helix_tui.cli_report import reliability_of, replay_days, write_report
    from helix_tui.cli_track import replay_memory

    err.print("report: calibration samples…")
    reliability = reliability_of(helix, settings, questions)
    days: list[DayRecall] = []
    memory: dict[str, float] = {}
    if replay is not None:
        err.print(f"report: replaying {replay.name}…")
        played, days = replay_days(helix, settings, replay, directory)
        memory = replay_memory(played, days)
    written = write_report(
        directory, questions, reports, results, reliability=reliability, days=days, inputs=inputs
    )
    return written, memory


@click.command()
@bench_option("Dev question files with gold triples (>= 200 questions).")
@click.option(
    "--provider",
    type=click.Choice(["local", "llm"]),
    default="local",
    show_default=True,
    help="Which edge predictor to calibrate (llm needs HELIX_LLM_BASE_URL and HELIX_LLM_MODEL).",
)
@click.pass_context
def calibrate(ctx: click.Context, benches: tuple[Path, ...], provider: str) -> None:
    """Fit the edge predictor's temperature on dev questions and store it with the stores."""
    from engine.eval.calibration import fit_from_bench_provider

    settings = settings_for(ctx.obj["home"], ctx.obj["user"])
    helix = open_engine(settings)
    try:
        cal = fit_from_bench_provider(helix, list(benches), provider)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        helix.close()
    name = "calibration.json" if provider == "local" else "calibration-llm.json"
    cal.save(settings.stores_dir / name)
    err.print(
        f"{provider}: T = {cal.temperature:.3f} on {cal.n} questions; "
        f"ECE {cal.ece_before:.3f} -> {cal.ece_after:.3f}"
    )
