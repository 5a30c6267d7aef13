"""A Rich progress bar for ingest steps (implements engine.ingest.build.Progress)."""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskID,
    TimeElapsedColumn,
    TransferSpeedColumn,
)


class RichProgress:
    """Steps counted in items, or in bytes with ``transfer=True`` (downloads)."""

    def __init__(self, console: Console, label: str = "ingest", *, transfer: bool = False) -> None:
        self._label = label
        counts: list[ProgressColumn] = (
            [DownloadColumn(), TransferSpeedColumn()] if transfer else [MofNCompleteColumn()]
        )
        self._progress = Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            *counts,
            TimeElapsedColumn(),
            console=console,
            transient=False,
        )
        self._task: TaskID | None = None

    def __enter__(self) -> RichProgress:
        self._progress.start()
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._progress.stop()

    def start(self, step: str, total: int) -> None:
        self._task = self._progress.add_task(f"{self._label} {step}", total=total)

    def advance(self, n: int) -> None:
        if self._task is not None:
            self._progress.advance(self._task, n)

    def finish(self, step: str, note: str = "") -> None:
        if self._task is not None:
            task = self._progress.tasks[self._task]
            self._progress.update(
                self._task,
                completed=task.total,
                description=f"{self._label} {step}: {note}" if note else task.description,
            )
            self._task = None
