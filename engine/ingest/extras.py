"""Layers and extra sources added to a building store: packs from manifest files
(``--layer``), KGX graphs (``--kgx``), extra KG directories and passage files (``--kg``,
``--passages``); and the fingerprints and meta rows that say what a store already holds."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import duckdb

from engine.ingest import kg as kgload
from engine.ingest import orphanet
from engine.ingest.kgx import KGXInput, load_kgx
from engine.ingest.pack import LAYER as PACK_LAYER
from engine.ingest.pack import load_pack
from engine.ingest.report import IngestReport
from engine.ingest.sources import AliasSource, DataError, KGSource

SCHEMA_VERSION = "4"

PACKS = {PACK_LAYER: load_pack, orphanet.LAYER: orphanet.load_orphanet}
"""Layers built from manifest files (``helix-chat ingest --layer NAME``)."""
PACK_NEEDS: dict[str, tuple[str, ...]] = {orphanet.LAYER: orphanet.NEEDS}
"""Other layers whose manifest files a layer also reads (not that it builds them)."""
PACK_VERSIONS = {PACK_LAYER: "6"}
"""A layer's version, part of its fingerprint: raised when the same files make other content
(2: DrugCentral pharmacologic classes; 3: indications read by their DO name; 4: and by the
disease their name ends with, and DISEASES' association-study rows; 5: and by the disease their
first words name; 6: an indication named as a DO term is filed under that term whatever DOID
DrugCentral gives it), so a built store gets it."""

LayerLoader = Callable[[duckdb.DuckDBPyConnection], str]


def fingerprint(paths: list[Path], version: str = "") -> str:
    h = hashlib.sha256((SCHEMA_VERSION + version).encode())
    for p in sorted(paths):
        st = p.stat()
        h.update(f"{p.name}:{st.st_size}".encode())
    return h.hexdigest()[:16]


def meta(con: duckdb.DuckDBPyConnection, key: str) -> str | None:
    row = con.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
    return str(row[0]) if row else None


def set_meta(con: duckdb.DuckDBPyConnection, key: str, value: str) -> None:
    con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [key, value])


def pack_loader(
    name: str, files: dict[str, Path], aliases: AliasSource, fp: str, report: IngestReport
) -> LayerLoader:
    def load(con: duckdb.DuckDBPyConnection) -> str:
        con.execute("DELETE FROM triples WHERE layer = ?", [name])
        layer = PACKS[name](con, files, aliases)
        con.execute("UPDATE layers SET fingerprint = ? WHERE name = ?", [fp, name])
        report.layers[name] = layer.to_dict()
        return f"{sum(layer.nodes.values()):,} new nodes, {sum(layer.triples.values()):,} triples"

    return load


def kgx_loader(item: KGXInput, gene_info: Path | None, report: IngestReport) -> LayerLoader:
    def load(con: duckdb.DuckDBPyConnection) -> str:
        layer = load_kgx(con, item, gene_info)
        report.layers[item.layer] = layer.to_dict()
        return (
            f"{sum(layer.nodes.values()):,} new nodes, {layer.joined:,} joined to existing "
            f"nodes, {sum(layer.triples.values()):,} triples"
        )

    return load


def extras_pending(
    kg_path: Path, kg_dirs: list[Path], passage_files: list[Path], fresh: bool
) -> bool:
    if not (kg_dirs or passage_files):
        return False
    if fresh:
        return True
    with duckdb.connect(str(kg_path), read_only=True) as con:
        done = json.loads(meta(con, "extras") or "{}")
    for d in kg_dirs:
        if not d.is_dir() or done.get(f"kg:{d.resolve()}") != fingerprint(list(d.iterdir())):
            return True
    return any(
        not f.is_file() or done.get(f"passages:{f.resolve()}") != fingerprint([f])
        for f in passage_files
    )


def add_extras(
    con: duckdb.DuckDBPyConnection,
    kg_dirs: list[Path],
    passage_files: list[Path],
    report: IngestReport,
) -> set[str]:
    changed: set[str] = set()
    done = json.loads(meta(con, "extras") or "{}")
    for d in kg_dirs:
        if not d.is_dir():
            raise DataError(f"--kg {d}: not a directory")
        key, fp = f"kg:{d.resolve()}", fingerprint(list(d.iterdir()))
        if done.get(key) == fp:
            continue
        kgload.load_kg(con, KGSource.from_dir(d), tag=d.name)
        kgload.load_aliases(con, AliasSource.from_dir(d), layer=d.name, primary_source=d.name)
        kgload.record_layer(con, d.name, f"--kg {d}", "", "{}")
        done[key] = fp
        changed.add("kg")
    for f in passage_files:
        if not f.is_file():
            raise DataError(f"--passages {f}: no such file")
        key, fp = f"passages:{f.resolve()}", fingerprint([f])
        if done.get(key) == fp:
            continue
        kgload.load_passages(con, f, corpus=f.name.split(".")[0])
        done[key] = fp
        changed.add("passages")
    set_meta(con, "extras", json.dumps(done))
    report.steps.update({f"extra:{k}": "added" for k in changed})
    return changed
