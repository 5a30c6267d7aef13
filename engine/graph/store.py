"""The knowledge graph: node table and CSR adjacency in memory, DuckDB for everything else.

Adjacency is loaded once with a single DuckDB query into compressed-sparse-row arrays, one per
directed relation use, so a walk step is an array slice, never a query.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import duckdb
import numpy as np
import numpy.typing as npt

from engine.graph.relations import UNDIRECTED, DirectedRel, directed_uses

IntArray = npt.NDArray[np.int32]


class StoreMissing(FileNotFoundError):
    """The KG store has not been built (run ``helix-chat ingest``)."""


@dataclass(frozen=True)
class CSR:
    indptr: IntArray
    indices: IntArray

    def row(self, i: int) -> IntArray:
        return self.indices[self.indptr[i] : self.indptr[i + 1]]

    def degree(self, i: int) -> int:
        return int(self.indptr[i + 1] - self.indptr[i])


def _csr(src: IntArray, dst: IntArray, n: int) -> CSR:
    order = np.lexsort((dst, src))
    src_sorted = src[order]
    counts = np.bincount(src_sorted, minlength=n)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    return CSR(indptr.astype(np.int64), dst[order].astype(np.int32))  # type: ignore[arg-type]


class KGStore:
    def __init__(self, path: Path) -> None:
        if not path.exists():
            raise StoreMissing(f"no KG store at {path}; run `helix-chat ingest`")
        t0 = time.perf_counter()
        self.path = path
        self.con = duckdb.connect(str(path), read_only=True)
        rows = self.con.execute("SELECT id, name, kind FROM nodes ORDER BY id").fetchall()
        self.ids: list[str] = [r[0] for r in rows]
        self.names: list[str] = [r[1] for r in rows]
        self.kinds: list[str] = [r[2] for r in rows]
        self.index: dict[str, int] = {nid: i for i, nid in enumerate(self.ids)}
        self._adj: dict[str, CSR] = {}
        self._stored: dict[str, set[int]] = {}
        self._load_adjacency()
        self.load_ms = (time.perf_counter() - t0) * 1000

    def _load_adjacency(self) -> None:
        self.con.execute(
            "CREATE TEMP TABLE nidx AS SELECT id, (row_number() OVER (ORDER BY id)) - 1 AS i"
            " FROM nodes"
        )
        data = self.con.execute(
            "SELECT t.rel, a.i AS s, b.i AS o FROM triples t JOIN nidx a ON a.id = t.subj"
            " JOIN nidx b ON b.id = t.obj"
        ).fetchnumpy()
        rels = np.asarray(data["rel"]).astype(str)
        s = np.asarray(data["s"], dtype=np.int32)
        o = np.asarray(data["o"], dtype=np.int32)
        n = len(self.ids)
        self.n_triples = len(rels)
        for rel in np.unique(rels):
            mask = rels == rel
            rs, ro = s[mask], o[mask]
            if rel in UNDIRECTED:
                self._stored[str(rel)] = set((rs.astype(np.int64) * n + ro).tolist())
                both_s = np.concatenate([rs, ro])
                both_o = np.concatenate([ro, rs])
                self._adj[str(rel)] = _csr(both_s, both_o, n)
            else:
                self._adj[str(rel)] = _csr(rs, ro, n)
                self._adj[f"{rel}^-1"] = _csr(ro, rs, n)

    # --- nodes ---------------------------------------------------------------------------
    def has(self, node_id: str) -> bool:
        return node_id in self.index

    def name(self, node_id: str) -> str:
        i = self.index.get(node_id)
        return self.names[i] if i is not None else node_id

    def kind(self, node_id: str) -> str:
        i = self.index.get(node_id)
        return self.kinds[i] if i is not None else node_id.split("::", 1)[0]

    # --- adjacency -----------------------------------------------------------------------
    def neighbors(self, i: int, use: DirectedRel) -> IntArray:
        csr = self._adj.get(use.key)
        if csr is None:
            return np.zeros(0, dtype=np.int32)
        return csr.row(i)

    def degree(self, i: int, use: DirectedRel) -> int:
        csr = self._adj.get(use.key)
        return csr.degree(i) if csr is not None else 0

    def has_edge(self, i: int, use: DirectedRel, j: int) -> bool:
        row = self.neighbors(i, use)
        k = int(np.searchsorted(row, j))
        return k < len(row) and int(row[k]) == j

    def triple(self, i: int, use: DirectedRel, j: int) -> tuple[str, str, str]:
        """The stored triple for the step i -> j along ``use`` (undirected: as stored)."""
        a, b = self.ids[i], self.ids[j]
        stored = self._stored.get(use.rel)
        if stored is not None:
            n = len(self.ids)
            return (a, use.rel, b) if i * n + j in stored else (b, use.rel, a)
        return use.orient(a, b)

    def uses(self) -> list[DirectedRel]:
        return [u for u in directed_uses() if u.key in self._adj]

    # --- DuckDB-backed lookups ------------------------------------------------------------
    def triples_of(
        self, node_id: str, rel: str | None = None, limit: int = 50
    ) -> list[tuple[str, str, str]]:
        q = "SELECT subj, rel, obj FROM triples WHERE (subj = ? OR obj = ?)"
        args: list[object] = [node_id, node_id]
        if rel:
            q += " AND rel = ?"
            args.append(rel)
        q += " ORDER BY rel, subj, obj LIMIT ?"
        args.append(limit)
        return [(str(a), str(b), str(c)) for a, b, c in self.con.execute(q, args).fetchall()]

    def passages(self, ids: list[str]) -> dict[str, tuple[str, str, str]]:
        if not ids:
            return {}
        rows = self.con.execute(
            "SELECT id, title, text, corpus FROM passages WHERE list_contains(?, id)", [ids]
        ).fetchall()
        return {r[0]: (r[1], r[2], r[3]) for r in rows}

    def rephetio_metapaths(self) -> list[tuple[str, int, float | None]]:
        """Project Rephetio's metapath table: (abbreviation, length, model coefficient)."""
        rows = self.con.execute("SELECT abbrev, length, coef FROM metapaths").fetchall()
        return [(str(a), int(n), None if c is None else float(c)) for a, n, c in rows]

    def description(self, node_id: str) -> str | None:
        row = self.con.execute(
            "SELECT description FROM node_details WHERE node_id = ?", [node_id]
        ).fetchone()
        return str(row[0]) if row else None

    def close(self) -> None:
        self.con.close()
