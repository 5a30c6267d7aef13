"""Reading the evidence signals of one-hop answers off the store (the pure scoring is in
``engine/ranking/evidence.py``).

For an answer ``a`` reached from the seed ``s`` along one relation use, the signals are who
states the edge (the store's provenance: sources, their scores, DrugCentral's action type), how
specific ``a`` is for the relation (its degree against the relation's population), and the
structural links below: a second route through the graph that says the same thing.

| use (seed -> answer) | a link is |
| --- | --- |
| CbG (drug -> gene)   | a disease the drug treats or palliates that the gene is associated with |
| CbG^-1 (gene -> drug)| the same, seen from the gene |
| CtD, CpD (drug -> disease) | a gene the drug binds that the disease is associated with |
| CtD^-1, CpD^-1 (disease -> drug) | the same, seen from the disease |
| DaG (disease -> gene) | a drug treating the disease that binds the gene |
| DaG^-1 (gene -> disease) | the same, seen from the gene |

A disease's subtypes (``DsD``, from the disease pack) corroborate an edge of the disease when
the edge's other end has the same relation to them: a drug DrugCentral files under "extrinsic
asthma" and "intrinsic asthma" is an asthma drug before one filed under asthma alone.

The seed's peers are the drugs sharing a pharmacologic class with a drug seed (PCiC) and the
diseases resembling a disease seed (DrD); a peer shares an answer when the same relation links
it to the answer too.

Hetionet records no action types, so for drug targets the first link is the structural stand-in
for one: the target the drug exists for is the one tied to what it treats.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from engine.graph.actions import ACTION_SOURCE, TYPED_REL
from engine.graph.provenance import EdgeSource
from engine.graph.relations import DirectedRel, use_of
from engine.graph.store import KGStore
from engine.graph.walk import WalkPath, reverse
from engine.ranking.evidence import (
    COMMON_FIRST,
    COMMONEST_FIRST,
    LINK_SATURATION,
    MIN_CLASS,
    Signals,
    evidence_score,
    is_pharmacological,
)
from engine.util.text import alias_key
from engine.util.wordforms import stem

TREATS = ("CtD", "CpD")
"""The drug-disease relations that say a drug is used for a disease."""

Reach = Callable[[KGStore, int], set[int]]

MODULE_SATURATION = 32
"""Links at full weight for a disease-gene module link: a gene interacting with dozens of the
disease's other genes sits at the centre of its module (a drug's few treated diseases saturate
at ``LINK_SATURATION``)."""
SATURATION = {"DaG": MODULE_SATURATION, "DaG^-1": MODULE_SATURATION}


def _along(store: KGStore, i: int, *keys: str) -> set[int]:
    out: set[int] = set()
    for k in keys:
        out.update(store.neighbors(i, use_of(k)).tolist())
    return out


LINKS: dict[str, tuple[str, Reach, Reach]] = {
    # use: (what a link is, nodes the seed offers, nodes the answer offers); a link is a node
    # in both.
    "CbG": (
        "treated diseases it is associated with",
        lambda st, s: _along(st, s, *TREATS),
        lambda st, a: _along(st, a, "DaG^-1"),
    ),
    "CbG^-1": (
        "associated diseases the drug treats",
        lambda st, s: _along(st, s, "DaG^-1"),
        lambda st, a: _along(st, a, *TREATS),
    ),
    "CtD": (
        "drug targets associated with it",
        lambda st, s: _along(st, s, "CbG"),
        lambda st, a: _along(st, a, "DaG"),
    ),
    "CtD^-1": (
        "targets associated with the disease",
        lambda st, s: _along(st, s, "DaG"),
        lambda st, a: _along(st, a, "CbG"),
    ),
    "DaG": (
        "interacting genes associated too",
        lambda st, s: _along(st, s, "DaG"),
        lambda st, a: _along(st, a, "GiG"),
    ),
    "DaG^-1": (
        "interacting genes associated with it",
        lambda st, s: _along(st, s, "GiG"),
        lambda st, a: _along(st, a, "DaG"),
    ),
}
LINKS["CpD"] = LINKS["CtD"]
LINKS["CpD^-1"] = LINKS["CtD^-1"]


SUBTYPE_DEPTH = 2
"""Levels of subtypes below the disease counted (its children and theirs)."""
KIN_RELS: dict[str, tuple[bool, tuple[str, ...]]] = {
    # use: (whether the disease is the seed, how the other end reaches diseases along the
    # same relation)
    "CtD^-1": (True, TREATS),
    "CpD^-1": (True, TREATS),
    "DaG": (True, ("DaG^-1",)),
}
"""The uses whose disease end is corroborated by its subtypes: those from a disease seed only.
Seen from a drug or a gene, the same count would put the broad terms above the diseases they
are filed under ("lung disease" before asthma for salbutamol)."""
DOWN = DirectedRel("DsD", True, "Disease", "Disease")


def subtypes_of(store: KGStore, disease: int) -> set[int]:
    """The disease's subtypes down to ``SUBTYPE_DEPTH`` levels (none without ``DsD`` edges)."""
    found: set[int] = set()
    front = {disease}
    for _ in range(SUBTYPE_DEPTH):
        front = {int(j) for i in front for j in store.neighbors(i, DOWN).tolist()} - found
        found |= front
    found.discard(disease)
    return found


def subtype_count(
    store: KGStore, seed: int, use: DirectedRel, answer: int, seed_subtypes: set[int] | None
) -> int:
    """How many subtypes of the edge's disease the relation also links its other end to."""
    kin = KIN_RELS.get(_plain(use))
    if kin is None:
        return 0
    disease_is_seed, rels = kin
    disease, other = (seed, answer) if disease_is_seed else (answer, seed)
    subs = (
        seed_subtypes
        if disease_is_seed and seed_subtypes is not None
        else subtypes_of(store, disease)
    )
    if not subs:
        return 0
    return len(subs & _along(store, other, *rels))


PEERS: dict[str, tuple[str, ...]] = {
    "Compound": ("PCiC^-1", "PCiC"),
    "Disease": ("DrD",),
}
"""How to reach a seed's peers: the uses to a shared node and back (or one use)."""


def peers_of(store: KGStore, seed: int) -> set[int]:
    """Drugs sharing a pharmacologic class with a drug, diseases resembling a disease."""
    steps = PEERS.get(store.kinds[seed])
    if not steps:
        return set()
    front = {seed}
    for k in steps:
        front = set().union(*(_along(store, i, k) for i in front)) if front else set()
    front.discard(seed)
    return front


CLASS_SHARED = frozenset({"CtD^-1", "CpD^-1"})
"""Uses (disease -> drug) whose answers' class-mates are counted (``class_share``)."""


def class_share(store: KGStore, drug: int, used: set[int]) -> float:
    """The largest share of the other members of one of ``drug``'s pharmacologic classes that
    are in ``used`` (the drugs used for the seed disease), over classes of ``MIN_CLASS`` or
    more other members; 0 when it has none."""
    best = 0.0
    for pc in _along(store, drug, "PCiC^-1"):
        mates = _along(store, pc, "PCiC") - {drug}
        if len(mates) >= MIN_CLASS:
            best = max(best, len(mates & used) / len(mates))
    return best


def _action(sources: Iterable[EdgeSource], rel: str) -> str | None:
    """The first pharmacological action type the action source records on the edge."""
    if rel != TYPED_REL:
        return None
    return edge_action(sources)


def edge_action(sources: Iterable[EdgeSource]) -> str | None:
    """The first pharmacological action type the action source records among a drug-target
    edge's ``sources``, else its first action type; None when it records none."""
    found: list[str] = []
    for e in sources:
        if e.source == ACTION_SOURCE and e.detail:
            found += e.detail.split(", ")
    return next((a for a in found if is_pharmacological(a)), found[0] if found else None)


def _plain(use: DirectedRel) -> str:
    """The use's key without an action type (``CbG[inhibitor]`` -> ``CbG``)."""
    return use.key.replace(f"[{use.detail}]", "") if use.detail else use.key


def edge_signals(
    store: KGStore,
    seed: int,
    use: DirectedRel,
    answer: int,
    seed_side: set[int] | None = None,
    peers: set[int] | None = None,
    seed_subtypes: set[int] | None = None,
    mention: float = 0.0,
) -> Signals:
    """The signals of one edge ``seed -use-> answer``; ``seed_side`` (the seed's part of the
    links), ``peers`` and ``seed_subtypes`` when already computed; ``mention``: the best score
    of a retrieved passage naming the answer."""
    triple = store.triple(seed, use, answer)
    stated = store.edge_sources([triple]).get(triple, [])
    scores = [e.score for e in stated if e.score is not None]
    link = LINKS.get(_plain(use))
    links = 0
    if link is not None:
        mine = link[1](store, seed) if seed_side is None else seed_side
        links = len(mine & link[2](store, answer))
    kin = peers_of(store, seed) if peers is None else peers
    sharing = len(kin & set(store.neighbors(answer, reverse(use)).tolist())) if kin else 0
    return Signals(
        sources=tuple(dict.fromkeys(e.source for e in stated)),
        source_score=max(scores) if scores else None,
        action=_action(stated, use.rel),
        links=links,
        link_kind=link[0] if link else "",
        saturation=SATURATION.get(_plain(use), LINK_SATURATION),
        peers=len(kin),
        peers_sharing=sharing,
        degree=store.degree(answer, reverse(use)),
        population=store.reach(use),
        common_first=_plain(use) in COMMON_FIRST,
        commonest_first=_plain(use) in COMMONEST_FIRST,
        subtypes=subtype_count(store, seed, use, answer, seed_subtypes),
        mention=mention,
    )


def definition_words(store: KGStore, node_id: str) -> str:
    """A disease's definition as the stems of its words between spaces (``wordforms.stem``:
    "coughing" is "cough"); "" without one."""
    text = store.description(node_id) if store.kinds[store.index[node_id]] == "Disease" else None
    return f" {_stems(text)} " if text else ""


def names_in(words: str, name: str) -> bool:
    """``name`` occurs in ``words`` (``definition_words``) as whole words, in any form."""
    key = _stems(name)
    return bool(key) and f" {key} " in words


def _stems(text: str) -> str:
    return " ".join(stem(w) for w in alias_key(text).split())


def answer_signals(
    store: KGStore, paths: Sequence[WalkPath], mentions: Mapping[str, float] | None = None
) -> dict[str, Signals]:
    """Signals of every answer a one-hop path reaches (the best edge when several do);
    answers reached only by longer paths have none. ``mentions``: answer id -> the best score
    of a retrieved passage naming it."""
    out: dict[str, Signals] = {}
    defined: dict[int, str] = {}
    seed_sides: dict[tuple[int, str], set[int]] = {}
    kin: dict[int, set[int]] = {}
    subs: dict[int, set[int]] = {}
    used: dict[int, set[int]] = {}
    for p in paths:
        if len(p.uses) != 1:
            continue
        seed, use, answer = p.nodes[0], p.uses[0], p.end
        link = LINKS.get(_plain(use))
        side = None
        if link is not None:
            key = (seed, _plain(use))
            if key not in seed_sides:
                seed_sides[key] = link[1](store, seed)
            side = seed_sides[key]
        if seed not in kin:
            kin[seed] = peers_of(store, seed)
        if seed not in subs:
            subs[seed] = subtypes_of(store, seed) if store.kinds[seed] == "Disease" else set()
        n = store.ids[answer]
        s = edge_signals(
            store, seed, use, answer, side, kin[seed], subs[seed], (mentions or {}).get(n, 0.0)
        )
        if _plain(use) in CLASS_SHARED:
            if seed not in used:
                used[seed] = _along(store, seed, *CLASS_SHARED)
            s = replace(s, class_share=class_share(store, answer, used[seed]))
        if seed not in defined:
            defined[seed] = definition_words(store, store.ids[seed])
        if defined[seed] and names_in(defined[seed], store.name(n)):
            s = replace(s, defined=True)
        if n not in out or evidence_score(s) > evidence_score(out[n]):
            out[n] = s
    return out
