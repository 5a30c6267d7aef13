"""What the ``helix-chat`` commands share: settings from the options, the stores made ready on
first use, and the engine opened through ``wiring.open`` with its problems said in one line."""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.text import Text

from engine.config import Mode, Settings
from helix_tui.cli_trace import checked_settings

if TYPE_CHECKING:
    from engine.api import Helix
    from engine.ingest.manifest import Manifest
    from engine.ingest.report import IngestReport

err = Console(stderr=True)
MODES = click.Choice(["hybrid", "graph", "dense"])


def settings_for(home: Path | None, user: str | None, layers: str | None = None) -> Settings:
    """The environment's settings with the command line's home, user and layers over them."""
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


def bench_option(
    help_text: str, *, required: bool = True
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``--bench FILE`` (repeatable), for the commands that read bench question files."""
    return click.option(
        "--bench",
        "benches",
        multiple=True,
        required=required,
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help=help_text,
    )


def ensure_stores(settings: Settings) -> None:
    """On first use: find the source data (or download it), then build the stores."""
    from engine.ingest.ready import stores_ready

    if not stores_ready(settings):
        _ensure_data(settings)
        err.print(f"First run: building the stores under {settings.stores_dir} (a few minutes).")
        ingest_or_fail(settings)


def _ensure_data(settings: Settings) -> None:
    """Pull the missing source files of a first build, unless offline (then name them and the
    command)."""
    from engine.ingest.datadir import locate, search_dirs
    from engine.ingest.defaults import DataMissing
    from engine.ingest.download import DownloadError
    from helix_tui.cli_data import pull_missing

    manifest = build_manifest(settings)
    dirs = search_dirs(settings)
    absent = [x.source for x in locate(manifest, dirs) if not x.found]
    if not absent:
        return
    if settings.offline:
        missing = DataMissing([s.path for s in absent], dirs, sum(s.size for s in absent))
        raise click.ClickException(f"{missing} HELIX_OFFLINE is set, so nothing is downloaded.")
    try:
        pull_missing(settings, manifest)
    except DownloadError as exc:
        raise click.ClickException(str(exc)) from exc


def build_manifest(settings: Settings) -> Manifest:
    """The source files of a first build (``engine/ingest/defaults.py``); a layer name the
    settings do not know is one sentence."""
    from engine.ingest.defaults import build_manifest as manifest_of
    from engine.ingest.manifest import ManifestError

    try:
        return manifest_of(settings)
    except ManifestError as exc:
        raise click.ClickException(f"HELIX_BUILD_LAYERS: {exc}") from None


def ingest_or_fail(settings: Settings, **kwargs: Any) -> IngestReport:
    """Build the stores, then what opening them and a first question read rather than
    compute (``wiring.open.prepare``)."""
    import time

    from engine.ingest.build import ingest as run_ingest
    from engine.ingest.sources import DataError
    from helix_tui.progress import RichProgress
    from wiring.open import prepare

    try:
        with RichProgress(err) as progress:
            report = run_ingest(settings, progress=progress, **kwargs)
    except DataError as exc:
        raise click.ClickException(f"cannot build the stores: {exc}") from exc
    t = time.perf_counter()
    made = prepare(settings)
    report.steps["prepared"] = (
        f"computed {', '.join(made.computed)}" if made.computed else "up to date"
    )
    report.seconds["prepared"] = time.perf_counter() - t
    return report


def open_engine(settings: Settings, *, modes: Collection[Mode] = (), warm: bool = True) -> Helix:
    """The engine (``wiring.open.open_engine``), building the stores first when missing; a
    store that cannot be read is a one-line error, a part that could not load a warning.
    ``warm``: embed a text now, so the first question does not load the model (a command that
    asks one question has no reason to)."""
    from engine.graph.store import StoreUnreadable, UnknownLayer
    from wiring.open import open_engine as wired

    ensure_stores(settings)
    try:
        helix = wired(settings, modes=modes, warm=warm)
    except (UnknownLayer, StoreUnreadable) as exc:
        raise click.ClickException(str(exc)) from None
    for problem in helix.c.errors:
        err.print(Text.assemble(("warning: ", "yellow"), problem), highlight=False, soft_wrap=True)
    return helix
