"""``--track`` and ``eval --compare-runs``: eval and replay runs kept in the MLflow tracking
store (``HELIX_MLFLOW_TRACKING_URI``), and two of them compared from there."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import click
from rich.console import Console

from engine.config import Settings
from helix_tui.cli_engine import err

if TYPE_CHECKING:
    from engine.eval.report_data import DayRecall
    from engine.eval.tracking import RunRecord, Tracker
    from memory.replay.run import ReplayReport


def open_tracker(settings: Settings) -> Tracker:
    """The tracking store, opened before any work is done (so a missing MLflow or a bad URI is
    said at once, not after the eval)."""
    from engine.eval.tracking import Tracker, TrackingError

    try:
        return Tracker.open(settings)
    except TrackingError as exc:
        raise click.ClickException(str(exc)) from None


def log_run(tracker: Tracker, record: RunRecord) -> str:
    from engine.eval.tracking import TrackingError

    try:
        run_id = tracker.log(record)
    except TrackingError as exc:
        raise click.ClickException(str(exc)) from None
    err.print(
        f"tracked: MLflow run {run_id} ({record.name}, {len(record.metrics)} metrics) "
        f"in {tracker.uri}",
        highlight=False,
        soft_wrap=True,
    )
    return run_id


def replay_memory(report: ReplayReport, days: Sequence[DayRecall] = ()) -> dict[str, float]:
    """A replay's ``memory/`` figures, the same for a headless replay and ``eval --replay``."""
    from engine.eval.tracking import memory_metrics

    by_relation = {rel: (t.recall, t.n) for rel, t in report.score.by_relation.items()}
    return memory_metrics(report.summary(), by_relation, days)


def compare_runs(settings: Settings, run_a: str, run_b: str) -> None:
    """Print two tracked runs' metrics side by side with B - A, then the parameters that
    differ."""
    from engine.eval.tracking import TrackingError, compare_table, params_table

    tracker = open_tracker(settings)
    try:
        a, b = tracker.run(run_a), tracker.run(run_b)
    except TrackingError as exc:
        raise click.ClickException(str(exc)) from None
    if not a.metrics and not b.metrics:
        raise click.ClickException(f"neither run {a.run_id} nor {b.run_id} has metrics")
    out = Console(width=max(100, Console().width))
    out.print(compare_table(a, b))
    changed = params_table(a, b)
    out.print(changed if changed is not None else "Parameters: the same in both runs.")
