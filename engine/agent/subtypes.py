"""Answers for a disease's subtypes: "drugs for diabetes" wants metformin, which the graph records
for type 2 diabetes mellitus, a subtype (``DsD``, from the disease pack) of the diabetes
mellitus asked about; "colorectal cancer genes" are those of colon and rectum cancer.

A therapy answer for a disease that has fewer than ``SUBTYPE_FILL`` drugs of its own goes on
with the drugs of its ``SUBTYPES`` subtypes that have the most, each labelled with the subtype
and after the disease's own drugs. A disease with no answer of its own to a one-hop question
(its drugs, genes, symptoms) is answered by its subtypes' alone. Their paths end with the ``is
a subtype of`` hop, so each answer is still a path to the disease asked about.
"""

from __future__ import annotations

from engine.graph.relations import DirectedRel
from engine.graph.store import KGStore
from engine.result import Answer, Evidence, Result, Status, Triple

THERAPY_RELS = frozenset({"CtD", "CpD"})
SUBTYPE_REL = "DsD"
SUBTYPE_FILL = 10
"""A disease with this many drugs of its own is answered by them alone."""
SUBTYPES = 2
"""Subtypes whose drugs are added, those with the most first."""
SUBTYPE_SHARE = 0.5
"""A subtype's drug scores at most this share of the disease's own weakest drug."""
LISTED = 6
"""Drugs named per subtype in the answer's text."""


def therapy_of(result: Result, disease: str) -> bool:
    """The result answers what treats or palliates ``disease``: one-hop paths, each a drug's
    treats or palliates edge to it."""
    return (
        result.status is Status.ANSWERED
        and bool(result.paths)
        and all(
            len(p) == 1 and p[0][1] in THERAPY_RELS and p[0][2] == disease for p in result.paths
        )
    )


def one_hop_of(result: Result, disease: str) -> bool:
    """The result answers a one-hop question about ``disease``: each path one edge of it."""
    return (
        result.status is Status.ANSWERED
        and bool(result.paths)
        and all(len(p) == 1 and disease in (p[0][0], p[0][2]) for p in result.paths)
    )


def subtypes_held(store: KGStore, disease: str, most: int = SUBTYPES) -> list[str]:
    """The disease's direct subtypes the graph holds facts about beyond the ontology's own
    edges, those with the most first (then by name), at most ``most``."""
    i = store.index.get(disease)
    if i is None:
        return []
    down = DirectedRel(SUBTYPE_REL, True, "Disease", "Disease")
    kids = {store.ids[j] for j in store.neighbors(i, down).tolist()}
    counted = [(_edges(store, store.index[k]), store.name(k), k) for k in kids]
    return [k for n, _, k in sorted(counted, key=lambda c: (-c[0], c[1])) if n > 0][:most]


def subtypes_treated(store: KGStore, disease: str) -> list[str]:
    """The disease's direct subtypes with drugs of their own, those with the most first (then
    by name), at most ``SUBTYPES``."""
    i = store.index.get(disease)
    if i is None:
        return []
    down = DirectedRel(SUBTYPE_REL, True, "Disease", "Disease")
    treated = [u for u in store.uses() if u.rel in THERAPY_RELS and u.inverse]
    kids = {store.ids[j] for j in store.neighbors(i, down).tolist()}
    counted = [
        (sum(store.degree(store.index[k], u) for u in treated), store.name(k), k) for k in kids
    ]
    return [k for n, _, k in sorted(counted, key=lambda c: (-c[0], c[1])) if n > 0][:SUBTYPES]


def add_subtype(result: Result, child: Result, disease: str, child_id: str, name: str) -> int:
    """``child``'s answers (a one-hop answer for the subtype ``child_id``) added to ``result``
    after its own, with their paths extended by the subtype hop and a line of text; returns
    how many were new."""
    have = {a.id for a in result.answers}
    floor = min((a.score for a in result.answers), default=1.0) * SUBTYPE_SHARE
    top = max((a.score for a in child.answers), default=1.0) or 1.0
    new = [a for a in child.answers if a.id not in have]
    hop = (child_id, SUBTYPE_REL, disease)
    result.answers += [
        Answer(
            id=a.id,
            name=a.name,
            score=round(floor * a.score / top, 6),
            kind=a.kind,
            source=a.source,
            why=f"for its subtype {name}" + (f"; {a.why}" if a.why else ""),
        )
        for a in new
    ]
    ids = {a.id for a in new}
    # a drug's path ends at the subtype (drug -> subtype -> disease); a gene's or symptom's
    # starts there (disease <- subtype -> gene)
    result.paths += [
        [*p, hop] if p[0][2] == child_id else [hop, *p]
        for p in child.paths
        if p and (p[0][0] in ids or p[0][2] in ids)
    ]
    result.evidence.append(Evidence(kind="triple", triple=hop, score=1.0))
    result.evidence += [e for e in child.evidence if e.kind == "triple"]
    if new:
        names = ", ".join(a.name for a in new[:LISTED])
        more = f" and {len(new) - LISTED} more" if len(new) > LISTED else ""
        result.text += f"\n\nFor its subtype **{name}**: {names}{more}."
    return len(new)


ANCESTRY = 4
"""How many ``is a subtype of`` steps a claim that one disease is a kind of another may take
(melanoma → skin cancer → ... → cancer)."""
SUBTYPE_DEPTH = 2
"""How far below a disease a claim about it looks for a subtype with the edge ("metformin treats
diabetes": it treats type 2 diabetes mellitus)."""


def is_a_chain(store: KGStore, child: str, ancestor: str, depth: int = ANCESTRY) -> list[Triple]:
    """The ``is a subtype of`` edges leading up from ``child`` to ``ancestor`` (the shortest
    such chain, at most ``depth`` steps); empty when it is none of its kinds."""
    i, goal = store.index.get(child), store.index.get(ancestor)
    if i is None or goal is None or i == goal:
        return []
    up = DirectedRel(SUBTYPE_REL, False, "Disease", "Disease")
    came: dict[int, int] = {i: i}
    frontier = [i]
    for _ in range(depth):
        nxt: list[int] = []
        for node in frontier:
            for j in store.neighbors(node, up).tolist():
                if j in came:
                    continue
                came[j] = node
                if j == goal:
                    chain: list[Triple] = []
                    while j != i:
                        chain.append(store.triple(came[j], up, j))
                        j = came[j]
                    return chain[::-1]
                nxt.append(j)
        frontier = nxt
    return []


def through_subtype(
    store: KGStore, subject: str, uses: list[DirectedRel], disease: str
) -> list[Triple]:
    """A path showing ``subject`` linked by one of ``uses`` to a subtype of ``disease`` (at most
    ``SUBTYPE_DEPTH`` steps below it), then up to it: the first use that has one, the subtype
    nearest the disease first, then the one with the most edges. Empty when there is none."""
    i, d = store.index.get(subject), store.index.get(disease)
    if i is None or d is None:
        return []
    down = DirectedRel(SUBTYPE_REL, True, "Disease", "Disease")
    levels: list[list[int]] = []
    seen = {d}
    frontier = [d]
    for _ in range(SUBTYPE_DEPTH):
        frontier = [
            j for node in frontier for j in store.neighbors(node, down).tolist() if j not in seen
        ]
        seen.update(frontier)
        levels.append(sorted(set(frontier), key=lambda j: (-_edges(store, j), store.ids[j])))
    for use in uses:
        for level in levels:
            for k in level:
                if store.has_edge(i, use, k):
                    return [store.triple(i, use, k), *is_a_chain(store, store.ids[k], disease)]
    return []


def _edges(store: KGStore, i: int) -> int:
    """How many edges disease ``i`` has besides the ontology's own."""
    return sum(
        store.degree(i, u) for u in store.uses() if u.src == "Disease" and u.rel != SUBTYPE_REL
    )
