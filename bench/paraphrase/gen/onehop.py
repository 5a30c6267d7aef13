"""One-hop questions: one per template of each relation/direction slot.

A slot (e.g. ``treats.drug->disease``) names the relation and the given end; the entity has
1..MAX_ONEHOP edges of that relation, and the gold is all of them.
"""

from __future__ import annotations

import random

from .kg import IN_E, NAME, OUT_E, UNDIRECTED, good, neighbours
from .slots import KIND_PLACEHOLDER, fill, placeholders, record

MAX_ONEHOP = 40


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
