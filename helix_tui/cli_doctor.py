"""``helix-chat doctor``: check the data home and say, per problem, what to run."""

from __future__ import annotations

import sys

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from helix_tui.cli_trace import settings_from_context
from helix_tui.doctor import Level, diagnose

STYLE = {Level.OK: "green", Level.WARN: "yellow", Level.FAIL: "red"}


@click.command("doctor")
@click.option(
    "--verify",
    is_flag=True,
    help="Re-hash the source data files and read every block of every store (slower).",
)
def doctor(verify: bool) -> None:
    """Check free space, the database (with HELIX_DATABASE_URL), the data directory, the
    stores, each user's directory, memory stores and traces; print what to run for each
    problem. Exit 1 when something is broken."""
    settings = settings_from_context()
    findings = diagnose(settings, rehash=verify)
    console = Console(width=max(120, Console().width))
    table = Table(title=f"Helix data home {settings.home}")
    table.add_column("area")
    table.add_column("item", overflow="fold")  # a user's directory name is 40 hex digits long
    table.add_column("state")
    table.add_column("detail")
    for f in findings:
        table.add_row(f.area, f.item, Text(f.level.value, style=STYLE[f.level]), f.detail)
    console.print(table)
    problems = [f for f in findings if f.fix]
    for f in problems:
        console.print(
            Text.assemble(
                (f"{f.level.value}: ", STYLE[f.level]), f"{f.item}: run ", (f.fix or "", "bold")
            ),
            soft_wrap=True,
        )
    broken = sum(f.level is Level.FAIL for f in findings)
    if broken:
        console.print(Text(f"{broken} problem(s) to fix", style="red"))
        sys.exit(1)
    console.print(Text("everything Helix needs is in place", style="green"))
