"""``helix-chat ingest``: build the stores under the data home, idempotently and resumably.

Steps, each skipped when its output exists and its inputs are unchanged:

1. ``kg``        merge nodes, triples, aliases, relations, passages into ``stores/kg.duckdb``,
                 then the layers asked for (``--layer``; none named: the settings'
                 ``build_layers``, the disease pack) and KGX graphs (``--kgx``);
2. ``names``     embed node names and synonyms that linking may need -> ``names.faiss``;
3. ``passages``  embed passages -> ``passages.faiss``.

Everything is built beside the live files (``*.building*``) and swapped in at the end, so a
failed or killed ingest leaves the stores as they were.

Embeddings are cached by content (``stores/embeddings/``), so a re-run or an added passages
file only embeds new text. Extra ``--passages`` files and ``--kg`` directories are appended.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import duckdb

from engine.config import Settings
from engine.index.vectors import VectorIndex, index_files
from engine.ingest import kg as kgload
from engine.ingest.defaults import DefaultData, resolve_default, resolve_layer
from engine.ingest.extras import (
    PACK_NEEDS,
    PACK_VERSIONS,
    PACKS,
    SCHEMA_VERSION,
    LayerLoader,
    add_extras,
    extras_pending,
    fingerprint,
    kgx_loader,
    meta,
    pack_loader,
    set_meta,
)
from engine.ingest.kgx import KGXInput
from engine.ingest.passages import disease_definitions, pubmedqa_documents, pubmedqa_passages
from engine.ingest.ready import stores_ready
from engine.ingest.report import IngestReport, Progress, SilentProgress
from engine.ingest.sources import DataError
from engine.providers.embedder.cache import CachedEmbedder
from engine.providers.embedder.sentence import SentenceTransformerEmbedder

__all__ = ["ingest", "stores_ready"]

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


def check_writable(directory: Path, home: Path) -> None:
    """Create ``directory`` and write a probe file in it, before any build work starts;
    ``DataError`` naming the data home and how to choose another when that fails."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / f".write-probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise DataError(
            f"the data home {home} is not writable ({exc.strerror or exc}); make it writable, "
            "or choose another with --home or HELIX_HOME"
        ) from exc


def build_kg(path: Path, data: DefaultData, report: IngestReport) -> None:
    """A fresh store with the ``hetionet`` layer, written at ``path`` (a building copy)."""
    for stale in (path, path.with_name(path.name + ".wal")):
        stale.unlink(missing_ok=True)
    con = duckdb.connect(str(path))
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
        con.executemany(
            "INSERT INTO documents VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            list(pubmedqa_documents(data.pubmedqa)),
        )
        kgload.record_layer(con, kgload.BASE_LAYER, "Hetionet v1.0", fingerprint(data.files), "{}")
        con.execute(kgload.INDEXES)
        set_meta(con, "fingerprint", fingerprint(data.files))
        set_meta(con, "schema", SCHEMA_VERSION)
        set_meta(con, "built_at", str(time.time()))
        con.execute("CHECKPOINT")
    finally:
        con.close()


def names_to_embed(con: duckdb.DuckDBPyConnection) -> tuple[list[str], list[str]]:
    """Names (and, for Hetionet's diseases, DO synonyms) of the kinds linked by embedding.
    Synonyms of other layers' nodes link by exact alias only, which keeps a pack build short."""
    kinds = list(EMBED_KINDS)
    rows = con.execute(
        "SELECT DISTINCT a.node_id, a.alias FROM aliases a JOIN nodes n ON n.id = a.node_id"
        " WHERE list_contains(?, n.kind) AND (a.is_primary"
        "  OR (a.source = 'disease-ontology' AND a.layer = 'hetionet'))"
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


def recover_wal(kg_path: Path) -> str | None:
    """Fold a write-ahead log left by a killed writer into the store (or, if it cannot be
    replayed, set it aside) so the home opens again; says what it did."""
    wal = kg_path.with_name(kg_path.name + ".wal")
    if not wal.exists() or not kg_path.exists():
        return None
    try:
        with duckdb.connect(str(kg_path)) as con:
            con.execute("CHECKPOINT")
        return f"replayed a stale write-ahead log into {kg_path.name}"
    except duckdb.IOException as exc:
        if "lock" in str(exc).lower():
            raise DataError(f"{kg_path} is being written by another process: {exc}") from exc
        aside = wal.with_name(wal.name + ".stale")
        wal.replace(aside)
        return f"set aside an unreadable write-ahead log as {aside.name}"
    except duckdb.Error:
        aside = wal.with_name(wal.name + ".stale")
        wal.replace(aside)
        return f"set aside an unreadable write-ahead log as {aside.name}"


def _built_layers(kg_path: Path) -> dict[str, str]:
    """Layer name -> fingerprint recorded in a store (empty for a store without layers)."""
    if not kg_path.exists():
        return {}
    with duckdb.connect(str(kg_path), read_only=True) as con:
        try:
            rows = con.execute("SELECT name, fingerprint FROM layers").fetchall()
        except duckdb.CatalogException:
            return {}
    return {str(n): str(f or "") for n, f in rows}


def _store_fingerprint(kg_path: Path) -> str | None:
    with duckdb.connect(str(kg_path), read_only=True) as con:
        return meta(con, "fingerprint")


"""Adds one layer to an open building store; returns a one-line summary."""


def ingest(
    settings: Settings,
    *,
    layers: list[str] | None = None,
    kgx: list[KGXInput] | None = None,
    kg_dirs: list[Path] | None = None,
    passage_files: list[Path] | None = None,
    progress: Progress | None = None,
    force: bool = False,
    embedder_factory: Callable[[Settings], CachedEmbedder] = open_embedder,
) -> IngestReport:
    """Build or update the stores; returns what was done. ``layers``: the layers to add to
    Hetionet (None: the settings' ``build_layers``, the disease pack by default; ``[]``: none).

    All graph work happens in a building copy (``kg.building.duckdb``) with its names and
    passage indexes beside it; only a finished build replaces the live files, so a failure or
    a kill at any point leaves the stores as they were.
    """
    progress = progress or SilentProgress()
    report = IngestReport()
    stores = settings.stores_dir
    check_writable(stores, settings.home)
    kg_path = settings.kg_path
    note = recover_wal(kg_path)
    if note:
        report.steps["recovered"] = note
    tmp = stores / "kg.building.duckdb"
    for stale in stores.glob("*.building*"):
        stale.unlink(missing_ok=True)
    data = resolve_default(settings)
    t0 = time.perf_counter()
    try:
        fresh = force or not kg_path.exists()
        if not fresh:
            fresh = _store_fingerprint(kg_path) != fingerprint(data.files)
        built = {} if not kg_path.exists() else _built_layers(kg_path)
    except duckdb.Error as exc:
        reason = str(exc).splitlines()[0]
        if not force:
            raise DataError(
                f"the graph store {kg_path} cannot be read ({reason}); rebuild it with"
                " `helix-chat ingest --force`"
            ) from exc
        fresh, built = True, {}
        report.steps["recovered"] = f"unreadable store rebuilt ({reason})"
    named = settings.build_layer_list if layers is None else layers
    wanted = list(dict.fromkeys([*named, *(x for x in built if fresh and x in PACKS)]))
    loaders: list[tuple[str, LayerLoader]] = []
    for name in wanted:
        if name not in PACKS:
            raise DataError(f"unknown layer {name!r}; known: {', '.join(PACKS)}")
        files: dict[str, Path] = {}
        for part in (*PACK_NEEDS.get(name, ()), name):
            files.update(resolve_layer(settings, part))
        fp = fingerprint(list(files.values()), PACK_VERSIONS.get(name, ""))
        if fresh or built.get(name) != fp:
            loaders.append((name, pack_loader(name, files, data.aliases, fp, report)))
    for item in kgx or []:
        gene_info = data.aliases.path("ncbi_Homo_sapiens.gene_info")
        loaders.append((item.layer, kgx_loader(item, gene_info, report)))
    pending_extras = extras_pending(kg_path, kg_dirs or [], passage_files or [], fresh)
    if not (fresh or loaders or pending_extras):
        report.steps["kg"] = "up to date"
        _finish_indexes(settings, kg_path, None, set(), force, embedder_factory, progress, report)
        return report
    try:
        progress.start("kg", 1)
        if fresh:
            build_kg(tmp, data, report)
            report.steps["kg"] = "built"
        else:
            shutil.copyfile(kg_path, tmp)
            report.steps["kg"] = "copied for update"
        report.seconds["kg"] = time.perf_counter() - t0
        changed = {"kg", "passages"} if fresh else set()
        con = duckdb.connect(str(tmp))
        try:
            for name, load in loaders:
                t = time.perf_counter()
                report.steps[f"layer:{name}"] = load(con)
                report.seconds[f"layer:{name}"] = time.perf_counter() - t
                changed.add("kg")
            changed |= add_extras(con, kg_dirs or [], passage_files or [], report)
            con.execute(kgload.INDEXES)
            con.execute("CHECKPOINT")
        finally:
            con.close()
        progress.finish("kg", report.steps["kg"])
        _finish_indexes(settings, kg_path, tmp, changed, force, embedder_factory, progress, report)
    except BaseException:
        for partial in stores.glob("*.building*"):
            partial.unlink(missing_ok=True)  # a failed build leaves only the live stores
        raise
    return report


def _finish_indexes(
    settings: Settings,
    kg_path: Path,
    tmp: Path | None,
    changed: set[str],
    force: bool,
    embedder_factory: Callable[[Settings], CachedEmbedder],
    progress: Progress,
    report: IngestReport,
) -> None:
    """Build the names/passages indexes that are missing or stale (next to the building copy
    when there is one), then swap everything into place: indexes first, the store last."""
    stores = settings.stores_dir
    source = tmp or kg_path
    con = duckdb.connect(str(source), read_only=True)
    emb: CachedEmbedder | None = None
    swaps: list[tuple[Path, Path]] = []
    try:
        for step, builder in (("names", build_names_index), ("passages", build_passage_index)):
            live = stores / f"{step}.faiss"
            stale = ("kg" if step == "names" else "passages") in changed
            if live.exists() and not force and not stale:
                report.steps[step] = "up to date"
                continue
            out = stores / f"{step}.building.faiss"
            t = time.perf_counter()
            emb = emb or embedder_factory(settings)
            count = builder(con, emb, out, progress)
            swaps.append((out, live))
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
    finally:
        con.close()
        if emb is not None:
            emb.close()
    for out, live in swaps:
        built, ids, digest = index_files(out)
        _, live_ids, live_digest = index_files(live)
        ids.replace(live_ids)
        digest.replace(live_digest)
        built.replace(live)
    if tmp is not None:
        tmp.replace(kg_path)
