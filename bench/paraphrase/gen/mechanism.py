"""Mechanism questions (a compound and a disease it treats) and their Rephetio second gold."""

from __future__ import annotations

import random
import re

from .kg import (
    EDGES,
    NAME,
    OUT_E,
    UNDIRECTED,
    Metapath,
    good,
    neighbours,
    undirected_neighbours,
)
from .slots import PATH_CAP, fill, placeholders, record

MECH_MAX_PATHS = 150


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


# a second, diagnostic gold for the mechanism questions (Rephetio metapaths)


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
