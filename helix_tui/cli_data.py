"""``helix-chat data status | pull | verify``: where the source files are, and getting them."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from engine.config import Settings
from engine.ingest.datadir import Located, State, hash_cache, human_size, locate, search_dirs
from engine.ingest.download import DownloadError, pull, pull_dir, to_pull
from engine.ingest.manifest import Manifest, ManifestError, default_manifest

out = Console()
err = Console(stderr=True)

_STYLE = {
    State.OK: "[green]verified[/]",
    State.UNCHECKED: "found",
    State.MODIFIED: "[yellow]differs from manifest[/]",
    State.MISSING: "[red]missing[/]",
}


def _settings(ctx: click.Context) -> Settings:
    home: Path | None = ctx.obj.get("home") if ctx.obj else None
    return Settings(home=home) if home is not None else Settings()


def _table(found: list[Located], dirs: list[Path]) -> Table:
    """One row per file; ``dir`` is the number of the data directory it was found in."""
    table = Table(title="Helix source data", title_justify="left")
    table.add_column("file", overflow="fold", ratio=1)
    for col in ("layer", "size", "license", "dir", "state"):
        table.add_column(
            col,
            no_wrap=col != "license",
            max_width=16 if col == "license" else None,
            justify="right" if col == "size" else "left",
        )
    for x in found:
        where = "-"
        if x.path is not None:
            where = next((str(i) for i, d in enumerate(dirs, 1) if x.path.is_relative_to(d)), "?")
        table.add_row(
            x.source.path,
            x.source.layer,
            human_size(x.source.size),
            x.source.license.replace(" AND ", " + "),
            where,
            _STYLE[x.state],
        )
    return table


def _report(settings: Settings, manifest: Manifest, *, rehash: bool) -> list[Located]:
    dirs = search_dirs(settings)
    found = locate(manifest, dirs, verify=True, rehash=rehash, cache=hash_cache(settings))
    out.print(_table(found, dirs))
    out.print("data directories, searched in order:")
    for i, d in enumerate(dirs, 1):
        out.print(f"  {i}  {d}")
    if not dirs:
        out.print("  (none exists)")
    absent = [x.source for x in found if not x.found]
    bad = [x for x in found if x.state is State.MODIFIED]
    ok = sum(1 for x in found if x.state is State.OK)
    out.print(f"{ok} of {len(found)} files verified", end="")
    if absent:
        size = human_size(sum(s.size for s in absent))
        out.print(f"; {len(absent)} missing ({size}): run `helix-chat data pull`", end="")
    if bad:
        out.print(f"; {len(bad)} differ from the manifest", end="")
    out.print()
    return found


def _manifest(layers: tuple[str, ...]) -> Manifest:
    """The whole manifest, or the files of the given layers (``--layer``)."""
    manifest = default_manifest()
    if not layers:
        return manifest
    try:
        return manifest.for_layers(layers)
    except ManifestError as exc:
        raise click.UsageError(str(exc)) from None


def layer_option(help_text: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    return click.option("--layer", "layers", multiple=True, metavar="LAYER", help=help_text)


@click.group()
def data() -> None:
    """The source data: status, pull (download what is missing), verify (re-hash)."""


@data.command()
@layer_option("Only the files of this layer (hetionet, disease-pack, orphanet); repeatable.")
@click.pass_context
def status(ctx: click.Context, layers: tuple[str, ...]) -> None:
    """Where each source file is found and whether it verifies."""
    _report(_settings(ctx), _manifest(layers), rehash=False)


@data.command()
@layer_option("Only the files of this layer (hetionet, disease-pack, orphanet); repeatable.")
@click.pass_context
def verify(ctx: click.Context, layers: tuple[str, ...]) -> None:
    """Re-hash every found file; exit 1 if any is missing or differs from the manifest."""
    found = _report(_settings(ctx), _manifest(layers), rehash=True)
    if any(x.state is not State.OK for x in found):
        sys.exit(1)


@data.command("pull")
@click.option("--mirror", help="Base URL of a mirror laid out like the data directory.")
@click.option("--timeout", default=30.0, show_default=True, help="Seconds per network read.")
@layer_option("Only the files of this layer, e.g. disease-pack (default: every layer).")
@click.pass_context
def pull_cmd(
    ctx: click.Context, mirror: str | None, timeout: float, layers: tuple[str, ...]
) -> None:
    """Download the missing source files into <home>/data, resumably, verified by sha256."""
    settings = _settings(ctx)
    if mirror:
        settings = settings.model_copy(update={"data_mirror": mirror})
    try:
        fetched = pull_missing(settings, _manifest(layers), timeout_s=timeout)
    except DownloadError as exc:
        raise click.ClickException(str(exc)) from exc
    if not fetched:
        err.print("every source file is present; nothing to download")


def pull_missing(settings: Settings, manifest: Manifest, *, timeout_s: float = 30.0) -> int:
    """Say what will be downloaded and how much, then pull it; returns the file count."""
    from helix_tui.progress import RichProgress

    files = to_pull(settings, manifest)
    if not files:
        return 0
    size = human_size(sum(f.size for f in files))
    err.print(f"Downloading {len(files)} source file(s), {size}, into {pull_dir(settings)}")
    with RichProgress(err, "pull", transfer=True) as progress:
        pull(settings, files, progress=progress, timeout_s=timeout_s)
    err.print(f"[green]{len(files)} file(s) downloaded and verified[/]")
    return len(files)
