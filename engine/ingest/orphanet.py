"""The ``orphanet`` layer: Orphanet's rare-disease gene links, on Disease Ontology diseases.

``helix-chat ingest --layer orphanet``. An ORPHA code becomes a DOID through the Disease
Ontology's own ``ORDO:`` cross-references, or, when DO has none, through MONDO's exact matches
(Orphanet -> MONDO -> DOID). Only one-to-one mappings are used: an ORPHA code that DO puts on
several terms (a group of subtypes) keeps the one MONDO agrees with, or none. Each link is a
``DaG`` edge with source ``Orphanet 2017`` and Orphanet's link type as its detail
("disease-causing germline mutation(s)", "major susceptibility factor" ...); links Orphanet
marks as not yet assessed are left out. Orphanet's disease names become aliases of the DOID.

A layer of its own, built on request: the 2017 files were published under Orphadata's terms
of the time (CC BY-ND 3.0), so a store holding them is for local use; Orphadata now releases
under CC BY 4.0 (see ``sources.yaml``).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path

import duckdb

from engine.ingest import kg as kgload
from engine.ingest.layers import GeneInfo, LayerReport, TripleRow, add_nodes, add_triples
from engine.ingest.sources import AliasSource, DataError

LAYER = "orphanet"
DESCRIPTION = "Orphanet rare-disease gene links (Orphadata 2017) on Disease Ontology terms"
SOURCE = "Orphanet 2017"
NEEDS = ("disease-pack",)
"""Layers whose manifest files this layer reads too (DO terms and xrefs, MONDO -> DOID)."""

GENE_COLUMNS = ("dise_orpha_id", "dise_name", "link_status", "link_type", "entrez_id", "symbol")


def _need(files: dict[str, Path], role: str) -> Path:
    if role not in files:
        raise DataError(f"the orphanet layer needs the '{role}' file of the manifest")
    return files[role]


def _rows(path: Path) -> Iterator[dict[str, str]]:
    """TSV rows; SSSOM's ``#`` header lines are skipped."""
    with path.open(encoding="utf-8", newline="") as fh:
        yield from csv.DictReader((line for line in fh if not line.startswith("#")), delimiter="\t")


def _many(pairs: Iterator[tuple[str, str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for k, v in pairs:
        out.setdefault(k, set()).add(v)
    return out


def orpha_doids(do_xrefs: Path, mondo_doid: Path, mondo_orphanet: Path) -> dict[str, str]:
    """ORPHA code (digits) -> DOID, one-to-one: DO's ``ORDO:`` xref, else MONDO's chain."""
    by_do = _many(
        (r["xref"].removeprefix("ORDO:"), r["id"])
        for r in _rows(do_xrefs)
        if (r.get("xref") or "").startswith("ORDO:")
    )
    mondo = _many(
        (r["subject_id"], r["object_id"])
        for r in _rows(mondo_doid)
        if (r.get("object_id") or "").startswith("DOID:")
    )
    by_mondo = _many(
        (r["object_id"].removeprefix("Orphanet:"), doid)
        for r in _rows(mondo_orphanet)
        if (r.get("object_id") or "").startswith("Orphanet:")
        for doid in mondo.get(r["subject_id"], ())
    )
    out: dict[str, str] = {}
    for orpha in by_do.keys() | by_mondo.keys():
        do, mo = by_do.get(orpha, set()), by_mondo.get(orpha, set())
        pick = do if len(do) == 1 else (do & mo if do else mo)
        if len(pick) == 1:
            out[orpha] = next(iter(pick))
    return out


def link_detail(link_type: str) -> str:
    """'Disease-causing germline mutation(s) in' -> 'disease-causing germline mutation(s)'."""
    text = link_type.strip().removesuffix(" in").strip()
    return text[:1].lower() + text[1:]


def gene_links(
    path: Path, doids: dict[str, str], genes: GeneInfo, report: LayerReport
) -> tuple[list[TripleRow], list[tuple[str, str]]]:
    """``DaG`` triples and (disease name, disease node) aliases from the gene-link table."""
    triples: list[TripleRow] = []
    names: list[tuple[str, str]] = []
    rows = list(_rows(path))
    if rows and not set(GENE_COLUMNS) <= set(rows[0]):
        raise DataError(f"{path.name}: expected columns {', '.join(GENE_COLUMNS)}")
    for r in rows:
        if r["link_status"].strip().lower() != "assessed":
            report.skipped[f"{SOURCE}: link not yet assessed"] += 1
            continue
        doid = doids.get(r["dise_orpha_id"].strip())
        if doid is None:
            report.skipped[f"{SOURCE}: ORPHA code without a one-to-one DOID"] += 1
            continue
        entrez = r["entrez_id"].strip()
        if entrez not in genes.symbol:
            entrez = genes.entrez(r["symbol"]) or ""
        if not entrez:
            report.skipped[f"{SOURCE}: gene not in NCBI gene_info"] += 1
            continue
        disease = f"Disease::{doid}"
        triples.append(
            (disease, "DaG", f"Gene::{entrez}", SOURCE, link_detail(r["link_type"]), None)
        )
        names.append((r["dise_name"].strip(), disease))
    return triples, names


def do_labels(path: Path, wanted: set[str]) -> list[tuple[str, str, str]]:
    """Disease nodes (DO labels) for the DOIDs the links use, for a store without the pack."""
    return [
        (f"Disease::{r['id']}", r["label"], "Disease")
        for r in _rows(path)
        if f"Disease::{r['id']}" in wanted
    ]


def load_orphanet(
    con: duckdb.DuckDBPyConnection, files: dict[str, Path], aliases: AliasSource
) -> LayerReport:
    """Add Orphanet's gene links to an open store (inside the caller's building copy)."""
    report = LayerReport(LAYER)
    genes = GeneInfo.required(aliases, LAYER)
    doids = orpha_doids(
        _need(files, "do_xrefs"), _need(files, "mondo_doid"), _need(files, "mondo_orphanet")
    )
    triples, names = gene_links(_need(files, "orphanet_genes"), doids, genes, report)
    diseases = {s for s, *_ in triples}
    nodes = do_labels(_need(files, "do_terms"), diseases)
    nodes += [g for s, _, o, *_ in triples if (g := genes.node(o.split("::", 1)[1]))]
    add_nodes(con, nodes, LAYER, report)
    add_triples(con, triples, LAYER, report)
    rows = sorted({(name, node, "orphanet") for name, node in names if name})
    kgload.add_aliases(con, rows, LAYER, primary_source=LAYER)
    kgload.record_layer(con, LAYER, DESCRIPTION, "", json.dumps(report.to_dict()))
    return report
