"""``helix-chat ingest``: build the stores under the data home, idempotently and resumably.

Steps, each skipped when its output exists and its inputs are unchanged:

1. ``kg``        merge nodes, triples, aliases, relations, passages into ``stores/kg.duckdb``
                 (built in a temporary file and renamed, so a killed ingest leaves no half store);
2. ``names``     embed node names and synonyms that linking may need -> ``names.faiss``;
3. ``passages``  embed passages -> ``passages.faiss``.

Embeddings are cached by content (``stores/embeddings/``), so a re-run or an added passages
file only embeds new text. Extra ``--passages`` files and ``--kg`` directories are appended.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import duckdb

from engine.config import Settings
from engine.index.vectors import VectorIndex
from engine.ingest import kg as kgload
from engine.ingest.defaults import DefaultData, resolve_default
from engine.ingest.passages import disease_definitions, pubmedqa_passages
from engine.ingest.sources import AliasSource, DataError, KGSource
from engine.providers.embedder.cache import CachedEmbedder
from engine.providers.embedder.sentence import SentenceTransformerEmbedder

SCHEMA_VERSION = "3"
EMBED_KINDS = (
    "Compound",
    "Disease",
    "Symptom",
    "Side Effect",
    "Anatomy",
    "Pharmacologic Class",
    "Pathway",
)
"""Kinds whose names are embedded for linking; genes and GO terms link by symbol/alias only."""


class Progress(Protocol):
    def start(self, step: str, total: int) -> None: ...
    def advance(self, n: int) -> None: ...
    def finish(self, step: str, note: str = "") -> None: ...


class SilentProgress:
    def start(self, step: str, total: int) -> None:
        return None

    def advance(self, n: int) -> None:
        return None

    def finish(self, step: str, note: str = "") -> None:
        return None


@dataclass
class IngestReport:
    steps: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    triples: int = 0
    nodes: int = 0
    aliases: int = 0
    passages: int = 0


def _fingerprint(paths: list[Path]) -> str:
    h = hashlib.sha256(SCHEMA_VERSION.encode())
    for p in sorted(paths):
        st = p.stat()
        h.update(f"{p.name}:{st.st_size}".encode())
    return h.hexdigest()[:16]


def stores_ready(settings: Settings) -> bool:
    d = settings.stores_dir
    return all((d / n).exists() for n in ("kg.duckdb", "names.faiss", "passages.faiss"))


def _meta(con: duckdb.DuckDBPyConnection, key: str) -> str | None:
    row = con.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
    return str(row[0]) if row else None


def _set_meta(con: duckdb.DuckDBPyConnection, key: str, value: str) -> None:
    con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [key, value])


def build_kg(path: Path, data: DefaultData, report: IngestReport) -> None:
    tmp = path.with_suffix(".building")
    tmp.unlink(missing_ok=True)
    con = duckdb.connect(str(tmp))
    try:
        con.execute(kgload.SCHEMA)
        report.triples = kgload.load_kg(con, data.kg)
        report.aliases = kgload.load_aliases(con, data.aliases)
        kgload.load_relations(con)
        kgload.load_metapaths(con, data.metapaths)
        diseases = {
            r[0] for r in con.execute("SELECT id FROM nodes WHERE kind = 'Disease'").fetchall()
        }
        report.passages += kgload.load_passage_rows(
            con, pubmedqa_passages(data.pubmedqa), "default"
        )
        report.passages += kgload.load_passage_rows(
            con, disease_definitions(data.disease_descriptions, diseases), "default"
        )
        con.execute(kgload.INDEXES)
        _set_meta(con, "fingerprint", _fingerprint(data.files))
        _set_meta(con, "schema", SCHEMA_VERSION)
        _set_meta(con, "built_at", str(time.time()))
        con.execute("CHECKPOINT")
    finally:
        con.close()
    tmp.replace(path)


def names_to_embed(con: duckdb.DuckDBPyConnection) -> tuple[list[str], list[str]]:
    kinds = list(EMBED_KINDS)
    rows = con.execute(
        "SELECT DISTINCT a.node_id, a.alias FROM aliases a JOIN nodes n ON n.id = a.node_id"
        " WHERE list_contains(?, n.kind) AND (a.is_primary OR a.source = 'disease-ontology')"
        " ORDER BY a.node_id, a.alias",
        [kinds],
    ).fetchall()
    return [r[0] for r in rows], [r[1] for r in rows]


def build_names_index(
    con: duckdb.DuckDBPyConnection, emb: CachedEmbedder, out: Path, progress: Progress
) -> int:
    ids, texts = names_to_embed(con)
    progress.start("names", len(texts))
    vecs = emb.encode(texts, progress=progress.advance)
    VectorIndex.build(ids, vecs).save(out)
    progress.finish("names", f"{len(texts)} names")
    return len(texts)


def build_passage_index(
    con: duckdb.DuckDBPyConnection, emb: CachedEmbedder, out: Path, progress: Progress
) -> int:
    rows = con.execute("SELECT id, text FROM passages ORDER BY id").fetchall()
    progress.start("passages", len(rows))
    vecs = emb.encode([r[1] for r in rows], progress=progress.advance)
    VectorIndex.build([r[0] for r in rows], vecs).save(out)
    progress.finish("passages", f"{len(rows)} passages")
    return len(rows)


def open_embedder(settings: Settings) -> CachedEmbedder:
    inner = SentenceTransformerEmbedder(settings.embed_model, settings.embed_batch_size)
    return CachedEmbedder(inner, settings.stores_dir / "embeddings")


def ingest(
    settings: Settings,
    *,
    kg_dirs: list[Path] | None = None,
    passage_files: list[Path] | None = None,
    progress: Progress | None = None,
    force: bool = False,
    embedder_factory: Callable[[Settings], CachedEmbedder] = open_embedder,
) -> IngestReport:
    """Build or update the stores; returns what was done."""
    progress = progress or SilentProgress()
    report = IngestReport()
    stores = settings.stores_dir
    stores.mkdir(parents=True, exist_ok=True)
    data = resolve_default(settings)
    files = data.files
    kg_path = settings.kg_path
    t0 = time.perf_counter()
    fresh = force or not kg_path.exists()
    if not fresh:
        with duckdb.connect(str(kg_path), read_only=True) as con:
            fresh = _meta(con, "fingerprint") != _fingerprint(files)
    if fresh:
        progress.start("kg", 1)
        build_kg(kg_path, data, report)
        (stores / "names.faiss").unlink(missing_ok=True)
        (stores / "passages.faiss").unlink(missing_ok=True)
        progress.finish("kg", f"{report.triples:,} triples, {report.aliases:,} aliases")
        report.steps["kg"] = "built"
    else:
        report.steps["kg"] = "up to date"
    report.seconds["kg"] = time.perf_counter() - t0

    con = duckdb.connect(str(kg_path))
    emb: CachedEmbedder | None = None
    try:
        extra_changed = _add_extras(con, kg_dirs or [], passage_files or [], report)
        if extra_changed & {"kg"}:
            (stores / "names.faiss").unlink(missing_ok=True)
        if extra_changed & {"passages"}:
            (stores / "passages.faiss").unlink(missing_ok=True)
        for step, builder in (("names", build_names_index), ("passages", build_passage_index)):
            out = stores / f"{step}.faiss"
            t = time.perf_counter()
            if out.exists() and not force:
                report.steps[step] = "up to date"
                continue
            emb = emb or embedder_factory(settings)
            count = builder(con, emb, out, progress)
            report.steps[step] = f"built ({count})"
            report.seconds[step] = time.perf_counter() - t
        for key, table in (
            ("nodes", "nodes"),
            ("triples", "triples"),
            ("aliases", "aliases"),
            ("passages", "passages"),
        ):
            row = con.execute(f"SELECT count(*) FROM {table}").fetchone()
            setattr(report, key, int(row[0]) if row else 0)
        con.execute("CHECKPOINT")
    finally:
        con.close()
        if emb is not None:
            emb.close()
    return report


def _add_extras(
    con: duckdb.DuckDBPyConnection,
    kg_dirs: list[Path],
    passage_files: list[Path],
    report: IngestReport,
) -> set[str]:
    changed: set[str] = set()
    done = json.loads(_meta(con, "extras") or "{}")
    for d in kg_dirs:
        if not d.is_dir():
            raise DataError(f"--kg {d}: not a directory")
        key, fp = f"kg:{d.resolve()}", _fingerprint(list(d.iterdir()))
        if done.get(key) == fp:
            continue
        kgload.load_kg(con, KGSource.from_dir(d), tag=d.name)
        kgload.load_aliases(con, AliasSource.from_dir(d))
        done[key] = fp
        changed.add("kg")
    for f in passage_files:
        if not f.is_file():
            raise DataError(f"--passages {f}: no such file")
        key, fp = f"passages:{f.resolve()}", _fingerprint([f])
        if done.get(key) == fp:
            continue
        kgload.load_passages(con, f, corpus=f.name.split(".")[0])
        done[key] = fp
        changed.add("passages")
    _set_meta(con, "extras", json.dumps(done))
    report.steps.update({f"extra:{k}": "added" for k in changed})
    return changed
