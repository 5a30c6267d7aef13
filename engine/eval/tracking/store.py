"""The MLflow tracking store: log a ``RunRecord`` as a run, read a run back.

MLflow is an optional extra (``.[track]``) and is imported only here, when a tracker is opened;
without it ``Tracker.open`` raises ``TrackingUnavailable`` saying how to install it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.config import Settings
from engine.eval.tracking.record import RunRecord, TrackedRun

INSTALL_HINT = (
    "Tracking needs MLflow, an optional extra: pip install 'helix-ragxmem[track]' "
    "(in a checkout: pip install -e '.[track]')."
)

MAX_PARAMS, MAX_METRICS = 100, 1000
"""MLflow's limits per ``log_batch`` call."""


class TrackingError(RuntimeError):
    """The tracking store cannot be used or has no such run; the message is one sentence."""


class TrackingUnavailable(TrackingError):
    """MLflow is not installed."""


def _mlflow() -> tuple[Any, Any, Any]:
    """``(MlflowClient, entities, MlflowException)``, imported on first use."""
    try:
        from mlflow import MlflowClient, entities
        from mlflow.exceptions import MlflowException
    except ImportError:
        raise TrackingUnavailable(INSTALL_HINT) from None
    return MlflowClient, entities, MlflowException


def artifact_root(uri: str) -> str | None:
    """Where a new experiment keeps its artifacts: beside a SQLite store's file (MLflow's own
    default is ``./mlruns`` in the working directory); a server's store decides for itself."""
    if not uri.startswith("sqlite:///"):
        return None
    db = Path(uri.removeprefix("sqlite:///")).expanduser().resolve()
    db.parent.mkdir(parents=True, exist_ok=True)
    return (db.parent / "artifacts").as_uri()


class Tracker:
    """Runs of one experiment in one tracking store."""

    def __init__(self, uri: str, experiment: str) -> None:
        client_cls, self._entities, self._error = _mlflow()
        self.uri = uri
        self.experiment = experiment
        try:
            self._client = client_cls(tracking_uri=uri)
            self._experiment_id = self._experiment_id_of(experiment)
        except self._error as exc:
            raise TrackingError(f"cannot use the MLflow store {uri}: {_first(exc)}") from None

    @classmethod
    def open(cls, settings: Settings) -> Tracker:
        """The store of ``HELIX_MLFLOW_TRACKING_URI`` (default: SQLite under the data home)."""
        return cls(settings.tracking_uri, settings.mlflow_experiment)

    def _experiment_id_of(self, name: str) -> str:
        found = self._client.get_experiment_by_name(name)
        if found is not None:
            return str(found.experiment_id)
        try:
            return str(
                self._client.create_experiment(name, artifact_location=artifact_root(self.uri))
            )
        except self._error:  # created meanwhile by another process
            found = self._client.get_experiment_by_name(name)
            if found is None:
                raise
            return str(found.experiment_id)

    def log(self, record: RunRecord) -> str:
        """Log ``record`` as a finished run; returns its id (a failure marks the run FAILED)."""
        client, ent = self._client, self._entities
        try:
            run = client.create_run(self._experiment_id, run_name=record.name, tags=record.tags)
        except self._error as exc:
            raise TrackingError(f"cannot log a run to {self.uri}: {_first(exc)}") from None
        run_id = str(run.info.run_id)
        try:
            params = [ent.Param(k, v) for k, v in record.params.items()]
            stamp = int(run.info.start_time)
            metrics = [ent.Metric(k, v, stamp, 0) for k, v in record.metrics.items()]
            for i in range(0, len(params), MAX_PARAMS):
                client.log_batch(run_id, params=params[i : i + MAX_PARAMS])
            for i in range(0, len(metrics), MAX_METRICS):
                client.log_batch(run_id, metrics=metrics[i : i + MAX_METRICS])
            for name, text in record.texts.items():
                client.log_text(run_id, text, name)
            for folder, directory in record.dirs.items():
                client.log_artifacts(run_id, str(directory), folder)
        except self._error as exc:
            client.set_terminated(run_id, "FAILED")
            raise TrackingError(f"run {run_id} in {self.uri} failed: {_first(exc)}") from None
        except BaseException:
            client.set_terminated(run_id, "FAILED")
            raise
        client.set_terminated(run_id, "FINISHED")
        return run_id

    def run(self, ref: str) -> TrackedRun:
        """The run with id ``ref``, or the one run of the experiment whose id starts with
        ``ref`` or whose name is ``ref``."""
        try:
            found = self._client.get_run(ref)
        except self._error:
            found = self._find(ref)
        return TrackedRun(
            run_id=str(found.info.run_id),
            name=str(found.info.run_name or ""),
            params=dict(found.data.params),
            metrics=dict(found.data.metrics),
        )

    def artifacts(self, run_id: str, folder: str | None = None) -> list[str]:
        """Paths of the artifacts of a run (under ``folder``), files and folders."""
        return [str(a.path) for a in self._client.list_artifacts(run_id, folder)]

    def _find(self, ref: str) -> Any:
        matches = [
            r for r in self._all_runs() if r.info.run_id.startswith(ref) or r.info.run_name == ref
        ]
        where = f"experiment {self.experiment!r} of {self.uri}"
        if not matches:
            raise TrackingError(f"no run {ref!r} in {where}")
        if len(matches) > 1:
            ids = ", ".join(r.info.run_id[:12] for r in matches[:5])
            raise TrackingError(
                f"{ref!r} names {len(matches)} runs in {where} ({ids}…): give its id"
            )
        return matches[0]

    def _all_runs(self) -> Iterator[Any]:
        token = None
        while True:
            page = self._client.search_runs(
                [self._experiment_id], max_results=1000, page_token=token
            )
            yield from page
            token = page.token
            if not token:
                return


def _first(exc: BaseException) -> str:
    """The first sentence of an MLflow error (they run to a paragraph)."""
    text = str(getattr(exc, "message", exc)).strip()
    head = text.split(". ")[0].rstrip(".")
    return head or type(exc).__name__
