"""The command line of ``make_bench.py``: options, the store, the templates, then the files."""

from __future__ import annotations

import argparse
from pathlib import Path

import duckdb
import yaml

from .kg import HERE, load_metapaths, load_store, store_path
from .output import write_bench

DEFAULT_OUT = HERE / "generated"


def main(argv: list[str] | None = None, description: str | None = None) -> None:
    """Parse ``argv``, load the store and the templates and write the bench files."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help=f"output directory (default: {DEFAULT_OUT})",
    )
    ap.add_argument(
        "--templates",
        type=Path,
        default=HERE / "templates.yaml",
        help="wording templates (default: templates.yaml beside this script)",
    )
    args = ap.parse_args(argv)
    kg = store_path()
    with duckdb.connect(str(kg), read_only=True) as con:
        load_store(con)
        metapaths = load_metapaths(con)
    T = yaml.safe_load(args.templates.read_text(encoding="utf-8"))

    write_bench(args.out, T, metapaths)
