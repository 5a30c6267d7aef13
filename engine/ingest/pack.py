"""The ``disease-pack`` layer: open data keyed to Hetionet's ids that widens disease coverage.

- Disease Ontology terms as Disease nodes (names, term-names synonyms, definitions) and their
  ``subclass of`` hierarchy (``DsD``);
- DISEASES gene-disease associations (knowledge channel: 2022 filtered, 2015), as ``DaG`` with
  their channel and score; gene symbols mapped to Entrez through NCBI gene_info;
- DrugCentral indications with a DOID (``CtD``) and drug targets with their action type
  (``CbG``, detail ``inhibitor`` ...), DrugCentral drugs mapped to DrugBank ids;
- the full pathway-gene table behind Hetionet's 5k GpPW sample;
- cross-references (DO xrefs, MONDO exact matches) that later layers join through.

Orphanet is not part of the pack: its license is not stated in the files at hand.
"""

from __future__ import annotations

import csv
import gzip
import json
from collections.abc import Iterator
from pathlib import Path

import duckdb

from engine.graph.relations import LAYER_RELATIONS
from engine.ingest import kg as kgload
from engine.ingest.layers import GeneInfo, LayerReport, TripleRow, add_nodes, add_triples
from engine.ingest.sources import AliasSource, DataError

LAYER = "disease-pack"
DESCRIPTION = "Disease Ontology, DISEASES, DrugCentral, full pathway-gene table (CC0/CC BY)"

PACK_RELATIONS = LAYER_RELATIONS

PATHWAY_SOURCES = {"reactome": "Reactome", "pid": "PID", "wikipathways": "WikiPathways"}
XREF_PREFIX = {"MIM": "OMIM", "ORDO": "Orphanet", "UMLS_CUI": "UMLS", "MESH": "MESH"}


def _tsv(path: Path) -> Iterator[dict[str, str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", newline="") as fh:  # type: ignore[operator]
        yield from csv.DictReader(fh, delimiter="\t")


def _tsv_rows(path: Path) -> Iterator[list[str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", newline="") as fh:  # type: ignore[operator]
        yield from csv.reader(fh, delimiter="\t")


def _need(files: dict[str, Path], role: str) -> Path:
    if role not in files:
        raise DataError(f"the disease pack needs the '{role}' file of the manifest")
    return files[role]


def do_terms(path: Path, report: LayerReport) -> tuple[list[tuple[str, str, str]], list[TripleRow]]:
    """Disease nodes and ``DsD`` (child -> parent) triples from HumanDO.tsv."""
    rows = list(_tsv(path))
    if rows and not {"id", "label", "subClassOf"} <= set(rows[0]):
        raise DataError(f"{path}: expected columns id, label, subClassOf")
    by_label: dict[str, set[str]] = {}
    for r in rows:
        by_label.setdefault(r["label"], set()).add(r["id"])
    nodes = [(f"Disease::{r['id']}", r["label"], "Disease") for r in rows]
    triples: list[TripleRow] = []
    for r in rows:
        parents = by_label.get(r["subClassOf"], set())
        if len(parents) != 1:
            report.skipped["DO: parent label missing or ambiguous"] += 1
            continue
        parent = next(iter(parents))
        if parent != r["id"]:
            triples.append(
                (f"Disease::{r['id']}", "DsD", f"Disease::{parent}", "Disease Ontology", None, None)
            )
    return nodes, triples


def diseases_jensen(
    path: Path, source: str, genes: GeneInfo, report: LayerReport
) -> Iterator[TripleRow]:
    """DISEASES rows (protein, symbol, DOID, disease, channel, evidence, score) as DaG."""
    for p in _tsv_rows(path):
        if len(p) < 7 or not p[2].startswith("DOID:"):
            report.skipped[f"{source}: no DOID"] += 1
            continue
        entrez = genes.entrez(p[1])
        if entrez is None:
            report.skipped[f"{source}: symbol not in NCBI gene_info"] += 1
            continue
        try:
            score = float(p[6])
        except ValueError:
            score = None
        yield f"Disease::{p[2]}", "DaG", f"Gene::{entrez}", source, p[4] or None, score


def drugbank_ids(path: Path) -> dict[str, list[str]]:
    """DrugCentral DRUG_ID -> DrugBank ids."""
    out: dict[str, list[str]] = {}
    for r in _tsv(path):
        if r.get("ID_TYPE") == "DRUGBANK_ID" and r.get("IDENTIFIER"):
            out.setdefault(r["DRUG_ID"], []).append(r["IDENTIFIER"])
    return out


def _drug_name(name: str) -> str:
    return name[:1].upper() + name[1:] if name else name


def drugcentral_indications(
    path: Path, db: dict[str, list[str]], report: LayerReport
) -> tuple[list[tuple[str, str, str]], list[TripleRow]]:
    nodes: list[tuple[str, str, str]] = []
    triples: list[TripleRow] = []
    for r in _tsv(path):
        doid = (r.get("DOID") or "").strip()
        if not doid.startswith("DOID:"):
            report.skipped["DrugCentral indication: no DOID"] += 1
            continue
        ids = db.get(r["DRUG_ID"], [])
        if not ids:
            report.skipped["DrugCentral indication: no DrugBank id"] += 1
            continue
        for dbid in ids:
            nodes.append((f"Compound::{dbid}", _drug_name(r["DRUG_NAME"]), "Compound"))
            triples.append(
                (f"Compound::{dbid}", "CtD", f"Disease::{doid}", "DrugCentral", None, None)
            )
    return nodes, triples


def drugcentral_targets(
    path: Path, db: dict[str, list[str]], genes: GeneInfo, report: LayerReport
) -> tuple[list[tuple[str, str, str]], list[TripleRow]]:
    nodes: list[tuple[str, str, str]] = []
    triples: list[TripleRow] = []
    for r in _tsv(path):
        if not (r.get("SWISSPROT") or "").endswith("_HUMAN"):
            report.skipped["DrugCentral target: not human"] += 1
            continue
        ids = db.get(r["DRUG_ID"], [])
        if not ids:
            report.skipped["DrugCentral target: no DrugBank id"] += 1
            continue
        action = (r.get("ACTION_TYPE") or "").strip().lower() or None
        for sym in (r.get("GENE") or "").split("|"):
            entrez = genes.entrez(sym) if sym else None
            if entrez is None:
                report.skipped["DrugCentral target: symbol not in NCBI gene_info"] += 1
                continue
            for dbid in ids:
                nodes.append((f"Compound::{dbid}", _drug_name(r["DRUG_NAME"]), "Compound"))
                triples.append(
                    (f"Compound::{dbid}", "CbG", f"Gene::{entrez}", "DrugCentral", action, None)
                )
    return nodes, triples


def pathway_genes(
    path: Path, report: LayerReport
) -> tuple[list[tuple[str, str, str]], list[TripleRow]]:
    nodes: list[tuple[str, str, str]] = []
    triples: list[TripleRow] = []
    for r in _tsv(path):
        pid = f"Pathway::{r['identifier']}"
        nodes.append((pid, r["name"], "Pathway"))
        source = PATHWAY_SOURCES.get(r.get("source", ""), r.get("source") or "pathways")
        for entrez in (r.get("genes") or "").split("|"):
            if entrez:
                triples.append((f"Gene::{entrez}", "GpPW", pid, source, None, None))
    return nodes, triples


def xrefs(do_xrefs: Path, mondo: Path | None) -> Iterator[tuple[str, str]]:
    """(CURIE, node id): DO's xrefs (OMIM, Orphanet, UMLS, MeSH, ...) and MONDO exact matches."""
    for r in _tsv(do_xrefs):
        prefix, _, local = (r.get("xref") or "").partition(":")
        if local:
            yield f"{XREF_PREFIX.get(prefix, prefix)}:{local}", f"Disease::{r['id']}"
    if mondo is not None:
        with mondo.open(encoding="utf-8") as fh:
            lines = (line for line in fh if not line.startswith("#"))
            for r in csv.DictReader(lines, delimiter="\t"):
                if (r.get("object_id") or "").startswith("DOID:"):
                    yield r["subject_id"], f"Disease::{r['object_id']}"


def load_pack(
    con: duckdb.DuckDBPyConnection, files: dict[str, Path], aliases: AliasSource
) -> LayerReport:
    """Add the disease pack to an open store (inside the caller's building copy)."""
    report = LayerReport(LAYER)
    genes_path = aliases.path("ncbi_Homo_sapiens.gene_info")
    if genes_path is None:
        raise DataError("the disease pack needs NCBI gene_info to map gene symbols")
    genes = GeneInfo.read(genes_path)
    nodes, triples = do_terms(_need(files, "do_terms"), report)
    for role, source in (("diseases_2022", "DISEASES 2022"), ("diseases_2015", "DISEASES 2015")):
        triples += diseases_jensen(_need(files, role), source, genes, report)
    db = drugbank_ids(_need(files, "drugcentral_identifiers"))
    n, t = drugcentral_indications(_need(files, "drugcentral_indications"), db, report)
    nodes, triples = nodes + n, triples + t
    n, t = drugcentral_targets(_need(files, "drugcentral_targets"), db, genes, report)
    nodes, triples = nodes + n, triples + t
    n, t = pathway_genes(_need(files, "pathways"), report)
    nodes, triples = nodes + n, triples + t
    wanted_genes = {x for s, _, o, *_ in triples for x in (s, o) if x.startswith("Gene::")}
    nodes += [g for e in sorted(wanted_genes) if (g := genes.node(e.split("::", 1)[1]))]
    add_nodes(con, nodes, LAYER, report)
    add_triples(con, triples, LAYER, report)
    kgload.load_relations(con, PACK_RELATIONS, LAYER)
    kgload.load_aliases(con, aliases, layer=LAYER, primary_source=LAYER)
    refs = sorted(set(xrefs(_need(files, "do_xrefs"), files.get("mondo_doid"))))
    kgload.bulk_insert(con, "xrefs", [(c, n, LAYER) for c, n in refs])
    con.execute(
        "DELETE FROM xrefs WHERE layer = ? AND node_id NOT IN (SELECT id FROM nodes)", [LAYER]
    )
    kgload.record_layer(con, LAYER, DESCRIPTION, "", json.dumps(report.to_dict()))
    return report
