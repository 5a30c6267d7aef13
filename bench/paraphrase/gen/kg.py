"""The built KG store: entity tables, metapaths, unambiguous names and neighbours.

``load_store`` fills the module-level tables below (mutated in place, so every module that
imported them sees the store); ``load_metapaths`` reads the Rephetio metapaths.
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

import duckdb

HERE = Path(__file__).resolve().parents[1]  # bench/paraphrase (the directory of make_bench.py)
METAPATHS_FILE = "kg_hetionet/rephetio_metapaths.tsv"  # manifest path in the data directory


# the KG (filled by load_store)

NAME: dict[str, str] = {}
KIND: dict[str, str] = {}
OUT_E: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))  # rel->subj->objs
IN_E: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))  # rel->obj->subjs
EDGES: dict[str, set[tuple[str, str]]] = defaultdict(set)
alias_nodes: dict[str, set[str]] = defaultdict(set)
name_nodes: dict[str, set[str]] = defaultdict(set)
COMMON: list[str] = []  # frequent words of the passage corpus (sorted)
COMMON_SET: set[str] = set()

Metapath = tuple[str, int, float | None]
"""(abbreviation, length, model coefficient) of a Rephetio metapath."""


def store_path() -> Path:
    """``$HELIX_HOME/stores/kg.duckdb``; exits with a clear message when it cannot be used."""
    home = os.environ.get("HELIX_HOME")
    if not home:
        sys.exit(
            "make_bench.py: HELIX_HOME is not set (the data home whose stores/kg.duckdb to use)"
        )
    kg = Path(home).expanduser() / "stores" / "kg.duckdb"
    if not kg.is_file():
        sys.exit(f"make_bench.py: no KG store at {kg} (run `helix-chat ingest` for that home)")
    return kg


def has_table(con: duckdb.DuckDBPyConnection, table: str) -> bool:
    return bool(
        con.execute(
            "select count(*) from information_schema.tables where table_name = ?", [table]
        ).fetchone()[0]
    )


def load_store(con: duckdb.DuckDBPyConnection) -> None:
    """Fill the module's KG tables and the everyday-word vocabulary from the store."""
    for nid, name, kind in con.execute("select id, name, kind from nodes").fetchall():
        NAME[nid] = name
        KIND[nid] = kind
    triples = con.execute("select subj, rel, obj from triples order by subj, rel, obj").fetchall()
    for s, r, o in triples:
        OUT_E[r][s].append(o)
        IN_E[r][o].append(s)
        EDGES[r].add((s, o))
    for key, nid in con.execute("select key, node_id from aliases").fetchall():
        alias_nodes[key].add(nid)
    for nid, nm in NAME.items():
        name_nodes[nm.lower()].add(nid)

    # everyday / frequent words: vocabulary of the default passage corpus (words seen >= 5 times);
    # passages added with `ingest --passages FILE` carry another corpus name and are left out
    vocab: Counter[str] = Counter()
    for (text,) in con.execute("select text from passages where corpus = 'default'").fetchall():
        vocab.update(re.findall(r"[a-z]+", (text or "").lower()))
    COMMON[:] = sorted(w for w, c in vocab.items() if c >= 5 and len(w) >= 2)
    COMMON_SET.update(COMMON)


def load_metapaths(con: duckdb.DuckDBPyConnection) -> list[Metapath]:
    """Rephetio metapaths in the order of Rephetio's table (length, then abbreviation).

    From the store's ``metapaths`` table; a store built before that table existed falls back to
    ``kg_hetionet/rephetio_metapaths.tsv`` in the data directories of the engine's settings.
    """
    if has_table(con, "metapaths"):
        rows = con.execute("select abbrev, length, coef from metapaths").fetchall()
        return sorted(rows, key=lambda r: (r[1], r[0]))
    sys.path.insert(0, str(HERE.parents[1]))  # this checkout's engine
    from engine.config import Settings
    from engine.ingest.datadir import search_dirs

    dirs = search_dirs(Settings())
    for d in dirs:
        tsv = d / METAPATHS_FILE
        if tsv.is_file():
            out: list[Metapath] = []
            for line in tsv.read_text(encoding="utf-8").splitlines()[1:]:
                cols = line.split("\t")
                out.append((cols[0], int(cols[1]), float(cols[4]) if cols[4] else None))
            return out
    sys.exit(
        "make_bench.py: the store has no metapaths table and no data directory holds "
        f"{METAPATHS_FILE} (searched: {', '.join(map(str, dirs)) or 'none'})"
    )


def good_name(nid: str) -> bool:
    """Unambiguous name that is not (a substring of) an everyday word."""
    nm = NAME.get(nid, "")
    key = nm.lower()
    if len(nm) < 3 or len(nm) > 60:
        return False
    if len(name_nodes[key]) > 1 or len(alias_nodes.get(key, {nid}) | {nid}) > 1:
        return False
    if key in COMMON_SET:
        return False
    return not (len(key) <= 6 and re.fullmatch(r"[a-z]+", key) and any(key in w for w in COMMON))


_GOOD: dict[str, bool] = {}


def good(nid: str) -> bool:
    """``good_name``, memoised."""
    if nid not in _GOOD:
        _GOOD[nid] = good_name(nid)
    return _GOOD[nid]


def undirected_neighbours(rel: str, n: str) -> list[tuple[str, tuple[str, str, str]]]:
    """(other endpoint, stored triple) for undirected relations (either stored orientation)."""
    out = [(o, (n, rel, o)) for o in OUT_E[rel].get(n, [])]
    out += [(s, (s, rel, n)) for s in IN_E[rel].get(n, []) if (n, s) not in EDGES[rel]]
    return [(x, t) for x, t in out if x != n]


UNDIRECTED = {"CrC", "DrD", "GiG", "GcG"}


def neighbours(rel: str, n: str, entity_is_subj: bool) -> list[tuple[str, tuple[str, str, str]]]:
    """(other endpoint, stored triple) of ``n`` along ``rel``, from the given end."""
    if rel in UNDIRECTED:
        return undirected_neighbours(rel, n)
    if entity_is_subj:
        return [(o, (n, rel, o)) for o in OUT_E[rel].get(n, [])]
    return [(s, (s, rel, n)) for s in IN_E[rel].get(n, [])]
