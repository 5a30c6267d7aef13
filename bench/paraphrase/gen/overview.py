"""Entity overview questions (gold: the entity's neighbours) and literature questions (verbatim)."""

from __future__ import annotations

import random

from .kg import IN_E, KIND, NAME, OUT_E, good
from .slots import PLACEHOLDER_KIND, fill, placeholders, record


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
