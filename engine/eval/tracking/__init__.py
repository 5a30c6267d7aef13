"""Eval and replay runs recorded in an MLflow tracking store (``helix-chat eval --track``).

What a run holds is computed here from the scored reports and the settings alone
(``record``: parameters, metrics, artifacts; ``provenance``: git state and file hashes); the
store (``store``) is the only module that talks to MLflow, imported when a run is tracked, so
Helix runs without the ``.[track]`` extra; ``compare`` puts two tracked runs side by side.

Typical use::

    tracker = Tracker.open(settings)               # TrackingUnavailable without MLflow
    run_id = tracker.log(eval_record(settings, reports, results, benches=benches))
    console.print(compare_table(tracker.run(a), tracker.run(b)))
"""

from engine.eval.tracking.compare import (
    MetricDiff,
    compare_table,
    diff_metrics,
    param_changes,
    params_table,
)
from engine.eval.tracking.record import (
    RunRecord,
    TrackedRun,
    eval_metrics,
    eval_record,
    memory_metrics,
    metric_key,
    replay_record,
    settings_params,
)
from engine.eval.tracking.store import INSTALL_HINT, Tracker, TrackingError, TrackingUnavailable

__all__ = [
    "INSTALL_HINT",
    "MetricDiff",
    "RunRecord",
    "TrackedRun",
    "Tracker",
    "TrackingError",
    "TrackingUnavailable",
    "compare_table",
    "diff_metrics",
    "eval_metrics",
    "eval_record",
    "memory_metrics",
    "metric_key",
    "param_changes",
    "params_table",
    "replay_record",
    "settings_params",
]
