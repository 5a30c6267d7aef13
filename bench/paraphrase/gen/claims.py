"""Claim questions: half true edges of the store, half random absent pairs (negative)."""

from __future__ import annotations

import random

from .kg import EDGES, NAME, good
from .slots import KIND_PLACEHOLDER, fill, placeholders, record

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
