"""Therapy questions: what a disease is given for is what treats it and what palliates it.

"Drugs for X", "what can I give for X", "how is X managed" ask for a therapy, and the graph
splits therapies in two relations: ``CtD`` (the drug modifies the disease) and ``CpD`` (it
relieves the symptoms). Antipsychotics palliate schizophrenia; a question asking what treats
it wants them too. A question read as treats is therefore walked along both, treats first,
and answered in two labelled groups. A question that asks for relief by its own words is read
as palliates already, and keeps to it; one whose words speak for treats alone
("disease-modifying drugs for X", "approved drugs for X") keeps to treats.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from engine.graph.metapaths import Metapath
from engine.result import Answer, Triple
from engine.understand.lexicon import STRONG, Cue

TREATS = "CtD"
PALLIATES = "CpD"
TREAT_VERB = re.compile(r"\btreat\w*", re.IGNORECASE)
"""The verb any therapy question may use: it says nothing of which of the two is meant."""
TREATS_SHARE = 0.6
"""Of the probability the plan gives the treats reading, the share treats keeps (palliates
gets the rest): both are walked, treats' paths stay the more confident, and the two shares are
close enough that neither falls below the review floor."""


def therapy_dist(
    dist: Sequence[tuple[Metapath, float]], one_hops: Iterable[Metapath]
) -> list[tuple[Metapath, float]] | None:
    """The distribution that walks treats and palliates when the most probable reading is
    treats in one hop (either way: drugs for a disease, diseases for a drug); None otherwise.
    ``one_hops`` are the single-relation metapaths from the seed's kind."""
    if not dist:
        return None
    top, p = dist[0]
    if len(top) != 1 or top.uses[0].rel != TREATS:
        return None
    inverse = top.uses[0].inverse
    twin = next(
        (m for m in one_hops if m.uses[0].rel == PALLIATES and m.uses[0].inverse == inverse),
        None,
    )
    if twin is None:
        return None
    rest = [(m, q) for m, q in dist[1:] if m.uses != twin.uses]
    return [(top, p * TREATS_SHARE), (twin, p * (1.0 - TREATS_SHARE)), *rest]


def asks_therapy(cues: Iterable[Cue]) -> bool:
    """The question names a therapy in strong words ("treat", "therapy", "prescribe")."""
    return any(c.rels == (TREATS,) and c.weight >= STRONG for c in cues)


def asks_remedy(cues: Iterable[Cue], asked_kind: str | None = None) -> bool:
    """The question asks for a remedy: a therapy named in strong words, or in weak ones
    ("what's used for", "how is it managed", "what helps") that name no other relation in a
    question that asks for no other kind of thing than drugs ("what genes help the body
    carry out X" asks for genes)."""
    cues = list(cues)
    return asks_therapy(cues) or (
        asked_kind in (None, "Compound") and bool(cues) and all(c.rels == (TREATS,) for c in cues)
    )


def explains_therapy(dist: Sequence[tuple[Metapath, float]]) -> bool:
    """The most probable reading walks treats or palliates somewhere along its way."""
    return bool(dist) and any(u.rel in (TREATS, PALLIATES) for u in dist[0][0].uses)


def no_therapy_reason(name: str, kind: str) -> str:
    """Why a therapy asked of a node that is no disease or drug has no answer."""
    return (
        f"the graph records treatments of diseases only, and {name} is in it as "
        f"{'an' if kind[:1].lower() in 'aeiou' else 'a'} {kind.lower()}"
    )


@dataclass(frozen=True)
class TherapyGroups:
    """A therapy answer's drugs (or diseases) by the relation that links them to the seed."""

    treats: list[Answer]
    palliates: list[Answer]


def grouped(answers: Sequence[Answer], treated: Collection[str]) -> TherapyGroups:
    """The answers in two groups, each in the order given: those linked to the seed by treats
    (``treated``), then those that only palliate."""
    return TherapyGroups(
        [a for a in answers if a.id in treated], [a for a in answers if a.id not in treated]
    )


def in_groups(
    answers: Sequence[Answer],
    paths: Sequence[Sequence[Triple]],
    treated: Collection[str],
) -> tuple[TherapyGroups, list[list[Triple]]]:
    """The answers grouped (``grouped``) and the one-hop paths in the groups' order."""
    groups = grouped(answers, treated)
    order = {a.id: i for i, a in enumerate((*groups.treats, *groups.palliates))}

    def rank(path: Sequence[Triple]) -> int:
        head, _, tail = path[0]
        return min(order.get(head, len(order)), order.get(tail, len(order)))

    return groups, sorted((list(p) for p in paths), key=rank)
