"""``helix-chat kg stats``: what the built graph holds, per layer, and its coverage."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from engine.config import Settings

out = Console()


@click.group()
def kg() -> None:
    """The built knowledge graph: layers, counts and coverage."""


@kg.command()
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.pass_context
def stats(ctx: click.Context, as_json: bool) -> None:
    """Nodes and edges per layer and kind; diseases with genes/indications, typed targets."""
    from engine.graph.stats import kg_stats
    from engine.graph.store import StoreMissing

    home: Path | None = ctx.obj.get("home") if ctx.obj else None
    settings = Settings(home=home) if home is not None else Settings()
    try:
        st = kg_stats(settings.kg_path)
    except StoreMissing as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps(st.to_dict(), indent=2))
        return
    cov = Table(title="Coverage", title_justify="left")
    cov.add_column("figure")
    for name in st.coverage:
        cov.add_column(name if name != "all" else "all layers", justify="right")
    for label, key in (
        ("diseases", "diseases"),
        ("diseases with >= 1 gene edge", "diseases_with_gene"),
        ("diseases with >= 1 indication", "diseases_with_indication"),
        ("compounds with a typed target action", "compounds_with_typed_target"),
    ):
        cov.add_row(label, *(f"{getattr(c, key):,}" for c in st.coverage.values()))
    out.print(cov)
    for title, data in (("Nodes introduced", st.nodes), ("Edges stated", st.edges)):
        t = Table(title=f"{title} per layer", title_justify="left")
        t.add_column("layer")
        t.add_column("kind / relation")
        t.add_column("count", justify="right")
        for layer, counts in data.items():
            for i, (k, n) in enumerate(counts.items()):
                part = st.sampled.get(k) if data is st.edges else None
                shown = f"{n:,} [dim](a sample of {part['total']:,})[/]" if part else f"{n:,}"
                t.add_row(layer if i == 0 else "", k, shown)
            t.add_row("", "[b]total[/]", f"[b]{sum(counts.values()):,}[/]", end_section=True)
        out.print(t)
    src = Table(title="Edges per source", title_justify="left")
    for col in ("layer", "source", "edges"):
        src.add_column(col, justify="right" if col == "edges" else "left")
    for layer, counts in st.edges_by_source.items():
        for k, n in counts.items():
            src.add_row(layer, k, f"{n:,}")
    out.print(src)
    if st.sampled:
        out.print(
            "Sampled relations (answers from them are not complete lists): "
            + ", ".join(f"{rel} {v['kept']:,} of {v['total']:,}" for rel, v in st.sampled.items())
        )
    out.print(
        f"{st.total_nodes:,} nodes, {st.total_edges:,} distinct edges over "
        f"{len(st.layers)} layer(s): {', '.join(st.layers)}"
    )
