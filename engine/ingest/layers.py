"""Adding a layer to the graph store: staged nodes and triples merged with what is there.

A layer's nodes join existing nodes by id (same id -> one node, the first layer's name and
kind win); its triples are stored per (layer, source) even when another layer already states
the same triple, so every statement keeps its provenance. Triples whose ends are unknown are
counted and skipped, never half-inserted.
"""

from __future__ import annotations

import gzip
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from engine.ingest.kg import bulk_insert
from engine.ingest.sources import AliasSource, DataError

TripleRow = tuple[str, str, str, str, str | None, float | None]
"""(subj, rel, obj, source, detail, score)"""


@dataclass
class LayerReport:
    """What adding a layer did: counts per source and what was skipped, with reasons."""

    layer: str
    nodes: Counter[str] = field(default_factory=Counter)
    """New nodes per kind."""
    triples: Counter[str] = field(default_factory=Counter)
    """Triples stored per source."""
    skipped: Counter[str] = field(default_factory=Counter)
    """Rows left out, per reason."""
    remapped: Counter[str] = field(default_factory=Counter)
    """Rows kept through a second mapping (an obsolete id by name ...), per reason."""
    merged: Counter[str] = field(default_factory=Counter)
    """Ids of one thing folded into one node (a drug's duplicate DrugBank ids), per reason."""
    joined: int = 0
    """Nodes of the source that joined an existing node (same id or a cross-reference)."""

    def to_dict(self) -> dict[str, object]:
        return {
            "layer": self.layer,
            "joined": self.joined,
            "nodes": dict(self.nodes),
            "triples": dict(self.triples),
            "skipped": dict(self.skipped),
            "remapped": dict(self.remapped),
            "merged": dict(self.merged),
        }


def add_nodes(
    con: duckdb.DuckDBPyConnection,
    rows: Iterable[tuple[str, str, str]],
    layer: str,
    report: LayerReport,
) -> None:
    """``(id, name, kind)`` rows; ids already in the store keep their node."""
    staged = list({r[0]: r for r in rows}.values())
    con.execute("CREATE TEMP TABLE new_nodes (id VARCHAR, name VARCHAR, kind VARCHAR)")
    bulk_insert(con, "new_nodes", staged)
    for kind, n in con.execute(
        "SELECT kind, count(*) FROM new_nodes WHERE id NOT IN (SELECT id FROM nodes) GROUP BY kind"
    ).fetchall():
        report.nodes[str(kind)] += int(n)
    con.execute(
        "INSERT INTO nodes SELECT id, name, kind, ? FROM new_nodes"
        " WHERE id NOT IN (SELECT id FROM nodes)",
        [layer],
    )
    con.execute("DROP TABLE new_nodes")


def add_triples(
    con: duckdb.DuckDBPyConnection,
    rows: Iterable[TripleRow],
    layer: str,
    report: LayerReport,
) -> None:
    """Store triples under ``layer``; one row per (triple, source), ends must exist."""
    merged: dict[tuple[str, str, str, str], tuple[set[str], float | None]] = {}
    for s, r, o, source, detail, score in rows:
        details, best = merged.setdefault((s, r, o, source), (set(), None))
        if detail:
            details.add(detail)
        if score is not None and (best is None or score > best):
            merged[(s, r, o, source)] = (details, score)
    staged = [
        (s, r, o, source, layer, ", ".join(sorted(d)) or None, None if sc is None else str(sc))
        for (s, r, o, source), (d, sc) in merged.items()
    ]
    con.execute(
        "CREATE TEMP TABLE new_triples (subj VARCHAR, rel VARCHAR, obj VARCHAR, source VARCHAR,"
        " layer VARCHAR, detail VARCHAR, score DOUBLE)"
    )
    bulk_insert(con, "new_triples", staged)
    dangling = con.execute(
        "SELECT source, count(*) FROM new_triples WHERE subj NOT IN (SELECT id FROM nodes)"
        " OR obj NOT IN (SELECT id FROM nodes) GROUP BY source"
    ).fetchall()
    for source, n in dangling:
        report.skipped[f"{source}: end not in the graph"] += int(n)
    con.execute(
        "DELETE FROM new_triples WHERE subj NOT IN (SELECT id FROM nodes)"
        " OR obj NOT IN (SELECT id FROM nodes)"
    )
    con.execute(
        "DELETE FROM new_triples n USING triples t WHERE t.subj = n.subj AND t.rel = n.rel"
        " AND t.obj = n.obj AND t.layer = n.layer AND t.source = n.source"
    )
    for source, n in con.execute(
        "SELECT source, count(*) FROM new_triples GROUP BY source"
    ).fetchall():
        report.triples[str(source)] += int(n)
    con.execute("INSERT INTO triples SELECT * FROM new_triples")
    con.execute("DROP TABLE new_triples")


@dataclass(frozen=True)
class GeneInfo:
    """NCBI gene_info, human: Entrez id by symbol (the NCBI symbol, the nomenclature
    authority's symbol such as ``MT-ATP6`` for NCBI's ``ATP6``, and unambiguous synonyms),
    symbol by id."""

    by_symbol: dict[str, str]
    symbol: dict[str, str]

    @classmethod
    def required(cls, aliases: AliasSource, layer: str) -> GeneInfo:
        """The NCBI gene_info of the alias sources; a layer that maps genes cannot do without."""
        path = aliases.path("ncbi_Homo_sapiens.gene_info")
        if path is None:
            raise DataError(f"the {layer} layer needs NCBI gene_info to map gene ids and symbols")
        return cls.read(path)

    @classmethod
    def read(cls, path: Path) -> GeneInfo:
        opener = gzip.open if path.suffix == ".gz" else open
        primary: dict[str, str] = {}
        authority: dict[str, str] = {}
        synonyms: dict[str, set[str]] = {}
        symbol: dict[str, str] = {}
        with opener(path, "rt", encoding="utf-8") as fh:  # type: ignore[operator]
            for line in fh:
                if line.startswith("#"):
                    continue
                p = line.rstrip("\n").split("\t")
                if len(p) < 5 or p[0] != "9606":
                    continue
                symbol[p[1]] = p[2]
                primary.setdefault(p[2].upper(), p[1])
                if len(p) > 10 and p[10] not in {"", "-"}:
                    authority.setdefault(p[10].upper(), p[1])
                for syn in p[4].split("|"):
                    if syn and syn != "-":
                        synonyms.setdefault(syn.upper(), set()).add(p[1])
        by_symbol = {s: ids.pop() for s, ids in synonyms.items() if len(ids) == 1}
        by_symbol.update(authority)
        by_symbol.update(primary)
        return cls(by_symbol, symbol)

    def entrez(self, sym: str) -> str | None:
        return self.by_symbol.get(sym.strip().upper())

    def node(self, entrez: str) -> tuple[str, str, str] | None:
        """The ``(id, name, kind)`` of a gene node, for genes the graph lacks."""
        sym = self.symbol.get(entrez)
        return (f"Gene::{entrez}", sym, "Gene") if sym else None
