"""``helix-chat``: the chat app by default, plus ``ask``, ``eval``, ``ingest``, ``calibrate``."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.text import Text

from engine.config import Settings
from helix_tui.cli_trace import checked_settings

if TYPE_CHECKING:
    from engine.api import Helix
    from engine.ingest.build import IngestReport

err = Console(stderr=True)
MODES = click.Choice(["hybrid", "graph", "dense"])


def _settings(home: Path | None, user: str | None, layers: str | None = None) -> Settings:
    overrides: dict[str, Any] = {}
    if home is not None:
        overrides["home"] = home
    if user is not None:
        overrides["user"] = user
    if layers is not None:
        overrides["layers"] = layers
    return checked_settings(Settings(**overrides))


def layers_option() -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``--layers a,b``: answer from these graph layers only (default: every built layer)."""
    return click.option(
        "--layers",
        help="Comma-separated graph layers to answer from, e.g. hetionet "
        "(default: $HELIX_LAYERS or every built layer).",
    )


def _ensure_stores(settings: Settings) -> None:
    """On first use: find the source data (or download it), then build the stores."""
    from engine.ingest.build import stores_ready

    if not stores_ready(settings):
        _ensure_data(settings)
        err.print(f"First run: building the stores under {settings.stores_dir} (a few minutes).")
        _ingest_or_fail(settings)


def _ensure_data(settings: Settings) -> None:
    """Pull missing source files, unless offline (then name them and the command)."""
    from engine.ingest.defaults import DataMissing, resolve_default
    from engine.ingest.download import DownloadError
    from engine.ingest.manifest import default_manifest
    from helix_tui.cli_data import pull_missing

    try:
        resolve_default(settings)
        return
    except DataMissing as exc:
        if settings.offline:
            raise click.ClickException(
                f"{exc} HELIX_OFFLINE is set, so nothing is downloaded."
            ) from None
    try:
        pull_missing(settings, default_manifest().for_layers(["hetionet"]))
    except DownloadError as exc:
        raise click.ClickException(str(exc)) from exc


def _open_engine(settings: Settings) -> Helix:
    from engine.api import Helix
    from engine.graph.store import StoreUnreadable, UnknownLayer

    _ensure_stores(settings)
    try:
        helix = Helix.open(settings, auto_ingest=False)
    except (UnknownLayer, StoreUnreadable) as exc:
        raise click.ClickException(str(exc)) from None
    for problem in helix.c.errors:
        err.print(Text.assemble(("warning: ", "yellow"), problem), highlight=False, soft_wrap=True)
    return helix


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--user", "-u", help="User id whose sessions and memory to use (default: $USER).")
@click.option("--session", "-s", "session_id", help="Open this session id.")
@click.option("--resume", is_flag=True, help="Resume the user's most recent session.")
@click.option(
    "--replay",
    "replay",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Run a scripted memory stream (JSONL) on a simulated clock.",
)
@click.option("--tui", is_flag=True, help="With --replay: play the stream visibly in the app.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="With --replay: write one result line per ask event here.",
)
@click.option(
    "--extract",
    type=click.Choice(["fact", "text"]),
    default="fact",
    show_default=True,
    help="With --replay: store the given facts, or extract them from the text.",
)
@click.option(
    "--home",
    type=click.Path(file_okay=False, path_type=Path),
    help="Data home (default: $HELIX_HOME or the platform data dir).",
)
@layers_option()
@click.pass_context
def cli(
    ctx: click.Context,
    user: str | None,
    session_id: str | None,
    resume: bool,
    replay: Path | None,
    tui: bool,
    out: Path | None,
    extract: str,
    home: Path | None,
    layers: str | None,
) -> None:
    """Helix: biomedical answers with verifiable knowledge-graph paths, evidence and memory."""
    ctx.ensure_object(dict)
    ctx.obj["home"] = home
    ctx.obj["user"] = user
    if ctx.invoked_subcommand is not None:
        return
    settings = _settings(home, user, layers)
    if replay is not None and not tui:
        from helix_tui.replay_cli import run_headless_replay

        helix = _open_engine(settings)
        try:
            sys.exit(run_headless_replay(helix, settings, replay, out, extract))
        finally:
            helix.close()
    _ensure_stores(settings)
    from helix_tui.launch import launch

    launch(settings, session_id=session_id, resume=resume, replay=replay, extract=extract)  # type: ignore[arg-type]


def bench_option(help_text: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``--bench FILE`` (repeatable), for the commands that read bench question files."""
    return click.option(
        "--bench",
        "benches",
        multiple=True,
        required=True,
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help=help_text,
    )


def _ingest_or_fail(settings: Settings, **kwargs: Any) -> IngestReport:
    from engine.ingest.build import ingest as run_ingest
    from engine.ingest.sources import DataError
    from helix_tui.progress import RichProgress

    try:
        with RichProgress(err) as progress:
            return run_ingest(settings, progress=progress, **kwargs)
    except DataError as exc:
        raise click.ClickException(f"cannot build the stores: {exc}") from exc


@cli.command()
@click.argument("question", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the result object (bench contract).")
@click.option("--mode", type=MODES, help="Retrieval mode (default from settings: hybrid).")
@click.option("--choice", help="Node id chosen in reply to a clarifying question.")
@layers_option()
@click.pass_context
def ask(
    ctx: click.Context,
    question: str | None,
    as_json: bool,
    mode: str | None,
    choice: str | None,
    layers: str | None,
) -> None:
    """Answer one QUESTION (use '-' to read it from standard input).

    A question that starts with '-' goes after '--', so it is not read as an option:

        helix-chat ask -- "-x: which drugs treat asthma?"
    """
    if question is None:
        raise click.UsageError("missing QUESTION (use '-' to read it from standard input)")
    if question == "-":
        raw = sys.stdin.buffer.read()
        question = raw.decode("utf-8", errors="replace")
    settings = _settings(ctx.obj["home"], ctx.obj["user"], layers)
    helix = _open_engine(settings)
    try:
        helix.warm()
        result = helix.ask(question, mode=mode, choice=choice)  # type: ignore[arg-type]
    finally:
        helix.close()
    if as_json:
        click.echo(json.dumps(result.to_contract(), ensure_ascii=False))
        return
    from helix_tui.render import render_result

    Console().print(render_result(result, helix.node_name))


@cli.command("eval")
@bench_option("Question file(s) in the bench format; repeat for several.")
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
    layers: str | None,
) -> None:
    """Run bench questions in one warm process and print the metrics table."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from engine.eval import (
        BenchFileError,
        load_questions,
        out_path_for,
        render_report,
        run_eval,
        score,
    )

    modes = [m.strip() for m in compare.split(",")] if compare else [mode or "hybrid"]
    bad = [m for m in modes if m not in {"hybrid", "graph", "dense"}]
    if bad:
        raise click.UsageError(f"unknown mode(s): {', '.join(bad)}")
    settings = _settings(ctx.obj["home"], ctx.obj["user"], layers)
    if no_calibration:
        settings = settings.model_copy(update={"calibration": False})
    try:
        questions = [q for b in benches for q in load_questions(b)]
    except BenchFileError as exc:
        raise click.ClickException(str(exc)) from None
    helix = _open_engine(settings)
    helix.warm()
    reports = {}
    try:
        for m in modes:
            target = out_path_for(out, m) if out and len(modes) > 1 else out
            with Progress(
                "[progress.description]{task.description}",
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=err,
            ) as prog:
                task = prog.add_task(f"eval {m}", total=len(questions))
                results = run_eval(
                    helix,
                    questions,
                    mode=m,  # type: ignore[arg-type]
                    out_path=target,
                    progress=partial(prog.advance, task),
                    warmup=[questions[0]["question"]] if questions else [],
                )
            reports[m] = score(questions, results)
    finally:
        helix.close()
    Console(width=max(100, Console().width)).print(render_report(reports))
    if report_json:
        report_json.write_text(json.dumps({m: r.to_dict() for m, r in reports.items()}, indent=2))


@cli.command()
@click.option(
    "--kg",
    "kg_dirs",
    multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Add a KG directory (Hetionet layout: nodes TSV, metaedges.tsv, edge TSVs).",
)
@click.option(
    "--passages",
    "passage_files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Add a passages JSONL file (id, text, optional title/source).",
)
@click.option(
    "--layer",
    "layers",
    multiple=True,
    metavar="NAME",
    help="Add a data layer built from manifest files: disease-pack, orphanet (repeatable).",
)
@click.option(
    "--kgx",
    "kgx",
    multiple=True,
    nargs=2,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="NODES EDGES",
    help="Add a KGX graph (Biolink nodes and edges TSV) as a layer.",
)
@click.option(
    "--kgx-archive",
    "kgx_archives",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Add a KGX graph from a .tar.gz holding *_nodes.tsv and *_edges.tsv.",
)
@click.option("--name", "kgx_name", help="Layer name of the --kgx graph (default: file stem).")
@click.option("--force", is_flag=True, help="Rebuild every store from scratch.")
@click.pass_context
def ingest(
    ctx: click.Context,
    kg_dirs: tuple[Path, ...],
    passage_files: tuple[Path, ...],
    layers: tuple[str, ...],
    kgx: tuple[tuple[Path, Path], ...],
    kgx_archives: tuple[Path, ...],
    kgx_name: str | None,
    force: bool,
) -> None:
    """Build the stores (KG in DuckDB, FAISS indexes) under the data home."""
    from engine.ingest.kgx import KGXInput

    settings = _settings(ctx.obj["home"], ctx.obj["user"])
    inputs = [KGXInput.from_files(n, e, kgx_name) for n, e in kgx]
    inputs += [KGXInput.from_archive(a, kgx_name) for a in kgx_archives]
    if kgx_name and len(inputs) > 1:
        raise click.UsageError("--name names one KGX graph; give one --kgx or --kgx-archive")
    t = time.perf_counter()
    report = _ingest_or_fail(
        settings,
        kg_dirs=list(kg_dirs),
        passage_files=list(passage_files),
        layers=list(layers),
        kgx=inputs,
        force=force,
    )
    err.print(
        f"[green]stores ready[/] under {settings.stores_dir} in "
        f"{time.perf_counter() - t:.1f} s: {report.nodes:,} nodes, {report.triples:,} "
        f"triples, {report.aliases:,} aliases, {report.passages:,} passages"
    )
    for step, what in report.steps.items():
        secs = report.seconds.get(step)
        err.print(f"  {step}: {what}" + (f" ({secs:.1f} s)" if secs is not None else ""))
    for name, layer in report.layers.items():
        skipped = layer.get("skipped") or {}
        for reason, n in skipped.items():  # type: ignore[attr-defined]
            err.print(f"  {name}: skipped {n:,} ({reason})")


@cli.command()
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

    settings = _settings(ctx.obj["home"], ctx.obj["user"])
    helix = _open_engine(settings)
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


def _register_optional() -> None:
    from helix_tui.cli_data import data
    from helix_tui.cli_doctor import doctor
    from helix_tui.cli_kg import kg
    from helix_tui.cli_trace import trace

    cli.add_command(data)
    cli.add_command(doctor)
    cli.add_command(trace)
    cli.add_command(kg)
    try:
        from helix_tui.cli_mcp import mcp
    except ImportError:
        return
    cli.add_command(mcp)


_register_optional()


def main() -> None:
    cli(obj={})


if __name__ == "__main__":
    main()
