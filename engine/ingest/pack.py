"""The ``disease-pack`` layer: open data keyed to Hetionet's ids that widens disease coverage.

- Disease Ontology terms as Disease nodes (names, term-names synonyms, definitions) and their
  ``subclass of`` hierarchy (``DsD``);
- DISEASES gene-disease associations (knowledge channel: 2022 filtered, 2015), as ``DaG`` with
  their channel and score; gene symbols mapped to Entrez through NCBI gene_info;
- DrugCentral indications with a DOID (``CtD``), drug targets with their action type
  (``CbG``, detail ``inhibitor`` ...) and pharmacologic classes (``PCiC``: FDA mechanisms and
  established classes, MeSH pharmacological actions), each DrugCentral drug as one graph drug
  through its DrugBank ids, an inactive ingredient's borrowed indications left out
  (``engine/ingest/drugcentral.py``);
- the full pathway-gene table behind Hetionet's 5k GpPW sample;
- cross-references (DO xrefs, MONDO exact matches) that later layers join through.

Orphanet is a layer of its own (``engine/ingest/orphanet.py``), built on request: its 2017
files carry a no-derivatives license.
"""

from __future__ import annotations

import csv
import gzip
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import duckdb

from engine.graph.relations import LAYER_RELATIONS
from engine.ingest import drugcentral
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


def do_names(nodes: Iterable[tuple[str, str, str]], aliases: AliasSource) -> dict[str, str]:
    """``drugcentral.class_key`` of each Disease Ontology label and term name -> its DOID,
    for the names that are one term's only."""
    found: dict[str, set[str]] = {}
    for nid, label, kind in nodes:
        if kind == "Disease":
            found.setdefault(drugcentral.class_key(label), set()).add(nid.removeprefix("Disease::"))
    names = aliases.path("disease-ontology_term-names.tsv")
    if names is not None:
        for row in _tsv_rows(names):
            if len(row) >= 2 and row[0].startswith("DOID:"):
                found.setdefault(drugcentral.class_key(row[1]), set()).add(row[0])
    return {k: next(iter(v)) for k, v in found.items() if k and len(v) == 1}


BROAD_DESCENDANTS = 300
"""A Disease Ontology term with more subtypes than this ("syndrome", "disease by infectious
agent") is too broad to be what a qualified indication name is a kind of."""


def broad_terms(
    nodes: Iterable[tuple[str, str, str]], triples: Iterable[TripleRow]
) -> frozenset[str]:
    """DOIDs of the terms with more than ``BROAD_DESCENDANTS`` subtypes, and of the root."""
    kids: dict[str, set[str]] = {}
    for child, rel, parent, *_ in triples:
        if rel == "DsD":
            kids.setdefault(parent, set()).add(child)
    broad = {"DOID:4"}
    for nid, _, kind in nodes:
        if kind != "Disease":
            continue
        seen: set[str] = set()
        front = [nid]
        while front and len(seen) <= BROAD_DESCENDANTS:
            for k in kids.get(front.pop(), ()):
                if k not in seen:
                    seen.add(k)
                    front.append(k)
        if len(seen) > BROAD_DESCENDANTS:
            broad.add(nid.removeprefix("Disease::"))
    return frozenset(broad)


def jensen_rows(path: Path) -> list[list[str]]:
    """DISEASES rows: protein, symbol, DOID, disease, channel, evidence, score."""
    return list(_tsv_rows(path))


GWAS_SOURCE = "DistiLD GWAS (DISEASES 2015)"
"""The genome-wide association rows of DISEASES' experiments channel, a source of their own:
the genes a disease's association studies found (TCF7L2 and FTO of type 2 diabetes), which
text mining ranks below the genes written about most."""
GWAS_CHANNEL = "DistiLD"


def gwas_rows(
    path: Path, parents: Mapping[str, Iterable[str]], report: LayerReport
) -> list[list[str]]:
    """The experiments channel's DistiLD (GWAS) rows, each at the disease its study is of:
    DISEASES repeats a row at every ancestor of its disease ("disease", "autoimmune disease"),
    and such a copy would make the parent's genes its subtype's (``parents``: DOID -> the
    DOIDs it is a subtype of). Its COSMIC rows (somatic mutation counts in tumour samples)
    are left out. Both counted."""
    rows = []
    for p in _tsv_rows(path):
        if len(p) >= 5 and p[4] == GWAS_CHANNEL:
            rows.append(p)
        else:
            report.skipped["DISEASES 2015 experiments: not a GWAS (DistiLD) row"] += 1
    by_gene: dict[str, set[str]] = {}
    for p in rows:
        by_gene.setdefault(p[0], set()).add(p[2])
    above: dict[str, set[str]] = {}
    for diseases in by_gene.values():
        for d in diseases:
            if d not in above:
                above[d] = _ancestors(d, parents)
    out = []
    for p in rows:
        if any(p[2] in above[d] for d in by_gene[p[0]] if d != p[2]):
            report.skipped["DistiLD GWAS: a copy at an ancestor of the study's disease"] += 1
        else:
            out.append(p)
    return out


def _ancestors(doid: str, parents: Mapping[str, Iterable[str]]) -> set[str]:
    seen: set[str] = set()
    front = [doid]
    while front:
        for p in parents.get(front.pop(), ()):
            if p not in seen:
                seen.add(p)
                front.append(p)
    return seen


def protein_genes(tables: list[list[list[str]]], genes: GeneInfo) -> dict[str, str]:
    """Ensembl protein id -> Entrez id, from DISEASES rows whose symbol maps unambiguously;
    rows that name the same protein by an Ensembl or UniProt id instead of a symbol
    (``ENSP00000377747``, ``B7Z8C9_HUMAN``) are mapped through it."""
    seen: dict[str, set[str]] = {}
    for rows in tables:
        for p in rows:
            if len(p) >= 2 and (entrez := genes.entrez(p[1])) is not None:
                seen.setdefault(p[0], set()).add(entrez)
    return {prot: next(iter(ids)) for prot, ids in seen.items() if len(ids) == 1}


@dataclass(frozen=True)
class DOTerms:
    """The Disease Ontology's current terms: ids, and ids by (unique) lower-case label."""

    ids: frozenset[str]
    by_label: dict[str, str]

    @classmethod
    def of(cls, nodes: list[tuple[str, str, str]], known: Iterable[str] = ()) -> DOTerms:
        """From DO's Disease nodes; ``known``: disease node ids the store already has."""
        labels: dict[str, set[str]] = {}
        for nid, label, _ in nodes:
            labels.setdefault(label.lower(), set()).add(nid.removeprefix("Disease::"))
        ids = {n.removeprefix("Disease::") for n, _, _ in nodes}
        ids |= {n.removeprefix("Disease::") for n in known}
        return cls(frozenset(ids), {k: next(iter(v)) for k, v in labels.items() if len(v) == 1})

    def current(self, doid: str, name: str) -> str | None:
        """``doid`` when DO has it; else the term labelled ``name`` (an obsolete or merged
        DOID that a source still uses, e.g. DISEASES' DOID:12252 'Cushing's syndrome')."""
        return doid if doid in self.ids else self.by_label.get(name.strip().lower())


def diseases_jensen(
    rows: list[list[str]],
    source: str,
    genes: GeneInfo,
    proteins: dict[str, str],
    terms: DOTerms,
    report: LayerReport,
) -> Iterator[TripleRow]:
    """DISEASES rows as DaG; the gene by symbol through NCBI gene_info, else by the row's
    protein id (``protein_genes``); a DOID that DO no longer has by the row's disease name."""
    for p in rows:
        if len(p) < 7 or not p[2].startswith("DOID:"):
            report.skipped[f"{source}: no DOID"] += 1
            continue
        doid = terms.current(p[2], p[3])
        if doid is None:
            report.skipped[f"{source}: DOID not in the Disease Ontology"] += 1
            continue
        if doid != p[2]:
            report.remapped[f"{source}: obsolete DOID, by disease name"] += 1
        entrez = genes.entrez(p[1]) or proteins.get(p[0])
        if entrez is None:
            report.skipped[f"{source}: symbol not in NCBI gene_info"] += 1
            continue
        try:
            score = float(p[6])
        except ValueError:
            score = None
        yield f"Disease::{doid}", "DaG", f"Gene::{entrez}", source, p[4] or None, score


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


def drug_map(
    con: duckdb.DuckDBPyConnection, files: dict[str, Path], report: LayerReport
) -> drugcentral.DrugMap:
    """DrugCentral's drugs named by its indication and target tables, on the store's drugs."""
    wanted = {
        r["DRUG_ID"]
        for role in ("drugcentral_indications", "drugcentral_targets")
        for r in _tsv(_need(files, role))
    }
    graph = con.execute("SELECT id, name FROM nodes WHERE kind = 'Compound'").fetchall()
    return drugcentral.DrugMap.read(
        _need(files, "drugcentral_identifiers"),
        wanted,
        {str(i): str(n) for i, n in graph},
        report,
    )


def load_pack(
    con: duckdb.DuckDBPyConnection, files: dict[str, Path], aliases: AliasSource
) -> LayerReport:
    """Add the disease pack to an open store (inside the caller's building copy)."""
    report = LayerReport(LAYER)
    genes = GeneInfo.required(aliases, LAYER)
    nodes, triples = do_terms(_need(files, "do_terms"), report)
    known = con.execute("SELECT id FROM nodes WHERE kind = 'Disease'").fetchall()
    terms = DOTerms.of(nodes, (str(r[0]) for r in known))
    channels = [
        (jensen_rows(_need(files, role)), source)
        for role, source in (("diseases_2022", "DISEASES 2022"), ("diseases_2015", "DISEASES 2015"))
    ]
    parents: dict[str, list[str]] = {}
    for child, rel, parent, *_ in triples:
        if rel == "DsD":
            parents.setdefault(child.removeprefix("Disease::"), []).append(
                parent.removeprefix("Disease::")
            )
    gwas = gwas_rows(_need(files, "diseases_2015_experiments"), parents, report)
    channels.append((gwas, GWAS_SOURCE))
    proteins = protein_genes([rows for rows, _ in channels], genes)
    for rows, source in channels:
        triples += diseases_jensen(rows, source, genes, proteins, terms, report)
    drugs = drug_map(con, files, report)
    n, t = drugcentral.indications(
        _need(files, "drugcentral_indications"),
        drugs,
        drugcentral.Inactive.read(
            _need(files, "drugcentral_indications"),
            _need(files, "drugcentral_targets"),
            _need(files, "drugcentral_classes"),
            drugs,
        ),
        report,
        do_names(nodes, aliases),
        broad_terms(nodes, triples),
    )
    nodes, triples = nodes + n, triples + t
    n, t = drugcentral.targets(_need(files, "drugcentral_targets"), drugs, genes, report)
    nodes, triples = nodes + n, triples + t
    known = con.execute("SELECT id, name FROM nodes WHERE kind = 'Pharmacologic Class'").fetchall()
    n, t = drugcentral.classes(
        _need(files, "drugcentral_classes"),
        drugs,
        {drugcentral.class_key(str(name)): str(i) for i, name in known},
        report,
    )
    nodes, triples = nodes + n, triples + t
    n, t = pathway_genes(_need(files, "pathways"), report)
    nodes, triples = nodes + n, triples + t
    wanted_genes = {x for s, _, o, *_ in triples for x in (s, o) if x.startswith("Gene::")}
    nodes += [g for e in sorted(wanted_genes) if (g := genes.node(e.split("::", 1)[1]))]
    add_nodes(con, nodes, LAYER, report)
    add_triples(con, triples, LAYER, report)
    kgload.load_relations(con, PACK_RELATIONS, LAYER)
    kgload.load_aliases(con, aliases, layer=LAYER, primary_source=LAYER)
    refs = sorted({*xrefs(_need(files, "do_xrefs"), files.get("mondo_doid")), *drugs.xrefs()})
    kgload.bulk_insert(con, "xrefs", [(c, n, LAYER) for c, n in refs])
    con.execute(
        "DELETE FROM xrefs WHERE layer = ? AND node_id NOT IN (SELECT id FROM nodes)", [LAYER]
    )
    kgload.record_layer(con, LAYER, DESCRIPTION, "", json.dumps(report.to_dict()))
    return report
