"""The knowledge graph: node table and CSR adjacency in memory, DuckDB for everything else.

Adjacency is loaded once with a single DuckDB query into compressed-sparse-row arrays, one per
directed relation use, so a walk step is an array slice, never a query.

A store can be restricted to some of its layers (``hetionet``, ``disease-pack``, a KGX graph):
it then holds the nodes those layers introduced or connect, their triples (a triple stated by
several layers or sources counts once) and their aliases. A store built before layers existed
is read as one ``hetionet`` layer.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import duckdb
import numpy as np
import numpy.typing as npt

from engine.graph.provenance import BASE_LAYER, EdgeSource, Provenance
from engine.graph.relations import (
    BY_ABBREV,
    LAYER_RELATIONS,
    UNDIRECTED,
    DirectedRel,
    directed_uses,
)
from engine.util.artefact import (
    code_digest,
    file_fingerprint,
    layers_tag,
    pack,
    read_mapped,
    unpack,
    write_mapped,
)
from engine.util.faults import StoreFault

IntArray = npt.NDArray[np.int32]
FIXED_RELS = frozenset(BY_ABBREV) | {r.rel for r in LAYER_RELATIONS}
"""Relations of the code's schema; any other relation comes from a KGX layer's data."""
SNAPSHOT_CODE = ("engine.graph.store", "engine.graph.relations", "engine.graph.provenance")
"""The code that reads the nodes and adjacency out of the store (``prepared_dir``)."""


@dataclass(frozen=True)
class Sample:
    """A relation held only in part: ``kept`` of the source's ``total`` edges."""

    kept: int
    total: int


class StoreMissing(FileNotFoundError):
    """The KG store has not been built (run ``helix-chat ingest``)."""


class StoreUnreadable(StoreFault):
    """The KG store exists but cannot be read (truncated, corrupt, or another program's file)."""


class UnknownLayer(ValueError):
    """A requested layer is not built in this store."""


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
    def __init__(
        self,
        path: Path,
        layers: Collection[str] | None = None,
        prepared_dir: Path | None = None,
    ) -> None:
        """Open the store read-only, restricted to ``layers`` (default: every built layer).

        ``prepared_dir``: where the nodes and adjacency read out of this store file for these
        layers are kept (``engine/util/artefact.py``): read from there when made from this
        very file, else read from the store and saved there; ``prepared_why`` then says why."""
        if not path.exists():
            raise StoreMissing(f"no KG store at {path}; run `helix-chat ingest`")
        t0 = time.perf_counter()
        self.path = path
        self.prepared_why: str | None = None
        self._local = threading.local()
        self._cursors: list[tuple[threading.Thread, duckdb.DuckDBPyConnection]] = []
        self._cursors_lock = threading.Lock()
        self._typed_lock = threading.Lock()
        try:
            self._main = duckdb.connect(str(path), read_only=True)
            self._local.con = self._main
            self._load(path, layers, prepared_dir)
        except duckdb.Error as exc:  # a block overwritten inside the file fails when read
            raise self.unreadable(exc) from exc
        self.load_ms = (time.perf_counter() - t0) * 1000

    def _load(self, path: Path, layers: Collection[str] | None, prepared_dir: Path | None) -> None:
        """Read what the walks keep in memory: layers, nodes, adjacency, predicates."""
        self.layered = self._has_column("triples", "layer")
        self.con.execute("SELECT count(*) FROM nodes").fetchone()
        self.built_layers: list[str] = self._built_layers() if self.layered else [BASE_LAYER]
        if layers:
            unknown = sorted(set(layers) - set(self.built_layers))
            if unknown:
                raise UnknownLayer(
                    f"layer(s) {', '.join(unknown)} not built in {path}; built: "
                    f"{', '.join(self.built_layers)}"
                )
        self.layers: tuple[str, ...] = tuple(
            x for x in self.built_layers if not layers or x in layers
        )
        self.ids: list[str] = []
        self.names: list[str] = []
        self.kinds: list[str] = []
        self.index: dict[str, int] = {}
        self._adj: dict[str, CSR] = {}
        self._stored: dict[str, npt.NDArray[np.int64]] = {}
        """Undirected relation -> the sorted keys ``i * n + j`` of its triples as stored."""
        self.predicates: list[tuple[str, str, str, str]] = []
        """(predicate, relation, subject kind, object kind) of the active KGX layers."""
        self.sampled: dict[str, Sample] = {}
        """Relations the active layers hold only a sample of (no other active layer adds to
        them), with how many edges are kept of how many."""
        self._documents = False
        self._reach: dict[str, int] = {}
        fingerprint = {
            **file_fingerprint(path),
            "layers": list(self.layers),
            "code": code_digest(SNAPSHOT_CODE),
        }
        target = prepared_dir / f"graph-{layers_tag(self.layers)}.pickle" if prepared_dir else None
        snapshot, why = read_mapped(target, fingerprint, "graph") if target else (None, "")
        if snapshot is not None:
            ids, names, kind_names, kind_of = snapshot["nodes"]
            self.ids, self.names = unpack(ids), unpack(names)
            self.kinds = [kind_names[c] for c in kind_of.tolist()]
            self._adj = {
                k: CSR(indptr, indices) for k, (indptr, indices) in snapshot["adj"].items()
            }
            self._stored, self.n_triples = snapshot["stored"], snapshot["n_triples"]
            self.index = {nid: i for i, nid in enumerate(self.ids)}
            self.provenance = Provenance.of_state(snapshot["provenance"])
            self.predicates, self.sampled = snapshot["predicates"], snapshot["sampled"]
            self._documents = snapshot["documents"]
        else:
            self.prepared_why = why or None
            self._read_nodes()
            self._load_adjacency()
            self.provenance = Provenance.load(
                self.con, self.layers if self.layered else None, self._superseded_samples()
            )
            self.predicates = self._predicates()
            self.sampled = self._sampled()
            self._documents = self._has_table("documents")
            if target is not None:
                write_mapped(target, fingerprint, self._snapshot())
        self._kind_code = {k: c for c, k in enumerate(sorted(set(self.kinds)))}
        self._kind_of = np.asarray([self._kind_code[k] for k in self.kinds], dtype=np.int32)
        self._shares: dict[str, float] = {}

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        """This thread's connection to the store: the one opened with it for the opening
        thread, a cursor of it (``con.cursor()``, DuckDB's way to share one database between
        threads) for any other, made on the thread's first query. The store is read-only
        after open, so threads answer at once without waiting for each other."""
        con: duckdb.DuckDBPyConnection | None = getattr(self._local, "con", None)
        if con is None:
            with self._cursors_lock:
                alive = []
                for thread, cursor in self._cursors:  # close those of finished threads
                    if thread.is_alive():
                        alive.append((thread, cursor))
                    else:
                        cursor.close()
                con = self._main.cursor()
                self._cursors = [*alive, (threading.current_thread(), con)]
            self._local.con = con
        return con

    def unreadable(self, exc: BaseException) -> StoreUnreadable:
        """``exc`` (a DuckDB error reading the file) as one sentence naming the file and fix."""
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
        if "permission denied" in reason.lower():  # the file is whole: rebuilding is no fix
            return StoreUnreadable(
                f"the graph store {self.path} cannot be read: this user may not read it "
                "(check its owner and mode)"
            )
        return StoreUnreadable(
            f"the graph store {self.path} cannot be read ({reason}); rebuild it with"
            " `helix-chat ingest --force`"
        )

    @contextmanager
    def reading(self) -> Iterator[None]:
        """A block of reads: a DuckDB error in it (a block overwritten inside the file fails
        its checksum only when read) is raised as ``StoreUnreadable``."""
        try:
            yield
        except duckdb.Error as exc:
            raise self.unreadable(exc) from exc

    def _built_layers(self) -> list[str]:
        """Recorded layers in build order, then any layer named only by nodes or triples."""
        named = [
            str(r[0])
            for r in self.con.execute("SELECT name FROM layers ORDER BY built_at").fetchall()
        ]
        seen = self.con.execute(
            "SELECT DISTINCT layer FROM nodes UNION SELECT DISTINCT layer FROM triples"
        ).fetchall()
        return list(dict.fromkeys([*named, *sorted(str(r[0]) for r in seen if r[0])]))

    def _has_column(self, table: str, column: str) -> bool:
        cols = self.con.execute(f"PRAGMA table_info('{table}')").fetchall()
        return any(c[1] == column for c in cols)

    @property
    def restricted(self) -> bool:
        """True when some built layer is left out."""
        return len(self.layers) < len(self.built_layers)

    def _restrict(self) -> None:
        """Temp tables of the active layers: ``active_triples`` (one row per distinct triple)
        and ``active_nodes`` (nodes the layers introduced or connect)."""
        if not self.layered:
            self.con.execute(
                "CREATE TEMP VIEW active_triples AS SELECT subj, rel, obj FROM triples"
            )
            self.con.execute("CREATE TEMP VIEW active_nodes AS SELECT id, name, kind FROM nodes")
            return
        layers = list(self.layers)
        self.con.execute(
            "CREATE TEMP TABLE active_triples AS SELECT DISTINCT subj, rel, obj FROM triples"
            " WHERE list_contains(?, layer)",
            [layers],
        )
        self.con.execute(
            "CREATE TEMP TABLE active_nodes AS SELECT id, name, kind FROM nodes"
            " WHERE list_contains(?, layer) OR id IN (SELECT subj FROM active_triples)"
            " OR id IN (SELECT obj FROM active_triples)",
            [layers],
        )

    def _read_nodes(self) -> None:
        self._active()
        rows = self.con.execute("SELECT id, name, kind FROM active_nodes ORDER BY id").fetchall()
        self.ids = [r[0] for r in rows]
        self.names = [r[1] for r in rows]
        self.kinds = [r[2] for r in rows]
        self.index = {nid: i for i, nid in enumerate(self.ids)}

    def _snapshot(self) -> dict[str, object]:
        """What ``_read_nodes``, ``_load_adjacency``, ``Provenance.load`` and the layers'
        predicates, samples and documents read, to be kept in a prepared file."""
        kind_names = sorted(set(self.kinds))
        code = {k: c for c, k in enumerate(kind_names)}
        kind_of = np.asarray([code[k] for k in self.kinds], dtype=np.int16)
        return {
            "nodes": (pack(self.ids), pack(self.names), kind_names, kind_of),
            "adj": {k: (c.indptr, c.indices) for k, c in self._adj.items()},
            "stored": self._stored,
            "n_triples": self.n_triples,
            "provenance": self.provenance.state(),
            "predicates": self.predicates,
            "sampled": self.sampled,
            "documents": self._documents,
        }

    def _active(self) -> None:
        """The temp tables of the active layers (``_restrict``), made on first need by this
        thread's connection (temp tables are its own): only building the nodes, adjacency and
        alias index reads them, so an open from prepared files never makes them."""
        if not getattr(self._local, "active", False):
            self._restrict()
            self._local.active = True

    def _load_adjacency(self) -> None:
        self._active()
        self.con.execute(
            "CREATE TEMP TABLE nidx AS SELECT id, (row_number() OVER (ORDER BY id)) - 1 AS i"
            " FROM active_nodes"
        )
        data = self.con.execute(
            "SELECT t.rel, a.i AS s, b.i AS o FROM active_triples t JOIN nidx a ON a.id = t.subj"
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
                self._stored[str(rel)] = np.sort(rs.astype(np.int64) * n + ro)
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

    def names_of_kind(self, kind: str) -> list[tuple[str, str]]:
        """(id, name) of every node of ``kind``."""
        return [(n, self.names[i]) for i, n in enumerate(self.ids) if self.kinds[i] == kind]

    def kind(self, node_id: str) -> str:
        i = self.index.get(node_id)
        return self.kinds[i] if i is not None else node_id.split("::", 1)[0]

    # --- adjacency -----------------------------------------------------------------------
    def neighbors(self, i: int, use: DirectedRel) -> IntArray:
        """Nodes one ``use`` step from node i: for a typed use only edges of its action
        type, for a relation the data brings only nodes of the use's target kind (one KGX
        predicate may join several pairs of kinds)."""
        csr = self._csr(use)
        if csr is None:
            return np.zeros(0, dtype=np.int32)
        row = csr.row(i)
        if use.rel not in FIXED_RELS and len(row):
            row = row[self._kind_of[row] == self._kind_code.get(use.dst, -1)]
        return row

    def degree(self, i: int, use: DirectedRel) -> int:
        csr = self._csr(use)
        if csr is None:
            return 0
        if use.rel not in FIXED_RELS:
            return len(self.neighbors(i, use))
        return csr.degree(i)

    def reach(self, use: DirectedRel) -> int:
        """How many nodes have at least one edge along ``use`` (an IDF population)."""
        if use.key not in self._reach:
            csr = self._csr(use)
            self._reach[use.key] = 0 if csr is None else int(np.count_nonzero(np.diff(csr.indptr)))
        return self._reach[use.key]

    def _csr(self, use: DirectedRel) -> CSR | None:
        csr = self._adj.get(use.key)
        if csr is None and use.detail and use.rel in self._adj:
            self._typed(use.rel, use.detail)
            csr = self._adj.get(use.key)
        return csr

    def _typed(self, rel: str, detail: str) -> None:
        """Adjacency of the ``rel`` edges whose detail names ``detail`` (an action type),
        in the active layers, built on first use (by one thread; the others wait for it)."""
        with self._typed_lock:
            if f"{rel}[{detail}]^-1" not in self._adj:
                self._build_typed(rel, detail)

    def _build_typed(self, rel: str, detail: str) -> None:
        rows = self.con.execute(
            "SELECT DISTINCT subj, obj FROM triples WHERE rel = ? AND list_contains(?, layer)"
            " AND list_contains(string_split(detail, ', '), ?)",
            [rel, list(self.layers), detail],
        ).fetchall()
        index = self.index
        pairs = [(index[a], index[b]) for a, b in rows if a in index and b in index]
        s = np.asarray([a for a, _ in pairs], dtype=np.int32)
        o = np.asarray([b for _, b in pairs], dtype=np.int32)
        n = len(self.ids)
        self._adj[f"{rel}[{detail}]"] = _csr(s, o, n)
        self._adj[f"{rel}[{detail}]^-1"] = _csr(o, s, n)

    def details(self, rel: str, source: str) -> list[str]:
        """The distinct detail values ``source`` gives ``rel`` edges in the active layers
        (DrugCentral's action types on ``CbG``: 'inhibitor', 'agonist' ...)."""
        if not self.layered:
            return []
        rows = self.con.execute(
            "SELECT DISTINCT unnest(string_split(detail, ', ')) FROM triples WHERE rel = ?"
            " AND source = ? AND detail IS NOT NULL AND list_contains(?, layer)",
            [rel, source, list(self.layers)],
        ).fetchall()
        return sorted(str(r[0]) for r in rows if r[0])

    def _predicates(self) -> list[tuple[str, str, str, str]]:
        if not self.layered or not self._has_table("predicates"):
            return []
        rows = self.con.execute(
            "SELECT DISTINCT predicate, rel, source_kind, target_kind FROM predicates"
            " WHERE list_contains(?, layer) ORDER BY ALL",
            [list(self.layers)],
        ).fetchall()
        return [(str(a), str(b), str(c), str(d)) for a, b, c, d in rows if str(b) in self._adj]

    def _sampled(self) -> dict[str, Sample]:
        if not self._has_table("sampled_relations"):
            return {}
        layers = list(self.layers) if self.layered else list(self.built_layers)
        rows = self.con.execute(
            "SELECT s.rel, s.kept, s.total FROM sampled_relations s"
            " WHERE list_contains(?, s.layer) AND NOT EXISTS (SELECT 1 FROM triples t"
            " WHERE t.rel = s.rel AND t.layer <> s.layer AND list_contains(?, t.layer))",
            [layers, layers],
        ).fetchall()
        return {str(rel): Sample(int(kept), int(total)) for rel, kept, total in rows}

    def _superseded_samples(self) -> dict[str, str]:
        """Relation -> the active layer holding a sample of it, for the sampled relations that
        another active layer states too (the complement of ``sampled``)."""
        if not self.layered or not self._has_table("sampled_relations"):
            return {}
        layers = list(self.layers)
        rows = self.con.execute(
            "SELECT s.rel, s.layer FROM sampled_relations s"
            " WHERE list_contains(?, s.layer) AND EXISTS (SELECT 1 FROM triples t"
            " WHERE t.rel = s.rel AND t.layer <> s.layer AND list_contains(?, t.layer))",
            [layers, layers],
        ).fetchall()
        return {str(rel): str(layer) for rel, layer in rows}

    def _has_table(self, table: str) -> bool:
        row = self.con.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [table]
        ).fetchone()
        return bool(row and row[0])

    def has_edge(self, i: int, use: DirectedRel, j: int) -> bool:
        csr = self._csr(use)
        if csr is None:
            return False
        if use.rel not in FIXED_RELS and self._kind_of[j] != self._kind_code.get(use.dst, -1):
            return False
        row = csr.row(i)
        k = int(np.searchsorted(row, j))
        return k < len(row) and int(row[k]) == j

    def linked(self, a: str, b: str) -> bool:
        """Some stored edge joins the two nodes, either way round."""
        i, j = self.index.get(a), self.index.get(b)
        if i is None or j is None:
            return False
        return any(self.has_edge(i, u, j) for u in self.uses())

    def triple(self, i: int, use: DirectedRel, j: int) -> tuple[str, str, str]:
        """The stored triple for the step i -> j along ``use`` (undirected: as stored)."""
        a, b = self.ids[i], self.ids[j]
        stored = self._stored.get(use.rel)
        if stored is not None:
            key = i * len(self.ids) + j
            k = int(np.searchsorted(stored, key))
            return (a, use.rel, b) if k < len(stored) and stored[k] == key else (b, use.rel, a)
        return use.orient(a, b)

    def objects(self, node_id: str, rel: str) -> list[str]:
        """Nodes that ``node_id`` points to along a stored relation (e.g. ``DsD`` parents)."""
        i, csr = self.index.get(node_id), self._adj.get(rel)
        if i is None or csr is None:
            return []
        return [self.ids[j] for j in csr.row(i).tolist()]

    def uses(self) -> list[DirectedRel]:
        return [u for u in directed_uses() if u.key in self._adj]

    # --- DuckDB-backed lookups ------------------------------------------------------------
    def triples_of(
        self, node_id: str, rel: str | None = None, limit: int = 50
    ) -> list[tuple[str, str, str]]:
        """The node's triples in the active layers (a triple stated by several counts once),
        by relation; the ends of an active triple are active nodes."""
        q = "SELECT subj, rel, obj FROM triples WHERE (subj = ? OR obj = ?)"
        args: list[object] = [node_id, node_id]
        if self.layered:
            q = q.replace("SELECT", "SELECT DISTINCT") + " AND list_contains(?, layer)"
            args.append(list(self.layers))
        if rel:
            q += " AND rel = ?"
            args.append(rel)
        q += " ORDER BY rel, subj, obj LIMIT ?"
        args.append(limit)
        return [(str(a), str(b), str(c)) for a, b, c in self.con.execute(q, args).fetchall()]

    def aliases_of(self, node_id: str, limit: int = 40) -> list[str]:
        """The names a node goes by (its own first), at most ``limit``."""
        q = "SELECT DISTINCT alias, is_primary FROM aliases WHERE node_id = ?"
        q += " ORDER BY is_primary DESC, length(alias), alias LIMIT ?"
        return [str(r[0]) for r in self.con.execute(q, [node_id, limit]).fetchall()]

    def alias_rows(self) -> list[tuple[str, str, str, str, bool]]:
        """``(key, node_id, alias, source, is_primary)`` of the active layers' nodes."""
        q = "SELECT key, node_id, alias, source, is_primary FROM aliases"
        self._active()
        if not self.layered:
            return [tuple(r) for r in self.con.execute(q).fetchall()]  # type: ignore[misc]
        q += " WHERE list_contains(?, layer) AND node_id IN (SELECT id FROM active_nodes)"
        return [tuple(r) for r in self.con.execute(q, [list(self.layers)]).fetchall()]  # type: ignore[misc]

    def edge_sources(
        self, triples: Iterable[tuple[str, str, str]]
    ) -> dict[tuple[str, str, str], list[EdgeSource]]:
        """Who states each triple in the active layers (undirected: either orientation)."""
        return self.provenance.sources(triples, lambda n: n in self.index)

    def source_label(self, triple: tuple[str, str, str]) -> str | None:
        """All sources of one triple, joined: ``hetionet; DISEASES 2022, score 5``."""
        found = self.edge_sources([triple]).get(tuple(triple))  # type: ignore[arg-type]
        return "; ".join(dict.fromkeys(e.label for e in found)) if found else None

    def passages(self, ids: list[str]) -> dict[str, tuple[str, str, str]]:
        if not ids:
            return {}
        rows = self.con.execute(
            "SELECT id, title, text, corpus FROM passages WHERE list_contains(?, id)", [ids]
        ).fetchall()
        return {r[0]: (r[1], r[2], r[3]) for r in rows}

    def passage_share(self, name: str) -> float:
        """The share of the corpus's passages that use ``name`` as a whole word or phrase, any
        case (cached): near 0 for a specific name, large for a word of the field ('disease')."""
        key = name.lower()
        if key not in self._shares:
            row = self.con.execute(
                "SELECT avg(CASE WHEN regexp_matches(lower(text), ?) THEN 1 ELSE 0 END)"
                " FROM passages",
                [rf"(^|[^a-z0-9]){re.escape(key)}($|[^a-z0-9])"],
            ).fetchone()
            self._shares[key] = float(row[0]) if row and row[0] is not None else 0.0
        return self._shares[key]

    def document(self, doc: str) -> tuple[str, str] | None:
        """(title, conclusion) of an article of the passage corpus; None when the store holds
        none for it (a corpus without conclusions, or a store built before they were kept)."""
        if not self._documents:
            return None
        row = self.con.execute(
            "SELECT title, conclusion FROM documents WHERE doc = ?", [doc]
        ).fetchone()
        return (str(row[0] or ""), str(row[1])) if row else None

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
        with self._cursors_lock:
            for _, cursor in self._cursors:
                cursor.close()
            self._cursors = []
        self._main.close()
