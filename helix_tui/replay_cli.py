"""Headless ``helix-chat --replay FILE``: run a memory stream on a simulated clock and score it."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from engine.config import Settings
from engine.ports import EnginePort

if TYPE_CHECKING:
    from engine.eval.tracking import Tracker

err = Console(stderr=True)


def run_headless_replay(
    engine: EnginePort,
    settings: Settings,
    path: Path,
    out: Path | None,
    extract: str,
    tracker: Tracker | None = None,
) -> int:
    """Returns the process exit code (2 for a malformed stream).

    The stream's users get their memory in a fresh scratch home under ``<home>/replays/``, so a
    replay never mixes with real users' memory or with an earlier replay. With a ``tracker``
    the figures and result lines are logged as an MLflow run.
    """
    from helix_tui.progress import RichProgress
    from memory.replay.events import ReplayFormatError
    from memory.replay.run import format_report, run_replay
    from wiring.open import memory_opener

    (settings.home / "replays").mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f"{path.stem}-", dir=settings.home / "replays"))
    if tracker is not None and out is None:
        out = scratch / "results.jsonl"
    with RichProgress(err, label="replay") as progress:
        started = False

        def advance(done: int, total: int) -> None:
            nonlocal started
            if not started:
                progress.start(path.name, total)
                started = True
            progress.advance(1)

        try:
            report = run_replay(
                path,
                settings.model_copy(update={"home": scratch}),
                open_memory=memory_opener(engine),
                out_path=out,
                extract=extract,  # type: ignore[arg-type]
                progress=advance,
            )
        except ReplayFormatError as exc:
            err.print(f"[red]malformed replay file:[/] {exc}")
            return 2
    Console().print(format_report(report))
    err.print(f"replay memory kept in {scratch}")
    if tracker is not None:
        from engine.eval.tracking import replay_record
        from helix_tui.cli_track import log_run, replay_memory

        lines = out.read_text(encoding="utf-8") if out is not None else None
        log_run(
            tracker,
            replay_record(settings, path, replay_memory(report), extract=extract, lines=lines),
        )
    return 0
