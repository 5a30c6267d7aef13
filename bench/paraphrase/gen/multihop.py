"""Multi-hop questions: two-hop chains from a start entity (``MULTI``); answers are path ends."""

from __future__ import annotations

import random

from .kg import IN_E, KIND, NAME, OUT_E, good, undirected_neighbours
from .slots import KIND_PLACEHOLDER, PATH_CAP, fill, placeholders, record

MULTI_MAX_PATHS = 100

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
