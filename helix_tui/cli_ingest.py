"""``helix-chat ingest``: build the stores under the data home."""

from __future__ import annotations

import time
from pathlib import Path

import click

from helix_tui.cli_engine import err, ingest_or_fail, settings_for


@click.command()
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
    help="Add a data layer built from manifest files: disease-pack, orphanet (repeatable; "
    "default: $HELIX_BUILD_LAYERS, the disease pack).",
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

    settings = settings_for(ctx.obj["home"], ctx.obj["user"])
    inputs = [KGXInput.from_files(n, e, kgx_name) for n, e in kgx]
    inputs += [KGXInput.from_archive(a, kgx_name) for a in kgx_archives]
    if kgx_name and len(inputs) > 1:
        raise click.UsageError("--name names one KGX graph; give one --kgx or --kgx-archive")
    t = time.perf_counter()
    report = ingest_or_fail(
        settings,
        kg_dirs=list(kg_dirs),
        passage_files=list(passage_files),
        layers=list(layers) or None,
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
        for verb in ("skipped", "merged"):
            counts = layer.get(verb) or {}
            for reason, n in counts.items():  # type: ignore[attr-defined]
                err.print(f"  {name}: {verb} {n:,} ({reason})")
