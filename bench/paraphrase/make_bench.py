"""Held-out paraphrase benchmark generator for Helix (blind templates x the built KG store).

Fills the wording templates of ``templates.yaml`` (beside this script; slot grammar in
``SLOTS.md``) with entities of the store and writes bench-format JSONL (the format
``helix-chat eval`` reads) whose gold comes from the store's triples, plus a memory replay stream
for ``helix-chat --replay``.

Inputs, all from the data home ``$HELIX_HOME`` (required):

- ``stores/kg.duckdb``: ``nodes``, ``aliases`` and ``triples`` (entities and gold); ``passages``
  (the default corpus: its frequent words rule out entity names that read as everyday words);
  ``metapaths`` (Rephetio metapaths for the second mechanism gold; for a store built before that
  table existed, ``kg_hetionet/rephetio_metapaths.tsv`` is read from the data directory instead).

Run:  HELIX_HOME=~/helix-home python bench/paraphrase/make_bench.py [--out DIR]

Deterministic: fixed SEED, every candidate list sorted before sampling.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
from collections import Counter, defaultdict
from datetime import datetime, timedelta
from pathlib import Path

import duckdb
import yaml

SEED = 20260417
HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "generated"
METAPATHS_FILE = "kg_hetionet/rephetio_metapaths.tsv"  # manifest path in the data directory

MAX_ONEHOP = 40
MULTI_MAX_PATHS = 100
MECH_MAX_PATHS = 150
PATH_CAP = 200

# ------------------------------------------------------------------ the KG (filled by load_store)

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


PLACEHOLDER_KIND = {
    "Compound": "Compound",
    "Disease": "Disease",
    "Gene": "Gene",
    "Symptom": "Symptom",
    "SideEffect": "Side Effect",
    "Anatomy": "Anatomy",
    "PharmClass": "Pharmacologic Class",
    "Pathway": "Pathway",
    "BioProcess": "Biological Process",
    "CellComponent": "Cellular Component",
    "MolFunction": "Molecular Function",
}
KIND_PLACEHOLDER = {v: k for k, v in PLACEHOLDER_KIND.items()}

# slot prefix -> (metaedge, subject kind, object kind)
SLOT_REL = {
    "treats": ("CtD", "Compound", "Disease"),
    "palliates": ("CpD", "Compound", "Disease"),
    "binds": ("CbG", "Compound", "Gene"),
    "drug_up": ("CuG", "Compound", "Gene"),
    "drug_down": ("CdG", "Compound", "Gene"),
    "side_effect": ("CcSE", "Compound", "Side Effect"),
    "drug_similar": ("CrC", "Compound", "Compound"),
    "class": ("PCiC", "Pharmacologic Class", "Compound"),
    "associates": ("DaG", "Disease", "Gene"),
    "disease_up": ("DuG", "Disease", "Gene"),
    "disease_down": ("DdG", "Disease", "Gene"),
    "localizes": ("DlA", "Disease", "Anatomy"),
    "presents": ("DpS", "Disease", "Symptom"),
    "disease_similar": ("DrD", "Disease", "Disease"),
    "expresses": ("AeG", "Anatomy", "Gene"),
    "anatomy_up": ("AuG", "Anatomy", "Gene"),
    "anatomy_down": ("AdG", "Anatomy", "Gene"),
    "interacts": ("GiG", "Gene", "Gene"),
    "covaries": ("GcG", "Gene", "Gene"),
    "regulates": ("Gr>G", "Gene", "Gene"),
    "pathway": ("GpPW", "Gene", "Pathway"),
    "bioprocess": ("GpBP", "Gene", "Biological Process"),
    "cellcomponent": ("GpCC", "Gene", "Cellular Component"),
    "molfunction": ("GpMF", "Gene", "Molecular Function"),
}
SLOT_WORD_KIND = {
    "drug": "Compound",
    "disease": "Disease",
    "gene": "Gene",
    "side_effect": "Side Effect",
    "class": "Pharmacologic Class",
    "anatomy": "Anatomy",
    "symptom": "Symptom",
    "pathway": "Pathway",
    "bioprocess": "Biological Process",
    "cellcomponent": "Cellular Component",
    "molfunction": "Molecular Function",
}


def fill(template: str, values: dict[str, str]) -> str:
    """Replace every ``[Slot]`` of a template; a slot without a value is an error."""

    def rep(m: re.Match[str]) -> str:
        key = m.group(1)
        if key not in values:
            raise KeyError(f"no value for [{key}] in {template!r}")
        return values[key]

    return re.sub(r"\[(\w+)\]", rep, template)


def placeholders(template: str) -> list[str]:
    return re.findall(r"\[(\w+)\]", template)


def record(rid, kind, question, status, seeds, answers, triples, paths, **extra):
    """A bench record (the format `helix-chat eval` reads); ``extra`` keys are kept as-is."""
    rec = {
        "id": rid,
        "kind": kind,
        "question": question,
        "expect_status": status,
        "seeds": seeds,
        "answers": answers,
        "gold_triples": [list(t) for t in triples],
        "gold_paths": [[list(t) for t in p] for p in paths],
        "gold_passages": [],
    }
    rec.update(extra)
    return rec


# ------------------------------------------------------------------ 1. one-hop


def gen_onehop(T: dict, rng: random.Random) -> list[dict]:
    """One question per template; the entity has 1..MAX_ONEHOP edges of the slot's relation."""
    onehop: list[dict] = []
    for slot in sorted(T["one_hop"]):
        templates = T["one_hop"][slot]
        prefix, direction = slot.split(".", 1)
        given_word = direction.split("->")[0]
        rel, skind, _okind = SLOT_REL[prefix]
        given_kind = SLOT_WORD_KIND[given_word]
        # for same-kind relations the entity is the subject (regulates: the regulator)
        entity_is_subj = given_kind == skind
        pool_nodes = sorted(set(OUT_E[rel]) if entity_is_subj else set(IN_E[rel]))
        if rel in UNDIRECTED:
            pool_nodes = sorted(set(OUT_E[rel]) | set(IN_E[rel]))
        cands = [
            n
            for n in pool_nodes
            if good(n) and 1 <= len(neighbours(rel, n, entity_is_subj)) <= MAX_ONEHOP
        ]
        relaxed = False
        if not cands:
            # e.g. AuG/AdG: every anatomy has > 1000 such edges; take the lowest-degree ones
            relaxed = True
            bydeg = sorted(
                (len(neighbours(rel, n, entity_is_subj)), n) for n in pool_nodes if good(n)
            )
            cands = sorted(n for _, n in bydeg[: max(len(templates), 20)])
            print(
                f"  {slot}: no entity with <= {MAX_ONEHOP} edges; "
                f"using the {len(cands)} lowest-degree "
                f"({bydeg[0][0]}..{bydeg[len(cands) - 1][0]} edges)"
            )
        picks = rng.sample(cands, min(len(templates), len(cands)))
        while len(picks) < len(templates):
            picks.append(rng.choice(cands))
        for i, (tpl, ent) in enumerate(zip(templates, picks, strict=False), 1):
            ph = placeholders(tpl)
            want = KIND_PLACEHOLDER[given_kind]
            if ph != [want]:
                print(f"  skip one_hop {slot} template {i}: placeholders {ph}")
                continue
            nb = neighbours(rel, ent, entity_is_subj)
            triples = sorted({t for _, t in nb})
            answers = sorted({x for x, _ in nb})
            q = fill(tpl, {want: NAME[ent]})
            onehop.append(
                record(
                    f"para-1hop-{len(onehop) + 1:04d}",
                    "one_hop",
                    q,
                    "ANSWERED",
                    [ent],
                    answers,
                    triples,
                    [[t] for t in triples],
                    slot=slot,
                    template_no=i,
                    **({"cap_relaxed": True} if relaxed else {}),
                )
            )
    return onehop


# ------------------------------------------------------------------ 2. multi-hop
# each returns the paths (tuples of triples) of one chain from its start entity


def mh_drug_gene_disease(c):
    paths = []
    for g in OUT_E["CbG"].get(c, []):
        for d in IN_E["DaG"].get(g, []):
            paths.append(((c, "CbG", g), (d, "DaG", g)))
    return paths


def mh_disease_drug_se(d):
    paths = []
    for c in IN_E["CtD"].get(d, []):
        for se in OUT_E["CcSE"].get(c, []):
            paths.append(((c, "CtD", d), (c, "CcSE", se)))
    return paths


def mh_disease_gene_pathway(d):
    paths = []
    for g in OUT_E["DaG"].get(d, []):
        for pw in OUT_E["GpPW"].get(g, []):
            paths.append(((d, "DaG", g), (g, "GpPW", pw)))
    return paths


def mh_drug_disease_symptom(c):
    paths = []
    for d in OUT_E["CtD"].get(c, []):
        for s in OUT_E["DpS"].get(d, []):
            paths.append(((c, "CtD", d), (d, "DpS", s)))
    return paths


def mh_disease_disease_drug(d):
    paths = []
    for d2, t in undirected_neighbours("DrD", d):
        for c in IN_E["CtD"].get(d2, []):
            paths.append((t, (c, "CtD", d2)))
    return paths


MULTI = {
    "multihop.drug->gene->disease": ("Compound", mh_drug_gene_disease, lambda p: p[-1][0]),
    "multihop.disease->drug->sideeffect": ("Disease", mh_disease_drug_se, lambda p: p[-1][2]),
    "multihop.disease->gene->pathway": ("Disease", mh_disease_gene_pathway, lambda p: p[-1][2]),
    "multihop.drug->disease->symptom": ("Compound", mh_drug_disease_symptom, lambda p: p[-1][2]),
    "multihop.disease->disease->drug": ("Disease", mh_disease_disease_drug, lambda p: p[-1][0]),
}


def gen_multihop(T: dict, rng: random.Random) -> list[dict]:
    """Two-hop chains (MULTI): the entity has 1..MULTI_MAX_PATHS paths; answers = path ends."""
    multi: list[dict] = []
    for slot, (kind, fn, end) in MULTI.items():
        templates = T["intents"][slot]
        nodes = sorted(n for n, k in KIND.items() if k == kind)
        cands = [n for n in nodes if good(n) and 1 <= len(fn(n)) <= MULTI_MAX_PATHS]
        picks = rng.sample(cands, min(len(templates), len(cands)))
        while len(picks) < len(templates):
            picks.append(rng.choice(cands))
        for i, (tpl, ent) in enumerate(zip(templates, picks, strict=False), 1):
            ph = placeholders(tpl)
            want = KIND_PLACEHOLDER[kind]
            if ph != [want]:
                print(f"  skip {slot} template {i}: placeholders {ph}")
                continue
            paths = sorted(set(fn(ent)))[:PATH_CAP]
            triples = sorted({t for p in paths for t in p})
            answers = sorted({end(p) for p in paths})
            multi.append(
                record(
                    f"para-multi-{len(multi) + 1:04d}",
                    "multi_hop",
                    fill(tpl, {want: NAME[ent]}),
                    "ANSWERED",
                    [ent],
                    answers,
                    triples,
                    paths,
                    slot=slot,
                    template_no=i,
                )
            )
    return multi


# ------------------------------------------------------------------ 3. mechanism


def mechanism_paths(c, d):
    """Paths from compound ``c`` to disease ``d`` along CbGaD, CrCtD, CtDrD and CbGiGaD."""
    paths = []
    dag_genes = set(OUT_E["DaG"].get(d, []))
    # CbGaD
    for g in OUT_E["CbG"].get(c, []):
        if g in dag_genes:
            paths.append(((c, "CbG", g), (d, "DaG", g)))
    # CrCtD
    for c2, t in undirected_neighbours("CrC", c):
        if (c2, d) in EDGES["CtD"]:
            paths.append((t, (c2, "CtD", d)))
    # CtDrD
    for d2 in OUT_E["CtD"].get(c, []):
        if d2 == d:
            continue
        for d3, t in undirected_neighbours("DrD", d2):
            if d3 == d:
                paths.append(((c, "CtD", d2), t))
    # CbGiGaD
    for g1 in OUT_E["CbG"].get(c, []):
        for g2, t in undirected_neighbours("GiG", g1):
            if g2 in dag_genes and g2 != g1:
                paths.append(((c, "CbG", g1), t, (d, "DaG", g2)))
    return sorted(set(paths))


def gen_mechanism(T: dict, rng: random.Random) -> list[dict]:
    """Compound-Disease treats pairs with 1..MECH_MAX_PATHS paths along the brief's 4 metapaths."""
    mech_templates = T["intents"]["mechanism"]
    pairs = sorted(EDGES["CtD"])
    mcands = []
    for c, d in pairs:
        if not (good(c) and good(d)):
            continue
        n = len(mechanism_paths(c, d))
        if 1 <= n <= MECH_MAX_PATHS:
            mcands.append((c, d))
    mpicks = rng.sample(mcands, min(len(mech_templates), len(mcands)))
    mech: list[dict] = []
    for i, (tpl, (c, d)) in enumerate(zip(mech_templates, mpicks, strict=False), 1):
        if sorted(placeholders(tpl)) != ["Compound", "Disease"]:
            print(f"  skip mechanism template {i}: {placeholders(tpl)}")
            continue
        paths = mechanism_paths(c, d)[:PATH_CAP]
        triples = sorted({t for p in paths for t in p})
        mech.append(
            record(
                f"para-mech-{len(mech) + 1:04d}",
                "mechanism",
                fill(tpl, {"Compound": NAME[c], "Disease": NAME[d]}),
                "ANSWERED",
                [c, d],
                [d],
                triples,
                paths,
                slot="mechanism",
                template_no=i,
            )
        )
    return mech


# 3b. a second, diagnostic gold for the mechanism questions (Rephetio metapaths)


def parse_metapath(mp):
    """Metapath abbreviation (e.g. ``CbGiGaD``) -> [(metaedge as stored, forward?)] per step."""
    toks = re.findall(r"(SE|PC|PW|BP|CC|MF|[CDGAS])([a-z<>]*)", mp)
    nodes = [t[0] for t in toks]
    edges = [t[1] for t in toks[:-1]]
    steps = []
    for a, e, b in zip(nodes, edges, nodes[1:], strict=False):
        if e == "r>":
            steps.append(("Gr>G", True))
        elif e == "<r":
            steps.append(("Gr>G", False))
        elif a + e + b in EDGES:
            steps.append((a + e + b, True))
        elif b + e + a in EDGES:
            steps.append((b + e + a, False))
        else:
            raise ValueError(mp)
    return steps


def walk_paths(steps, c, d, cap=5000):
    """Node-simple paths from ``c`` to ``d`` along ``steps`` (at most ``cap``)."""
    out = []

    def rec(node, i, acc, seen):
        if len(out) >= cap:
            return
        if i == len(steps):
            if node == d:
                out.append(tuple(acc))
            return
        rel, fwd = steps[i]
        nbrs = undirected_neighbours(rel, node) if rel in UNDIRECTED else neighbours(rel, node, fwd)
        for x, t in nbrs:
            if x in seen:
                continue
            if i == len(steps) - 1 and x != d:
                continue
            rec(x, i + 1, [*acc, t], seen | {x})

    rec(c, 0, [], {c})
    return sorted(set(out))


def rephetio_gold(mech: list[dict], metapaths: list[Metapath]) -> list[dict]:
    """Diagnostic second gold for the mechanism questions (same ids and questions).

    Every path along the Rephetio Compound->Disease metapaths of length 2-3 with model coefficient
    > 0 (the set the dev split and the product use), excluding the direct CtD edge; capped at 5000
    paths per metapath walk.
    """
    rephetio = [
        (mp, parse_metapath(mp))
        for mp, length, coef in metapaths
        if coef and coef > 0 and 2 <= length <= 3 and mp[0] == "C" and mp[-1] == "D"
    ]
    mech_alt = []
    for rec_ in mech:
        c, d = rec_["seeds"]
        paths = sorted({p for _, st in rephetio for p in walk_paths(st, c, d)})
        alt = dict(rec_)
        alt["gold_paths"] = [[list(t) for t in p] for p in paths]
        alt["gold_triples"] = [list(t) for t in sorted({t for p in paths for t in p})]
        alt["gold_note"] = "Rephetio metapaths with coef > 0: " + " ".join(m for m, _ in rephetio)
        mech_alt.append(alt)
    return mech_alt


# ------------------------------------------------------------------ 4. claims

CLAIM_REL = {
    "claim.treats": ("CtD", "Compound", "Disease"),
    "claim.binds": ("CbG", "Compound", "Gene"),
    "claim.associates": ("DaG", "Disease", "Gene"),
    "claim.side_effect": ("CcSE", "Compound", "Side Effect"),
    "claim.presents": ("DpS", "Disease", "Symptom"),
}


def gen_claims(T: dict, rng: random.Random) -> list[dict]:
    """Half true edges (claim_true), half random absent pairs of the same kinds (negative)."""
    claims: list[dict] = []
    for slot, (rel, sk, ok) in CLAIM_REL.items():
        templates = T["intents"][slot]
        true_pool = sorted((s, o) for s, o in EDGES[rel] if good(s) and good(o))
        subjs = sorted({s for s, _ in true_pool})
        objs = sorted({o for _, o in true_pool})
        flags = [i % 2 == 0 for i in range(len(templates))]
        rng.shuffle(flags)
        for i, (tpl, is_true) in enumerate(zip(templates, flags, strict=False), 1):
            want = {KIND_PLACEHOLDER[sk], KIND_PLACEHOLDER[ok]}
            if set(placeholders(tpl)) != want:
                print(f"  skip {slot} template {i}: {placeholders(tpl)}")
                continue
            if is_true:
                s, o = rng.choice(true_pool)
            else:
                while True:
                    s, o = rng.choice(subjs), rng.choice(objs)
                    if (s, o) not in EDGES[rel]:
                        break
            q = fill(tpl, {KIND_PLACEHOLDER[sk]: NAME[s], KIND_PLACEHOLDER[ok]: NAME[o]})
            triple = (s, rel, o)
            rid = f"para-claim-{len(claims) + 1:04d}"
            if is_true:
                claims.append(
                    record(
                        rid,
                        "claim_true",
                        q,
                        "ANSWERED",
                        [s, o],
                        [],
                        [triple],
                        [[triple]],
                        claim=list(triple),
                        slot=slot,
                        template_no=i,
                    )
                )
            else:
                claims.append(
                    record(
                        rid,
                        "negative",
                        q,
                        "NOT_ANSWERED",
                        [s, o],
                        [],
                        [],
                        [],
                        claim=list(triple),
                        slot=slot,
                        template_no=i,
                    )
                )
    return claims


# ------------------------------------------------------------------ 5. overview + literature


def all_triples(n):
    """Every stored triple touching ``n``, sorted."""
    out = []
    for rel in sorted(OUT_E):
        out += [(n, rel, o) for o in OUT_E[rel].get(n, [])]
        out += [(s, rel, n) for s in IN_E[rel].get(n, [])]
    return sorted(set(out))


def gen_overview(T: dict, rng: random.Random) -> list[dict]:
    """One entity per template; gold = all its neighbours (answers) and its first 20 triples."""
    overview: list[dict] = []
    used: set[str] = set()
    for i, tpl in enumerate(T["intents"]["overview"], 1):
        ph = placeholders(tpl)
        if len(ph) != 1 or ph[0] not in ("Compound", "Disease", "Gene"):
            print(f"  skip overview template {i}: {ph}")
            continue
        kind = PLACEHOLDER_KIND[ph[0]]
        cands = (
            sorted(
                n
                for n, k in KIND.items()
                if k == kind and n not in used and good(n) and 5 <= len(all_triples(n)) <= 2000
            )
            if kind != "Gene"
            else None
        )
        if kind == "Gene":  # genes: restrict to druggable / disease genes for a meaningful overview
            cands = sorted(
                n for n in set(IN_E["CbG"]) | set(IN_E["DaG"]) if n not in used and good(n)
            )
        ent = rng.choice(cands)
        used.add(ent)
        trip = all_triples(ent)
        nbrs = sorted({t[0] if t[2] == ent else t[2] for t in trip})
        overview.append(
            record(
                f"para-over-{len(overview) + 1:04d}",
                "overview",
                fill(tpl, {ph[0]: NAME[ent]}),
                "ANSWERED",
                [ent],
                nbrs,
                trip[:20],
                [],
                slot="overview",
                template_no=i,
            )
        )
    return overview


def gen_literature(T: dict) -> list[dict]:
    """The literature questions are used verbatim: no slots, no gold (passage kind)."""
    lit = []
    for i, q in enumerate(T["intents"]["literature"], 1):
        lit.append(
            record(
                f"para-lit-{i:04d}",
                "passage",
                q,
                "ANSWERED",
                [],
                [],
                [],
                [],
                slot="literature",
                template_no=i,
            )
        )
    return lit


# ------------------------------------------------------------------ 6. memory replay

USERS = [f"u{i}" for i in range(1, 9)]
DAY0 = datetime(2026, 3, 2)  # day 1 = Monday March 2 2026; day 7 = March 8


def date_word(day: int) -> str:
    d = DAY0 + timedelta(days=day - 1)
    return f"{d.strftime('%B')} {d.day}"


FIRST_F = [
    "Ada",
    "Helen",
    "Maria",
    "Grace",
    "Nora",
    "Leila",
    "Ines",
    "Zoe",
    "Clara",
    "Priya",
    "Hana",
    "Olga",
    "Sofia",
    "Elif",
    "Mei",
    "Ruth",
    "Aisha",
    "Greta",
    "Lucia",
    "Tamar",
]
FIRST_M = [
    "Victor",
    "Mateo",
    "Jonas",
    "Omar",
    "Kenji",
    "Luis",
    "Tomas",
    "Arjun",
    "Felix",
    "Samuel",
    "Dmitri",
    "Hugo",
    "Kofi",
    "Rafael",
    "Emil",
    "Andre",
    "Yusuf",
    "Pavel",
    "Marco",
    "Ivan",
]
LAST = [
    "Moreno",
    "Park",
    "Costa",
    "Eriksson",
    "Bauer",
    "Ferreira",
    "Nakamura",
    "Okafor",
    "Lindqvist",
    "Novak",
    "Haddad",
    "Schultz",
    "Rossi",
    "Kowalski",
    "Tanaka",
    "Brennan",
    "Duarte",
    "Ivanova",
    "Sato",
    "Mensah",
    "Varga",
    "Petrov",
    "Oyelaran",
    "Castillo",
    "Nguyen",
    "Jensen",
    "Fischer",
    "Dubois",
    "Silva",
    "Horvat",
    "Andersen",
    "Quinn",
    "Abe",
    "Morales",
    "Yilmaz",
    "Kaplan",
    "Weber",
    "Hughes",
    "Vasquez",
    "Lund",
    "Baptiste",
    "Soto",
    "Ortega",
    "Falk",
    "Ruiz",
    "Marek",
    "Doyle",
    "Aziz",
    "Kagame",
    "Pereira",
    "Sandoval",
    "Strand",
    "Oduya",
    "Richter",
    "Mori",
    "Kral",
    "Toth",
    "Barros",
    "Keane",
    "Wolff",
]
PROJECTS = [
    "the xenograft study",
    "the CRISPR screen",
    "the organoid project",
    "the biobank cohort study",
    "the neuroinflammation project",
    "the fibrosis screen",
    "the kinase panel",
    "the zebrafish screen",
    "the sepsis cohort",
    "the repurposing screen",
    "the iPSC cardiomyocyte project",
    "the AML PDX study",
    "the microbiome pilot",
    "the tau aggregation assay",
    "the lupus registry study",
    "the NASH mouse study",
    "the glioma organoid screen",
    "the asthma airway project",
    "the beta-cell project",
    "the retinal degeneration study",
    "the obesity cohort",
    "the antibiotic synergy screen",
    "the psoriasis biopsy study",
    "the ALS motor neuron project",
    "the HCC spheroid study",
    "the T-cell exhaustion project",
    "the osteoarthritis explant study",
    "the CKD progression cohort",
    "the melanoma resistance project",
    "the migraine imaging study",
]
MEASURES = [
    ("HbA1c", "%", (5.6, 11.5, 1)),
    ("creatinine", "mg/dL", (0.6, 3.8, 1)),
    ("potassium", "mmol/L", (2.9, 5.9, 1)),
    ("LDL", "mg/dL", (60, 210, 0)),
    ("TSH", "mIU/L", (0.2, 9.5, 1)),
    ("eGFR", "mL/min/1.73m2", (18, 95, 0)),
    ("hemoglobin", "g/dL", (7.5, 16.5, 1)),
    ("PSA", "ng/mL", (0.5, 30, 1)),
    ("INR", "", (0.9, 4.2, 1)),
    ("ALT", "U/L", (12, 240, 0)),
    ("CRP", "mg/L", (1, 120, 0)),
    ("ferritin", "ng/mL", (8, 900, 0)),
    ("troponin I", "ng/L", (3, 450, 0)),
    ("sodium", "mmol/L", (126, 148, 0)),
]
RESULTS = [
    "tumour growth inhibition {}%",
    "IC50 {} nM",
    "fold change {}",
    "HR {}",
    "AUC {}",
    "EC50 {} uM",
    "knockdown efficiency {}%",
    "response rate {}%",
]


def measure_value(rng_, meas) -> str:
    name, unit, (lo, hi, dec) = meas
    v = round(rng_.uniform(lo, hi), dec)
    v = int(v) if dec == 0 else v
    return f"{name} {v}{unit}" if unit == "%" else (f"{name} {v} {unit}" if unit else f"{name} {v}")


def slugify(project: str) -> str:
    s = re.sub(r"^the ", "", project.lower())
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-")


def value_on(p: Patient, day: int) -> str | None:
    """The drug a patient took on ``day`` (the last one started before it)."""
    cur = None
    for d, start in p.takes:
        if start < day:
            cur = d
    return cur


class Patient:
    """A patient of one user: referred to by MRN or by name, holding the facts said about them."""

    def __init__(
        self,
        rng: random.Random,
        user: str,
        num: int,
        style: str,
        first: str,
        last: str,
        male: bool,
    ):
        self.rng = rng
        self.user, self.num, self.style = user, num, style
        self.first, self.last, self.male = first, last, male
        self.id = f"patient:{num}"
        self.introduced = False
        self.rels: set[str] = set()
        self.takes: list[tuple[str, int]] = []  # (drug, day started)
        self.spare: list[str] = []
        self.labs: list[tuple[str, int]] = []  # (value, day)
        self.measure = ""

    def ref(self) -> str:
        """How the clinician refers to the patient; the first mention introduces name + number."""
        if self.style == "number":
            form = self.rng.choice(["MRN {n}", "pt {n}", "patient {n}", "Patient {n}", "MRN {n}"])
            return form.format(n=self.num)
        if not self.introduced:
            self.introduced = True
            return f"{self.first} {self.last} (MRN {self.num})"
        title = "Mr." if self.male else "Ms."
        return self.rng.choice(
            [
                f"{self.first} {self.last}",
                f"{title} {self.last}",
                f"{self.first} {self.last}",
                f"MRN {self.num}",
            ]
        )


def cycle(items):
    """Endless round-robin over ``items``."""
    while True:
        yield from items


class MemoryStream:
    """The memory replay: users say facts about patients, entities and projects over a simulated
    week (day 1 = DAY0) and ask about them (current value, history, null probes).

    Every random choice comes from one generator seeded SEED + 1, in a fixed order: the sections
    must run in the order of ``build``.
    """

    def __init__(self, memory_templates: dict):
        self.M = memory_templates
        self.rng = random.Random(SEED + 1)
        # entity pools (unambiguous names; common: drugs with indications, diseases,
        # druggable genes)
        self.drugs = sorted(
            c for c in set(OUT_E["CtD"]) | set(OUT_E["CpD"]) if good(c) and len(NAME[c]) <= 20
        )
        self.diseases = sorted(
            d for d, k in KIND.items() if k == "Disease" and good(d) and len(NAME[d]) <= 30
        )
        self.symptoms = sorted(
            s
            for s in set(IN_E["DpS"])
            if good(s) and len(NAME[s]) <= 22 and len(IN_E["DpS"][s]) >= 5
        )
        self.sidefx = sorted(
            s
            for s in set(IN_E["CcSE"])
            if good(s) and len(NAME[s]) <= 22 and len(IN_E["CcSE"][s]) >= 3
        )
        self.genes = sorted(g for g in set(IN_E["CbG"]) if good(g))
        self.used_nums: set[int] = set()
        self.last_pool = LAST[:]
        self.rng.shuffle(self.last_pool)
        self.events: list[dict] = []
        self.user_cycle = cycle(USERS)
        self.patients: dict[str, list[Patient]] = defaultdict(list)
        self.proj_pool: list[str] = []
        self.projects: list[dict] = []

    def build(self) -> tuple[list[dict], Counter[str]]:
        """All sections in order; returns the replay rows and the count of asks per probe kind."""
        self.takes()
        self.patient_relations()
        self.lab_values()
        self.research_notes()
        self.project_facts()
        self.cross_user_nulls()
        return self.replay()

    # --- helpers

    def result_value(self) -> str:
        t = self.rng.choice(RESULTS)
        if "HR" in t or "AUC" in t:
            return t.format(round(self.rng.uniform(0.4, 0.95), 2))
        if "fold" in t:
            return t.format(round(self.rng.uniform(1.5, 8.0), 1))
        return t.format(self.rng.randint(12, 88))

    def drug_text(self, c: str) -> str:
        nm = NAME[c]
        return nm.lower() if self.rng.random() < 0.5 else nm

    def new_patient(self, user: str) -> Patient:
        while True:
            n = self.rng.randint(1000, 9899)
            if n not in self.used_nums:
                self.used_nums.add(n)
                break
        style = self.rng.choice(["number", "number", "name"])
        male = self.rng.random() < 0.5
        first = self.rng.choice(FIRST_M if male else FIRST_F)
        last = self.last_pool.pop()
        return Patient(self.rng, user, n, style, first, last, male)

    def all_pts(self) -> list[Patient]:
        return [p for u in USERS for p in self.patients[u]]

    def new_project(self, u: str) -> dict:
        name = self.proj_pool.pop()
        pr = {"user": u, "name": name, "id": f"note:{slugify(name)}", "rels": {}}
        self.projects.append(pr)
        return pr

    def proj_text(self, pr: dict) -> str:
        nm = pr["name"]
        return nm if self.rng.random() < 0.7 else nm[4:]  # sometimes without the determiner

    def at(self, day: int) -> datetime:
        """A random office-hours instant of simulated ``day``."""
        return DAY0 + timedelta(
            days=day - 1,
            hours=self.rng.randint(8, 17),
            minutes=self.rng.randint(0, 59),
            seconds=self.rng.randint(0, 59),
        )

    def say(self, user, when, text, fact, supersedes=None) -> None:
        ev = {"at": when, "user": user, "type": "say", "text": text, "fact": list(fact)}
        if supersedes is not None:
            ev["supersedes"] = list(supersedes)
        self.events.append(ev)

    def ask(self, user, when, text, expect, temporal=None, probe=None) -> None:
        """An ask; ``probe`` defaults to null / the temporal reading / current."""
        ev = {"at": when, "user": user, "type": "ask", "text": text, "expect": expect}
        if temporal:
            ev["temporal"] = temporal
        ev["_probe"] = probe or ("null" if expect is None else (temporal or "current"))
        self.events.append(ev)

    # --- sections

    def takes(self) -> None:
        """Drugs patients take: starts, switches (some twice), probes."""
        takes_pts = []
        for tpl in self.M["takes"]["say_start"]:
            u = next(self.user_cycle)
            p = self.new_patient(u)
            self.patients[u].append(p)
            drugs = self.rng.sample(self.drugs, 3)
            p.takes = [(drugs[0], 1)]  # (drug, day started)
            p.rels.add("takes")
            self.say(
                u,
                self.at(1),
                fill(tpl, {"Patient": p.ref(), "Compound": self.drug_text(drugs[0])}),
                (p.id, "takes", drugs[0]),
            )
            p.spare = drugs[1:]
            takes_pts.append(p)
        switch_tpls = self.M["takes"]["say_switch"]
        for j, tpl in enumerate(switch_tpls):
            p = takes_pts[j % len(takes_pts)]
            if len(p.takes) >= 3:
                continue
            prev = p.takes[-1][0]
            new = p.spare.pop(0)
            day = 3 if len(p.takes) == 1 else 5
            if j % 2 == 1 and len(p.takes) == 1:
                day = 4
            p.takes.append((new, day))
            self.say(
                p.user,
                self.at(day),
                fill(
                    tpl,
                    {
                        "Patient": p.ref(),
                        "Compound": self.drug_text(prev),
                        "Compound2": self.drug_text(new),
                    },
                ),
                (p.id, "takes", new),
                (p.id, "takes", prev),
            )
        # second switches for a few patients, reusing switch templates (counts are per template;
        # extra facts ok)
        for k, p in enumerate(takes_pts):
            if len(p.takes) == 2 and k % 3 == 0:
                prev = p.takes[-1][0]
                new = p.spare.pop(0)
                p.takes.append((new, 5))
                tpl = switch_tpls[k % len(switch_tpls)]
                self.say(
                    p.user,
                    self.at(5),
                    fill(
                        tpl,
                        {
                            "Patient": p.ref(),
                            "Compound": self.drug_text(prev),
                            "Compound2": self.drug_text(new),
                        },
                    ),
                    (p.id, "takes", new),
                    (p.id, "takes", prev),
                )

        switched = [p for p in takes_pts if len(p.takes) >= 2]

        for k, tpl in enumerate(self.M["takes"]["ask_current"]):
            p = takes_pts[k % len(takes_pts)]
            if k % 5 == 4 and len(p.takes) >= 2:  # mid-stream probe on day 2 (before any switch)
                self.ask(p.user, self.at(2), fill(tpl, {"Patient": p.ref()}), p.takes[0][0])
            else:
                self.ask(
                    p.user,
                    self.at(self.rng.choice([6, 7])),
                    fill(tpl, {"Patient": p.ref()}),
                    p.takes[-1][0],
                )
        for k, tpl in enumerate(self.M["takes"]["ask_first"]):
            p = switched[k % len(switched)]
            self.ask(
                p.user,
                self.at(self.rng.choice([6, 7])),
                fill(tpl, {"Patient": p.ref()}),
                p.takes[0][0],
                "first",
            )
        for k, tpl in enumerate(self.M["takes"]["ask_previous"]):
            p = switched[(k + 3) % len(switched)]
            self.ask(
                p.user,
                self.at(self.rng.choice([6, 7])),
                fill(tpl, {"Patient": p.ref()}),
                p.takes[-2][0],
                "previous",
            )
        for k, tpl in enumerate(self.M["takes"]["ask_before"]):
            p = switched[(k + 5) % len(switched)]
            idx = self.rng.randint(1, len(p.takes) - 1)
            named = p.takes[idx][0]
            self.ask(
                p.user,
                self.at(self.rng.choice([6, 7])),
                fill(tpl, {"Patient": p.ref(), "Compound2": self.drug_text(named)}),
                p.takes[idx - 1][0],
                "before",
            )
        for k, tpl in enumerate(self.M["takes"]["ask_as_of"]):
            p = switched[(k + 7) % len(switched)]
            days = [2, 6] + ([4] if p.takes[1][1] == 3 else [])
            day = days[k % len(days)]
            self.ask(
                p.user,
                self.at(7),
                fill(tpl, {"Patient": p.ref(), "Date": date_word(day)}),
                value_on(p, day),
                "as_of",
            )

    def patient_relations(self) -> None:
        """Diagnoses, symptoms, allergies, side effects: one value each."""
        PAT_REL = {
            "diagnosed_with": ("Disease", self.diseases, lambda x: NAME[x]),
            "reports_symptom": ("Symptom", self.symptoms, lambda x: NAME[x].lower()),
            "allergic_to": ("Compound", self.drugs, self.drug_text),
            "had_side_effect": ("SideEffect", self.sidefx, lambda x: NAME[x].lower()),
        }
        for rel, (ph, pool, txt) in PAT_REL.items():
            holders = []
            for k, tpl in enumerate(self.M[rel]["say"]):
                # half on existing patients (mixing relations), half on new ones
                existing = [p for p in self.all_pts() if rel not in p.rels]
                if k % 2 == 0 and existing:
                    p = self.rng.choice(existing)
                else:
                    u = next(self.user_cycle)
                    p = self.new_patient(u)
                    self.patients[u].append(p)
                val = self.rng.choice(pool)
                p.rels.add(rel)
                setattr(p, rel, val)
                holders.append(p)
                self.say(
                    p.user,
                    self.at(self.rng.choice([1, 2, 3, 4])),
                    fill(tpl, {"Patient": p.ref(), ph: txt(val)}),
                    (p.id, rel, val),
                )
            for k, tpl in enumerate(self.M[rel]["ask_current"]):
                if k % 4 == 3:
                    # null probe: same user, a patient with other facts but not this relation
                    p0 = holders[k % len(holders)]
                    others = [p for p in self.patients[p0.user] if rel not in p.rels]
                    if others:
                        p = self.rng.choice(others)
                        self.ask(
                            p.user,
                            self.at(self.rng.choice([6, 7])),
                            fill(tpl, {"Patient": p.ref()}),
                            None,
                            probe="null-norel",
                        )
                        continue
                p = holders[k % len(holders)]
                self.ask(
                    p.user,
                    self.at(self.rng.choice([6, 7])),
                    fill(tpl, {"Patient": p.ref()}),
                    getattr(p, rel),
                )

    def lab_values(self) -> None:
        """Lab values, some updated later; current and previous probes."""
        lab_holders = []
        for k, tpl in enumerate(self.M["lab_value"]["say"]):
            existing = [p for p in self.all_pts() if "lab_value" not in p.rels]
            if k % 2 == 0 and existing:
                p = self.rng.choice(existing)
            else:
                u = next(self.user_cycle)
                p = self.new_patient(u)
                self.patients[u].append(p)
            meas = MEASURES[k % len(MEASURES)]
            v1 = measure_value(self.rng, meas)
            p.rels.add("lab_value")
            p.labs = [(v1, 2)]
            p.measure = meas[0]
            lab_holders.append(p)
            self.say(
                p.user,
                self.at(2),
                fill(tpl, {"Patient": p.ref(), "Value": v1}),
                (p.id, "lab_value", v1),
            )
        for k, tpl in enumerate(self.M["lab_value"]["say_update"]):
            p = lab_holders[k % len(lab_holders)]
            meas = next(m for m in MEASURES if m[0] == p.measure)
            while True:
                v2 = measure_value(self.rng, meas)
                if v2 != p.labs[-1][0]:
                    break
            prev = p.labs[-1][0]
            p.labs.append((v2, 4 + (k % 2)))
            self.say(
                p.user,
                self.at(4 + (k % 2)),
                fill(tpl, {"Patient": p.ref(), "Value2": v2}),
                (p.id, "lab_value", v2),
                (p.id, "lab_value", prev),
            )
        for k, tpl in enumerate(self.M["lab_value"]["ask_current"]):
            if k % 4 == 3:
                p0 = lab_holders[k % len(lab_holders)]
                others = [p for p in self.patients[p0.user] if "lab_value" not in p.rels]
                if others:
                    p = self.rng.choice(others)
                    self.ask(
                        p.user,
                        self.at(self.rng.choice([6, 7])),
                        fill(tpl, {"Patient": p.ref(), "Measure": p0.measure}),
                        None,
                        probe="null-norel",
                    )
                    continue
            p = lab_holders[k % len(lab_holders)]
            self.ask(
                p.user,
                self.at(self.rng.choice([6, 7])),
                fill(tpl, {"Patient": p.ref(), "Measure": p.measure}),
                p.labs[-1][0],
            )
        for k, tpl in enumerate(self.M["lab_value"]["ask_previous"]):
            upd = [q for q in lab_holders if len(q.labs) >= 2]
            p = upd[k % len(upd)]
            self.ask(
                p.user,
                self.at(self.rng.choice([6, 7])),
                fill(tpl, {"Patient": p.ref(), "Measure": p.measure}),
                p.labs[-2][0],
                "previous",
            )

    def research_notes(self) -> None:
        """Research notes about KG entities (subject = the entity)."""
        NOTE_REL = {
            "inhibits": ("Compound", self.drugs, "Gene", self.genes),
            "upregulates": ("Compound", self.drugs, "Gene", self.genes),
            "biomarker_for": ("Gene", self.genes, "Disease", self.diseases),
            "candidate_for": ("Compound", self.drugs, "Disease", self.diseases),
        }
        # user -> subject -> relation -> object
        note_subjects: dict[str, dict[str, dict[str, str]]] = defaultdict(lambda: defaultdict(dict))
        used_subj: set[str] = set()
        for rel, (sph, spool, oph, opool) in NOTE_REL.items():
            holders = []
            for k, tpl in enumerate(self.M[rel]["say"]):
                u = next(self.user_cycle)
                # some subjects reuse a subject the user already noted for another relation
                # (for null probes)
                mine = [
                    s
                    for s in note_subjects[u]
                    if rel not in note_subjects[u][s] and KIND[s] == PLACEHOLDER_KIND[sph]
                ]
                if k % 3 == 0 and mine:
                    s = self.rng.choice(sorted(mine))
                else:
                    s = self.rng.choice([x for x in spool if x not in used_subj])
                used_subj.add(s)
                o = self.rng.choice(opool)
                note_subjects[u][s][rel] = o
                holders.append((u, s))
                stxt = self.drug_text(s) if sph == "Compound" else NAME[s]
                otxt = self.drug_text(o) if oph == "Compound" else NAME[o]
                self.say(
                    u,
                    self.at(self.rng.choice([1, 2, 3, 4, 5])),
                    fill(tpl, {sph: stxt, oph: otxt}),
                    (s, rel, o),
                )
            for k, tpl in enumerate(self.M[rel]["ask_current"]):
                if k % 4 == 3:
                    u0, _ = holders[k % len(holders)]
                    others = sorted(
                        s
                        for s in note_subjects[u0]
                        if rel not in note_subjects[u0][s] and KIND[s] == PLACEHOLDER_KIND[sph]
                    )
                    if others:
                        s = self.rng.choice(others)
                        stxt = self.drug_text(s) if sph == "Compound" else NAME[s]
                        self.ask(
                            u0,
                            self.at(self.rng.choice([6, 7])),
                            fill(tpl, {sph: stxt}),
                            None,
                            probe="null-norel",
                        )
                        continue
                u, s = holders[k % len(holders)]
                stxt = self.drug_text(s) if sph == "Compound" else NAME[s]
                self.ask(
                    u,
                    self.at(self.rng.choice([6, 7])),
                    fill(tpl, {sph: stxt}),
                    note_subjects[u][s][rel],
                )

    def project_facts(self) -> None:
        """Projects: lead compound (some switched), key result, target gene."""
        self.proj_pool = PROJECTS[:]
        self.rng.shuffle(self.proj_pool)
        lead_projects = []
        for tpl in self.M["lead_compound"]["say"]:
            pr = self.new_project(next(self.user_cycle))
            c = self.rng.choice(self.drugs)
            pr["rels"]["lead_compound"] = [c]
            lead_projects.append(pr)
            self.say(
                pr["user"],
                self.at(self.rng.choice([1, 2])),
                fill(tpl, {"Project": self.proj_text(pr), "Compound": self.drug_text(c)}),
                (pr["id"], "lead_compound", c),
            )
        for k, tpl in enumerate(self.M["lead_compound"]["say_switch"]):
            pr = lead_projects[k % len(lead_projects)]
            prev = pr["rels"]["lead_compound"][-1]
            new = self.rng.choice([d for d in self.drugs if d not in pr["rels"]["lead_compound"]])
            pr["rels"]["lead_compound"].append(new)
            self.say(
                pr["user"],
                self.at(self.rng.choice([3, 4, 5])),
                fill(
                    tpl,
                    {
                        "Project": self.proj_text(pr),
                        "Compound": self.drug_text(prev),
                        "Compound2": self.drug_text(new),
                    },
                ),
                (pr["id"], "lead_compound", new),
                (pr["id"], "lead_compound", prev),
            )
        for rel, ph, _mk in (("key_result", "Value", None), ("target_gene", "Gene", None)):
            for k, tpl in enumerate(self.M[rel]["say"]):
                # half on lead self.projects (mixing relations), half on new self.projects
                cand = [p for p in self.projects if rel not in p["rels"]]
                pr = (
                    self.rng.choice(cand)
                    if (k % 2 == 0 and cand)
                    else self.new_project(next(self.user_cycle))
                )
                val = self.result_value() if rel == "key_result" else self.rng.choice(self.genes)
                pr["rels"][rel] = [val]
                self.say(
                    pr["user"],
                    self.at(self.rng.choice([2, 3, 4, 5])),
                    fill(
                        tpl,
                        {
                            "Project": self.proj_text(pr),
                            ph: val if rel == "key_result" else NAME[val],
                        },
                    ),
                    (pr["id"], rel, val),
                )
        for rel in ("lead_compound", "key_result", "target_gene"):
            holders = [p for p in self.projects if rel in p["rels"]]
            for k, tpl in enumerate(self.M[rel]["ask_current"]):
                if k % 4 == 3:
                    u0 = holders[k % len(holders)]["user"]
                    others = [p for p in self.projects if p["user"] == u0 and rel not in p["rels"]]
                    if others:
                        pr = self.rng.choice(others)
                        self.ask(
                            u0,
                            self.at(self.rng.choice([6, 7])),
                            fill(tpl, {"Project": self.proj_text(pr)}),
                            None,
                            probe="null-norel",
                        )
                        continue
                pr = holders[k % len(holders)]
                self.ask(
                    pr["user"],
                    self.at(self.rng.choice([6, 7])),
                    fill(tpl, {"Project": self.proj_text(pr)}),
                    pr["rels"][rel][-1],
                )
        for k, tpl in enumerate(self.M["lead_compound"]["ask_previous"]):
            sw = [p for p in lead_projects if len(p["rels"]["lead_compound"]) >= 2]
            pr = sw[k % len(sw)]
            self.ask(
                pr["user"],
                self.at(self.rng.choice([6, 7])),
                fill(tpl, {"Project": self.proj_text(pr)}),
                pr["rels"]["lead_compound"][-2],
                "previous",
            )

    def cross_user_nulls(self) -> None:
        """Another user asks the first user's question about the same subject."""
        owned = [e for e in self.events if e["type"] == "ask" and e["expect"] is not None]
        self.rng.shuffle(owned)
        for e in owned[: max(40, len(owned) // 4)]:
            other = self.rng.choice([u for u in USERS if u != e["user"]])
            self.ask(other, self.at(7), e["text"], None, probe="null-cross")

    def replay(self) -> tuple[list[dict], Counter[str]]:
        """Events in time order (strictly increasing instants), grouped into sessions."""
        for e in self.events:
            e["_t"] = e["at"]
        self.events.sort(key=lambda e: (e["_t"], e["user"], e["type"] == "ask"))
        # strictly increasing instants
        last = None
        for e in self.events:
            if last is not None and e["_t"] <= last:
                e["_t"] = last + timedelta(seconds=7)
            last = e["_t"]
        sess_no: dict[str, int] = defaultdict(int)
        sess_key: dict[str, tuple] = {}
        replay = []
        probe_kinds: Counter[str] = Counter()
        for e in self.events:
            u = e["user"]
            key = (e["_t"].date(), e["_t"].hour // 4)
            if sess_key.get(u) != key:
                sess_no[u] += 1
                sess_key[u] = key
            out = {
                "at": e["_t"].strftime("%Y-%m-%dT%H:%M:%SZ"),
                "user": u,
                "session": f"{u}-s{sess_no[u]}",
                "type": e["type"],
                "text": e["text"],
            }
            if e["type"] == "say":
                out["fact"] = e["fact"]
                if "supersedes" in e:
                    out["supersedes"] = e["supersedes"]
            else:
                out["expect"] = e["expect"]
                if e.get("temporal"):
                    out["temporal"] = e["temporal"]
                out["probe"] = e["_probe"]
                probe_kinds[e["_probe"]] += 1
            replay.append(out)
        return replay, probe_kinds


# ------------------------------------------------------------------ main


def write(out: Path, name: str, rows: list[dict]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with (out / name).open("w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"{name}: {len(rows)}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help=f"output directory (default: {DEFAULT_OUT})",
    )
    ap.add_argument(
        "--templates",
        type=Path,
        default=HERE / "templates.yaml",
        help="wording templates (default: templates.yaml beside this script)",
    )
    args = ap.parse_args(argv)
    kg = store_path()
    with duckdb.connect(str(kg), read_only=True) as con:
        load_store(con)
        metapaths = load_metapaths(con)
    T = yaml.safe_load(args.templates.read_text(encoding="utf-8"))

    # one generator for the question files, drawn from in this order; the replay has its own
    rng = random.Random(SEED)
    write(args.out, "paraphrase_onehop.jsonl", gen_onehop(T, rng))
    write(args.out, "paraphrase_multihop.jsonl", gen_multihop(T, rng))
    mech = gen_mechanism(T, rng)
    write(args.out, "paraphrase_mechanism.jsonl", mech)
    write(args.out, "paraphrase_mechanism.rephetio_gold.jsonl", rephetio_gold(mech, metapaths))
    write(args.out, "paraphrase_claims.jsonl", gen_claims(T, rng))
    write(args.out, "paraphrase_overview.jsonl", gen_overview(T, rng))
    write(args.out, "paraphrase_literature.jsonl", gen_literature(T))

    replay, probe_kinds = MemoryStream(T["memory"]).build()
    write(args.out, "paraphrase_memory.replay.jsonl", replay)
    print("  memory events:", Counter(r["type"] for r in replay), dict(probe_kinds))


if __name__ == "__main__":
    main()
