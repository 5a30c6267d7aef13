"""Merge the raw Hetionet files, aliases, relation vocabulary and passages into ``kg.duckdb``.

Every node, triple, alias and relation records the *layer* that introduced it (``hetionet``,
``disease-pack``, a KGX graph's name ...). A triple stated by two layers or two sources is
stored once per (layer, source), with that source's detail (evidence, action type) and score;
readers deduplicate ``(subj, rel, obj)`` over the layers they use.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import duckdb

from engine.graph.relations import RELATIONS, Relation
from engine.ingest.drugnames import inn_names
from engine.ingest.nearest import Hierarchy, nearest_rows
from engine.ingest.sources import DO_TERMS, DRUG_NAMES, AliasSource, DataError, KGSource
from engine.util.text import alias_key

BASE_LAYER = "hetionet"

SCHEMA = """
CREATE TABLE IF NOT EXISTS nodes (
    id VARCHAR PRIMARY KEY, name VARCHAR, kind VARCHAR, layer VARCHAR DEFAULT 'hetionet');
CREATE TABLE IF NOT EXISTS triples (
    subj VARCHAR, rel VARCHAR, obj VARCHAR, source VARCHAR, layer VARCHAR DEFAULT 'hetionet',
    detail VARCHAR, score DOUBLE);
CREATE TABLE IF NOT EXISTS aliases (
    alias VARCHAR, key VARCHAR, node_id VARCHAR, source VARCHAR, is_primary BOOLEAN,
    layer VARCHAR DEFAULT 'hetionet');
CREATE TABLE IF NOT EXISTS relations (
    rel VARCHAR PRIMARY KEY, source_kind VARCHAR, target_kind VARCHAR, verb VARCHAR,
    description VARCHAR, undirected BOOLEAN, layer VARCHAR DEFAULT 'hetionet');
CREATE TABLE IF NOT EXISTS layers (
    name VARCHAR PRIMARY KEY, description VARCHAR, fingerprint VARCHAR, built_at DOUBLE,
    report VARCHAR);
CREATE TABLE IF NOT EXISTS xrefs (curie VARCHAR, node_id VARCHAR, layer VARCHAR);
CREATE TABLE IF NOT EXISTS passages (
    id VARCHAR PRIMARY KEY, source VARCHAR, title VARCHAR, text VARCHAR, corpus VARCHAR);
CREATE TABLE IF NOT EXISTS documents (doc VARCHAR PRIMARY KEY, title VARCHAR, conclusion VARCHAR);
CREATE TABLE IF NOT EXISTS node_details (node_id VARCHAR PRIMARY KEY, description VARCHAR);
CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE IF NOT EXISTS metapaths (abbrev VARCHAR, length INTEGER, coef DOUBLE);
CREATE TABLE IF NOT EXISTS sampled_relations (
    rel VARCHAR, layer VARCHAR, kept BIGINT, total BIGINT);
"""
PREDICATES = """
CREATE TABLE IF NOT EXISTS predicates (
    predicate VARCHAR, rel VARCHAR, source_kind VARCHAR, target_kind VARCHAR, edges INTEGER,
    layer VARCHAR);
"""
"""Which relation each predicate of a KGX layer became, between which kinds (its triples are
stored under ``rel``, subject first): how the predicate's own words reach the relation. Made
by the first KGX load, so stores built before it simply have none."""

_TSV_BAD = re.compile(r"[\t\r\n]")

INDEXES = """
CREATE INDEX IF NOT EXISTS triples_subj_rel ON triples (subj, rel);
CREATE INDEX IF NOT EXISTS triples_obj_rel ON triples (obj, rel);
CREATE INDEX IF NOT EXISTS aliases_key ON aliases (key);
"""


def record_layer(
    con: duckdb.DuckDBPyConnection, name: str, description: str, fingerprint: str, report: str
) -> None:
    """Mark a layer as built (``KGStore`` uses every recorded layer by default)."""
    con.execute(
        "INSERT OR REPLACE INTO layers VALUES (?, ?, ?, epoch(now()), ?)",
        [name, description, fingerprint, report],
    )


def _metaedge_map(con: duckdb.DuckDBPyConnection, src: KGSource) -> dict[tuple[str, str, str], str]:
    rows = con.execute(
        "SELECT * FROM read_csv(?, delim='\t', header=true)", [str(src.metaedges)]
    ).fetchall()
    out: dict[tuple[str, str, str], str] = {}
    for row in rows:
        name, abbrev = str(row[0]), str(row[1])
        sep = " > " if " > " in name else " - "
        s, verb, t = name.split(sep)
        out[(s.replace(" ", ""), verb.lower(), t.replace(" ", ""))] = abbrev
    return out


def load_kg(con: duckdb.DuckDBPyConnection, src: KGSource, tag: str = BASE_LAYER) -> int:
    """Load nodes and merged, deduplicated triples from a Hetionet-layout directory as layer
    ``tag`` (its source, too)."""
    con.execute(
        "INSERT INTO nodes SELECT id, name, kind, ? FROM read_csv(?, delim='\t', header=true,"
        " columns={'id':'VARCHAR','name':'VARCHAR','kind':'VARCHAR'}) ON CONFLICT DO NOTHING",
        [tag, str(src.nodes)],
    )
    emap = _metaedge_map(con, src)
    kinds = {k.replace(" ", ""): k for k in (r.source for r in RELATIONS)} | {
        k.replace(" ", ""): k for k in (r.target for r in RELATIONS)
    }
    full: set[str] = set()
    con.execute("CREATE TEMP TABLE staged (subj VARCHAR, rel VARCHAR, obj VARCHAR)")
    for f in src.edge_files:
        stem = f.name.split(".")[0]
        s, verb, t = stem.split("_")
        t = t.replace("Compund", "Compound")
        abbrev = emap.get((s, verb.lower(), t))
        if abbrev is None:
            raise DataError(f"{f.name}: no metaedge {s} {verb} {t}")
        full.add(abbrev)
        con.execute(
            f"INSERT INTO staged SELECT '{kinds[s]}::' || c0, '{abbrev}', '{kinds[t]}::' || c1"
            " FROM read_csv(?, delim='\t', header=false, skip=1,"
            " columns={'c0':'VARCHAR','c1':'VARCHAR'})",
            [str(f)],
        )
    if src.sample is not None:
        con.execute(
            "INSERT INTO staged SELECT source, metaedge, target FROM read_csv(?, delim='\t',"
            " header=true, columns={'source':'VARCHAR','metaedge':'VARCHAR','target':'VARCHAR'})"
            " WHERE NOT list_contains(?, metaedge)",
            [str(src.sample), sorted(full)],
        )
        _record_sampled(con, src, full, tag)
    con.execute(
        "INSERT INTO triples SELECT DISTINCT s.subj, s.rel, s.obj, ?, ?, NULL, NULL FROM staged s"
        " WHERE NOT EXISTS (SELECT 1 FROM triples t WHERE t.subj = s.subj AND t.rel = s.rel"
        " AND t.obj = s.obj AND t.layer = ?)",
        [tag, tag, tag],
    )
    con.execute("DROP TABLE staged")
    dangling = con.execute(
        "SELECT count(*) FROM triples WHERE subj NOT IN (SELECT id FROM nodes)"
        " OR obj NOT IN (SELECT id FROM nodes)"
    ).fetchone()
    if dangling and dangling[0]:
        raise DataError(f"{dangling[0]} triples reference unknown nodes")
    row = con.execute("SELECT count(*) FROM triples").fetchone()
    return int(row[0]) if row else 0


def _record_sampled(
    con: duckdb.DuckDBPyConnection, src: KGSource, full: set[str], tag: str
) -> None:
    """Record the relations the layer holds only a sample of: those staged from the sample
    file with fewer edges than the metaedge table counts for the whole graph."""
    totals = {
        str(a): int(n)
        for a, n in con.execute(
            "SELECT abbreviation, edges FROM read_csv(?, delim='\t', header=true)",
            [str(src.metaedges)],
        ).fetchall()
    }
    kept = con.execute(
        "SELECT rel, count(DISTINCT (subj, obj)) FROM staged WHERE NOT list_contains(?, rel)"
        " GROUP BY rel",
        [sorted(full)],
    ).fetchall()
    con.execute("DELETE FROM sampled_relations WHERE layer = ?", [tag])
    rows = [
        (str(rel), tag, int(n), totals[str(rel)])
        for rel, n in kept
        if totals.get(str(rel), 0) > int(n)
    ]
    if rows:
        con.executemany("INSERT INTO sampled_relations VALUES (?, ?, ?, ?)", rows)


def _alias_rows(
    con: duckdb.DuckDBPyConnection, src: AliasSource, details: list[tuple[str, str]]
) -> Iterator[tuple[str, str, str]]:
    """(alias, node_id, source) from Disease Ontology, NCBI gene_info, DrugBank and DrugCentral's
    international names; gene full names are collected into ``details``."""
    known = {r[0] for r in con.execute("SELECT id FROM nodes").fetchall()}
    do = src.path("disease-ontology_term-names.tsv")
    do_names: list[tuple[str, str]] = []
    if do:
        with gzip.open(do, "rt", encoding="utf-8") if do.suffix == ".gz" else do.open() as fh:
            next(fh)
            for line in fh:
                parts = line.rstrip("\n").split("\t")
                if len(parts) < 2:
                    continue
                do_names.append((parts[0], parts[1]))
                if f"Disease::{parts[0]}" in known:
                    yield parts[1], f"Disease::{parts[0]}", "disease-ontology"
    terms = src.path(DO_TERMS)
    if terms:
        graph = {k.removeprefix("Disease::") for k in known if k.startswith("Disease::")}
        yield from nearest_rows(Hierarchy.read(terms), do_names, graph)
    genes = src.path("ncbi_Homo_sapiens.gene_info")
    if genes:
        with (
            gzip.open(genes, "rt", encoding="utf-8")
            if genes.suffix == ".gz"
            else genes.open() as fh
        ):
            for line in fh:
                if line.startswith("#"):
                    continue
                p = line.rstrip("\n").split("\t")
                node = f"Gene::{p[1]}"
                if node not in known:
                    continue
                if p[8] and p[8] != "-":
                    details.append((node, p[8]))
                names = [p[2], *p[4].split("|"), p[8], p[11] if len(p) > 11 else "-"]
                for name in names:
                    if name and name != "-":
                        yield name, node, "ncbi-gene"
    drugs = src.path("drugbank_aliases.json")
    if drugs:
        if drugs.suffix == ".gz":
            with gzip.open(drugs, "rt", encoding="utf-8") as fh:
                raw = fh.read()
        else:
            raw = drugs.read_text(encoding="utf-8")
        for db_id, names in json.loads(raw).items():
            node = f"Compound::{db_id}"
            if node in known:
                for name in names:
                    yield name, node, "drugbank"
    inn = src.path(DRUG_NAMES)
    if inn:
        compounds = dict(
            con.execute("SELECT id, name FROM nodes WHERE kind = 'Compound'").fetchall()
        )
        yield from inn_names(inn, compounds)


def add_aliases(
    con: duckdb.DuckDBPyConnection,
    rows: Sequence[tuple[str, str, str]],
    layer: str,
    primary_source: str = BASE_LAYER,
) -> None:
    """Primary aliases (the node's name) for nodes that have none, then ``(alias, node_id,
    source)`` rows not yet known for their node, all recorded under ``layer``; keys filled."""
    con.execute(
        "INSERT INTO aliases SELECT name, NULL, id, ?, true, ? FROM nodes"
        " WHERE id NOT IN (SELECT node_id FROM aliases WHERE is_primary)",
        [primary_source, layer],
    )
    con.execute("CREATE TEMP TABLE new_alias (alias VARCHAR, node_id VARCHAR, source VARCHAR)")
    bulk_insert(con, "new_alias", rows)
    con.execute(
        "INSERT INTO aliases SELECT DISTINCT n.alias, NULL, n.node_id, n.source, false, ?"
        " FROM new_alias n WHERE NOT EXISTS (SELECT 1 FROM aliases a WHERE a.alias = n.alias"
        " AND a.node_id = n.node_id)",
        [layer],
    )
    con.execute("DROP TABLE new_alias")
    keys = con.execute("SELECT DISTINCT alias FROM aliases WHERE key IS NULL").fetchall()
    con.execute("CREATE TEMP TABLE keys_t (alias VARCHAR, key VARCHAR)")
    bulk_insert(con, "keys_t", [(a, alias_key(a)) for (a,) in keys])
    con.execute(
        "UPDATE aliases SET key = k.key FROM keys_t k WHERE aliases.alias = k.alias"
        " AND aliases.key IS NULL"
    )
    con.execute("DROP TABLE keys_t")
    con.execute("DELETE FROM aliases WHERE key = ''")


def load_aliases(
    con: duckdb.DuckDBPyConnection,
    src: AliasSource,
    layer: str = BASE_LAYER,
    primary_source: str = BASE_LAYER,
) -> int:
    details: list[tuple[str, str]] = []
    rows = [(a, node, s) for a, node, s in _alias_rows(con, src, details)]
    add_aliases(con, rows, layer, primary_source)
    con.execute("CREATE TEMP TABLE gene_details (node_id VARCHAR, description VARCHAR)")
    bulk_insert(con, "gene_details", details)
    con.execute(
        "INSERT INTO node_details SELECT DISTINCT ON (node_id) * FROM gene_details"
        " ON CONFLICT DO NOTHING"
    )
    con.execute("DROP TABLE gene_details")
    desc = src.path("disease-ontology_description.tsv")
    if desc:
        con.execute(
            "INSERT INTO node_details SELECT 'Disease::' || disease_id, description"
            " FROM read_csv(?, delim='\t', header=true, quote='',"
            " columns={'disease_id':'VARCHAR','name':'VARCHAR','description':'VARCHAR'})"
            " WHERE 'Disease::' || disease_id IN (SELECT id FROM nodes) ON CONFLICT DO NOTHING",
            [str(desc)],
        )
    row = con.execute("SELECT count(*) FROM aliases").fetchone()
    return int(row[0]) if row else 0


def bulk_insert(
    con: duckdb.DuckDBPyConnection, table: str, rows: Sequence[Sequence[str | None]]
) -> None:
    """Insert many string rows quickly through a temporary TSV file. Rows may be narrower than
    the table (the remaining columns take their defaults); ``None`` becomes NULL."""
    if not rows:
        return
    width = len(rows[0])
    cols = [r[1] for r in con.execute(f"PRAGMA table_info('{table}')").fetchall()][:width]
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False, encoding="utf-8") as fh:
        for row in rows:
            fh.write("\t".join("\\N" if v is None else _TSV_BAD.sub(" ", v) for v in row) + "\n")
        tmp = fh.name
    try:
        con.execute(
            f"INSERT INTO {table} ({', '.join(cols)}) SELECT * FROM read_csv(?, delim='\t',"
            " header=false, quote='', escape='', all_varchar=true, nullstr=['', '\\N'])",
            [tmp],
        )
    finally:
        os.unlink(tmp)


def load_relations(
    con: duckdb.DuckDBPyConnection,
    relations: Iterable[Relation] = RELATIONS,
    layer: str = BASE_LAYER,
) -> None:
    """Record ``relations`` as layer ``layer``'s. The columns are named: a store built before
    the relation paraphrases were dropped (nothing read them) still has that column."""
    for r in relations:
        con.execute(
            "INSERT INTO relations (rel, source_kind, target_kind, verb, description, undirected,"
            " layer) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            [r.rel, r.source, r.target, r.verb, r.description, r.undirected, layer],
        )


def read_passage_file(path: Path, corpus: str) -> list[tuple[str, str, str, str]]:
    """Passages of a JSONL file (``id``, ``text``, optional ``source``, ``title``)."""
    opener = gzip.open if path.suffix == ".gz" else open
    rows: list[tuple[str, str, str, str]] = []
    with opener(path, "rt", encoding="utf-8") as fh:  # type: ignore[operator]
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                pid, text = str(obj["id"]), str(obj["text"])
            except (json.JSONDecodeError, KeyError, TypeError) as exc:
                raise DataError(f"{path}:{n}: not a passage record ({exc})") from exc
            rows.append((pid, str(obj.get("source", corpus)), str(obj.get("title", "")), text))
    return rows


def load_passage_rows(
    con: duckdb.DuckDBPyConnection, rows: Iterable[tuple[str, str, str, str]], corpus: str
) -> int:
    """Upsert ``(id, source, title, text)`` rows into the passage table under ``corpus``."""
    full = [(pid, source, title, text, corpus) for pid, source, title, text in rows]
    con.execute(
        "CREATE TEMP TABLE new_p (id VARCHAR, source VARCHAR, title VARCHAR, text VARCHAR,"
        " corpus VARCHAR)"
    )
    bulk_insert(con, "new_p", full)
    con.execute("INSERT OR REPLACE INTO passages SELECT DISTINCT ON (id) * FROM new_p")
    con.execute("DROP TABLE new_p")
    return len(full)


def load_passages(con: duckdb.DuckDBPyConnection, path: Path, corpus: str) -> int:
    """Upsert passages from a JSONL file."""
    return load_passage_rows(con, read_passage_file(path, corpus), corpus)


def load_metapaths(con: duckdb.DuckDBPyConnection, path: Path) -> int:
    """Project Rephetio's metapath table (abbreviation, length, model coefficient)."""
    rows: list[tuple[str, int, float | None]] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()[1:], 2):
        cols = line.split("\t")
        if len(cols) < 5:
            raise DataError(f"{path}:{n}: expected at least 5 columns")
        try:
            rows.append((cols[0], int(cols[1]), float(cols[4]) if cols[4] else None))
        except ValueError as exc:
            raise DataError(f"{path}:{n}: {exc}") from exc
    con.executemany("INSERT INTO metapaths VALUES (?, ?, ?)", rows)
    return len(rows)
