"""KGX (Biolink) graphs as layers: ``helix-chat ingest --kgx NODES.tsv EDGES.tsv``.

Nodes: ``id`` (CURIE) and ``category`` (``biolink:`` classes, ``|``-separated) are required;
``name``, ``synonym``, ``xref`` are used when present. Categories map to Helix kinds (Disease,
Gene, Compound, Symptom for phenotypic features, Anatomy, Pathway; any other class is kept as
its own kind). A CURIE joins an existing node of the same kind when it names one directly
(``NCBIGene:``, ``HGNC:`` through NCBI gene_info, ``DRUGBANK:``, ``DOID:``, MeSH for symptoms,
``UBERON:``, ``GO:``) or through the store's cross-references (MONDO, OMIM, Orphanet, UMLS,
MeSH -> DOID, from the disease pack); otherwise the node is new (``Kind::CURIE``). A synonym
that is another node's name (HGNC lists 'Marfan syndrome' for FBN1) is left out, and classes
that only hold the hierarchy (``subclass_of`` edges and nothing else: 'phenotype', 'Mode of
inheritance') get no name to link, so question wording is not read as them.

Edges: ``subject``, ``predicate``, ``object`` are required. A predicate between kinds that a
Hetionet relation already connects becomes that relation (``gene_associated_with_condition``
Gene -> Disease is ``DaG``, ``has_phenotype`` Disease -> Symptom is ``DpS`` ...), so existing
questions reach it; any other predicate is its own relation, named by the predicate, with a
relations row giving its verb. The ``predicates`` table records what each predicate became
between which kinds, so its words ask for it (``engine/understand/datarel.py``). Each edge cites
the layer and its ``primary_knowledge_source``.

Missing columns or an unreadable file reject the graph with the reason; rows that cannot be
used (unknown category, dangling edge, duplicate id) are skipped and counted per reason.
Everything happens inside the ingest's building copy, so a rejected graph changes nothing.
"""

from __future__ import annotations

import csv
import gzip
import json
import re
import sys
import tarfile
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import duckdb

from engine.graph.relations import Relation
from engine.ingest import kg as kgload
from engine.ingest.layers import LayerReport, TripleRow, add_nodes, add_triples
from engine.ingest.sources import DataError
from engine.util.text import alias_key

NODE_COLUMNS = ("id", "category")
EDGE_COLUMNS = ("subject", "predicate", "object")

CATEGORY_KIND = (
    ("Disease", "Disease"),
    ("Gene", "Gene"),
    ("GeneOrGeneProduct", "Gene"),
    ("Protein", "Gene"),
    ("Drug", "Compound"),
    ("SmallMolecule", "Compound"),
    ("MolecularEntity", "Compound"),
    ("ChemicalEntity", "Compound"),
    ("PhenotypicFeature", "Symptom"),
    ("AnatomicalEntity", "Anatomy"),
    ("GrossAnatomicalStructure", "Anatomy"),
    ("Pathway", "Pathway"),
    ("BiologicalProcess", "Biological Process"),
    ("MolecularActivity", "Molecular Function"),
    ("CellularComponent", "Cellular Component"),
)
"""Biolink class -> Helix kind, most specific first."""
GENERIC = frozenset(
    """Entity NamedThing BiologicalEntity ThingWithTaxon OntologyClass PhysicalEssence
    PhysicalEssenceOrOccurrent GenomicEntity ChemicalEntityOrGeneOrGeneProduct
    ChemicalEntityOrProteinOrPolypeptide ChemicalOrDrugOrTreatment MacromolecularMachineMixin
    DiseaseOrPhenotypicFeature""".split()
)

GENE_DISEASE = {
    "gene_associated_with_condition",
    "causes",
    "contributes_to",
    "genetically_associated_with",
    "associated_with_increased_likelihood_of",
    "associated_with",
}
HETIONET_PREDICATES: dict[tuple[str, str, str], tuple[str, bool]] = {
    **{(p, "Gene", "Disease"): ("DaG", True) for p in GENE_DISEASE},
    **{
        (p, "Disease", "Gene"): ("DaG", False)
        for p in ("has_gene", "condition_associated_with_gene")
    },
    **{
        (p, "Compound", "Disease"): ("CtD", False)
        for p in ("treats", "treats_or_applied_or_studied_to_treat")
    },
    ("has_phenotype", "Disease", "Symptom"): ("DpS", False),
    ("subclass_of", "Disease", "Disease"): ("DsD", False),
    ("interacts_with", "Gene", "Gene"): ("GiG", False),
    ("physically_interacts_with", "Gene", "Gene"): ("GiG", False),
    ("participates_in", "Gene", "Pathway"): ("GpPW", False),
    ("directly_physically_interacts_with", "Compound", "Gene"): ("CbG", False),
    ("affects", "Compound", "Gene"): ("CbG", False),
}
"""(predicate, subject kind, object kind) -> (Helix relation, swap subject and object)."""

SUBCLASS = "subclass_of"
"""The Biolink predicate of a class hierarchy."""

_LAYER_NAME = re.compile(r"[^a-z0-9._-]+")


@dataclass(frozen=True)
class KGXInput:
    layer: str
    nodes: Path
    edges: Path

    @classmethod
    def from_files(cls, nodes: Path, edges: Path, name: str | None = None) -> KGXInput:
        return cls(layer_name(name or _common_stem(nodes, edges)), nodes, edges)

    @classmethod
    def from_archive(cls, archive: Path, name: str | None = None) -> KGXInput:
        """A ``.tar.gz`` holding one ``*nodes.tsv`` and one ``*edges.tsv`` (extracted to a
        temporary directory)."""
        dest = Path(tempfile.mkdtemp(prefix="helix-kgx-"))
        try:
            with tarfile.open(archive, "r:*") as tar:
                members = [
                    m
                    for m in tar.getmembers()
                    if m.isfile() and m.name.endswith(("nodes.tsv", "edges.tsv"))
                ]
                kw = {"filter": "data"} if sys.version_info >= (3, 12) else {}
                tar.extractall(dest, members=members, **kw)  # type: ignore[arg-type]
        except (tarfile.TarError, OSError) as exc:
            raise DataError(f"{archive}: not a readable KGX archive ({exc})") from exc
        nodes = sorted(dest.rglob("*nodes.tsv"))
        edges = sorted(dest.rglob("*edges.tsv"))
        if len(nodes) != 1 or len(edges) != 1:
            raise DataError(
                f"{archive}: expected one *nodes.tsv and one *edges.tsv, found "
                f"{len(nodes)} and {len(edges)}"
            )
        stem = archive.name.split(".")[0]
        return cls(layer_name(name or stem), nodes[0], edges[0])


def layer_name(text: str) -> str:
    name = _LAYER_NAME.sub("-", text.lower()).strip("-")
    if not name or name in {"hetionet", "disease-pack", "orphanet"}:
        raise DataError(f"{text!r} cannot name a KGX layer")
    return name


def _common_stem(nodes: Path, edges: Path) -> str:
    a, b = nodes.name, edges.name
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n].rstrip("_-.") or nodes.stem


def _read(path: Path, required: tuple[str, ...]) -> list[dict[str, str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8", newline="") as fh:  # type: ignore[operator]
            reader = csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
            header = reader.fieldnames or []
            missing = [c for c in required if c not in header]
            if missing:
                raise DataError(
                    f"{path.name}: missing column(s) {', '.join(missing)} "
                    f"(KGX needs {', '.join(required)}; found {', '.join(header) or 'none'})"
                )
            return list(reader)
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise DataError(f"{path.name}: not a readable KGX TSV ({exc})") from exc


def category_kind(category: str) -> str | None:
    """Helix kind for a ``|``-separated Biolink category list; None when none is Biolink."""
    classes = [c.split(":", 1)[1] for c in category.split("|") if c.startswith("biolink:")]
    if not classes:
        return None
    for cls_name, kind in CATEGORY_KIND:
        if cls_name in classes:
            return kind
    specific = [c for c in classes if c not in GENERIC]
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", (specific or classes)[0])


ID_PATTERNS: dict[str, tuple[str, ...]] = {
    "NCBIGENE": ("Gene::{}",),
    "DRUGBANK": ("Compound::{}",),
    "DOID": ("Disease::DOID:{}",),
    "MESH": ("Symptom::{}",),
    "MSH": ("Symptom::{}",),
    "UBERON": ("Anatomy::UBERON:{}",),
    "GO": (
        "Biological Process::GO:{}",
        "Molecular Function::GO:{}",
        "Cellular Component::GO:{}",
    ),
}
"""CURIE prefix -> the ids Hetionet gives such nodes."""


class Resolver:
    """CURIE -> existing node id of the same kind, through id patterns and the store's
    cross-references. A node of another kind is never joined: a phenotype whose UMLS xref DO
    also gives a disease stays a phenotype."""

    def __init__(self, con: duckdb.DuckDBPyConnection, hgnc: dict[str, str]) -> None:
        rows = con.execute("SELECT id, kind FROM nodes").fetchall()
        self.kinds = {str(i): str(k) for i, k in rows}
        refs: dict[str, set[str]] = {}
        for curie, node in con.execute("SELECT curie, node_id FROM xrefs").fetchall():
            refs.setdefault(str(curie).upper(), set()).add(str(node))
        self.xrefs = {c: next(iter(n)) for c, n in refs.items() if len(n) == 1}
        self.hgnc = hgnc

    def resolve(self, curie: str, kind: str) -> str | None:
        prefix, _, local = curie.partition(":")
        p = prefix.upper()
        cands = [c.format(local) for c in ID_PATTERNS.get(p, ())]
        if p == "HGNC" and local in self.hgnc:
            cands.append(f"Gene::{self.hgnc[local]}")
        cands.append(self.xrefs.get(curie.upper(), ""))
        return next((c for c in cands if c and self.kinds.get(c) == kind), None)


def hgnc_to_entrez(gene_info: Path | None) -> dict[str, str]:
    if gene_info is None:
        return {}
    opener = gzip.open if gene_info.suffix == ".gz" else open
    out: dict[str, str] = {}
    with opener(gene_info, "rt", encoding="utf-8") as fh:  # type: ignore[operator]
        for line in fh:
            p = line.split("\t")
            if len(p) > 5 and p[0] == "9606":
                for ref in p[5].split("|"):
                    if ref.startswith("HGNC:HGNC:"):
                        out[ref.removeprefix("HGNC:HGNC:")] = p[1]
    return out


def load_kgx(
    con: duckdb.DuckDBPyConnection, item: KGXInput, gene_info: Path | None = None
) -> LayerReport:
    """Add a KGX graph as layer ``item.layer`` (replacing an earlier load of that layer)."""
    report = LayerReport(item.layer)
    nodes = _read(item.nodes, NODE_COLUMNS)
    edges = _read(item.edges, EDGE_COLUMNS)
    con.execute(kgload.PREDICATES)
    for table in ("triples", "aliases", "relations", "xrefs", "predicates"):
        con.execute(f"DELETE FROM {table} WHERE layer = ?", [item.layer])
    con.execute("DELETE FROM nodes WHERE layer = ?", [item.layer])
    resolver = Resolver(con, hgnc_to_entrez(gene_info))
    names = "SELECT key, min(node_id) FROM aliases WHERE is_primary GROUP BY key"
    primary = {str(k): str(n) for k, n in con.execute(names).fetchall()}
    ids: dict[str, tuple[str, str]] = {}
    """CURIE -> (node id, kind)"""
    joined = 0
    new_nodes: list[tuple[str, str, str]] = []
    aliases: list[tuple[str, str, str]] = []
    xrefs: list[tuple[str, str, str]] = []
    for row in nodes:
        curie = (row.get("id") or "").strip()
        if not curie:
            report.skipped["node without id"] += 1
            continue
        if curie in ids:
            report.skipped["duplicate node id"] += 1
            continue
        kind = category_kind(row.get("category") or "")
        if kind is None:
            report.skipped["node category missing or not biolink:"] += 1
            continue
        refs = [curie, *(x for x in (row.get("xref") or "").split("|") if x)]
        node = next((n for r in refs if (n := resolver.resolve(r, kind))), None)
        if node is None:
            node = f"{kind}::{curie}"
            new_nodes.append((node, row.get("name") or curie, kind))
        else:
            joined += 1
        ids[curie] = (node, kind)
        xrefs.append((curie, node, item.layer))
        aliases += [(n, node, item.layer) for n in [row.get("name") or ""] if n.strip()]
        for syn in (row.get("synonym") or "").split("|"):
            if not syn.strip():
                continue
            if primary.get(alias_key(syn), node) != node:
                # HGNC lists 'Marfan syndrome' among FBN1's synonyms: it would make the
                # disease's own name ambiguous
                report.skipped["synonym that is another node's name"] += 1
                continue
            aliases.append((syn, node, item.layer))
    if not ids:
        raise DataError(f"{item.nodes.name}: no usable node (see the categories and ids)")
    triples: list[TripleRow] = []
    custom: dict[str, tuple[str, str]] = {}
    used: Counter[tuple[str, str, str, str]] = Counter()
    """(predicate, relation, subject kind, object kind) as stored -> edges"""
    classes: set[str] = set()
    """Nodes in a ``subclass_of`` edge; those with no other edge only hold the hierarchy."""
    stated: set[str] = set()
    for row in edges:
        s, p, o = (row.get(k, "").strip() for k in EDGE_COLUMNS)
        if s not in ids or o not in ids:
            report.skipped["edge end not among the nodes (dangling)"] += 1
            continue
        if not p:
            report.skipped["edge without predicate"] += 1
            continue
        pred = p.split(":", 1)[1] if ":" in p else p
        (sn, sk), (on, ok) = ids[s], ids[o]
        rel, swap = HETIONET_PREDICATES.get((pred, sk, ok), (pred, False))
        if rel == pred:
            custom.setdefault(pred, (sk, ok))
        if swap:
            sn, on, sk, ok = on, sn, ok, sk
        if sn == on:
            report.skipped["edge joins a node to itself"] += 1
            continue
        used[(pred, rel, sk, ok)] += 1
        (classes if pred == SUBCLASS else stated).update((sn, on))
        src = (row.get("primary_knowledge_source") or "").removeprefix("infores:") or None
        triples.append((sn, rel, on, item.layer, src, None))
    add_nodes(con, new_nodes, item.layer, report)
    add_triples(con, triples, item.layer, report)
    kgload.load_relations(
        con,
        [
            Relation(p, sk, ok, p.replace("_", " "), f"KGX predicate biolink:{p}", (), ())
            for p, (sk, ok) in custom.items()
        ],
        item.layer,
    )
    kgload.add_aliases(con, aliases, item.layer, primary_source=item.layer)
    grouping = sorted((classes - stated) & {n for n, _, _ in new_nodes})
    if grouping:
        # 'phenotype', 'Mode of inheritance': upper classes brought in for the hierarchy would
        # otherwise be read as the entity of 'What phenotypes does X have?'
        con.execute(
            "DELETE FROM aliases WHERE layer = ? AND list_contains(?, node_id)",
            [item.layer, grouping],
        )
        report.skipped["class that only holds the hierarchy: no name to link"] += len(grouping)
    kgload.bulk_insert(
        con, "predicates", [(*key, str(n), item.layer) for key, n in sorted(used.items())]
    )
    kgload.bulk_insert(con, "xrefs", xrefs)
    report.joined = joined
    kgload.record_layer(
        con, item.layer, f"KGX graph {item.nodes.name}", "", json.dumps(report.to_dict())
    )
    return report
