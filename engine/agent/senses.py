"""Which node a mention means: senses resolved by structure, then concept collapse, else a
clarifying question listing the candidates.

Each candidate node is scored by how well the best metapath from its kind explains the
question's cues and answer kind (``best_parse``, the planner's lexicon parse). Candidates that
name one concept in two vocabularies (a disease and the side effect of the same name; a
compound and the class named after it) collapse to the best-fitting one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise

from engine.agent.therapy import asks_remedy
from engine.graph.store import KGStore
from engine.result import Candidate
from engine.understand.lexicon import STRONG
from engine.understand.linking import same_concept_kinds
from engine.understand.mentions import Mention
from engine.understand.parse import Features
from engine.understand.sets import listed

SENSE_MARGIN = 0.5
"""Candidates whose best parse is within this of the top one stay in the running."""
NO_PARSE = -99.0
"""The score of a candidate from whose kind no metapath leads: below any parse."""
DRUG_DISEASE = frozenset({"Compound", "Disease"})
"""The kinds of a mechanism question's two ends, and of a claim's that names no relation: a
yes/no question's mention keeps to them when it can (``claim_kinds``)."""

NAMED_AFTER = {"Pathway": "Disease"}
"""Kinds whose nodes are often named after another kind's (WikiPathways' 'Alzheimers Disease',
'Bladder Cancer'): a mention of both means the named one unless the question fits the other
better ('genes in the Bladder Cancer pathway')."""

CENTRAL_RATIO = 10
"""A sense the graph holds this many times more facts about than each other sense of its kind
is the one meant ("lupus": systemic lupus erythematosus, not the rarely linked lupus
erythematosus; "crohns": Crohn's disease, not ileitis); closer senses are asked about."""

SUBTYPE_RATIO = 4
"""A subtype the graph holds this many times more facts about than the disease it is a kind of
is the one meant by a name they share ("lupus", the Disease Ontology's name of lupus
erythematosus: systemic lupus erythematosus): the parent is then the ontology's grouping of
it, the subtype the disease its facts are about."""

SAME_NAME_KINDS = frozenset({"Pharmacologic Class"})
"""Kinds whose vocabularies name one concept alike (``central``): two senses of one name are
one thing, and the better-held is meant."""

CENTRAL_KINDS = frozenset({"Disease"})
"""Kinds whose names the vocabularies share between a common disease and a rare relative
of it; a drug name shared by two drugs (a brand of each) or a symbol shared by two genes is
asked about however unequal the two."""

BestParse = Callable[[str, Mention], float | None]
"""The best lexicon parse score of the question from a kind for this mention (None: no
metapath)."""


def sense_scores(
    store: KGStore, m: Mention, f: Features, best_parse: BestParse
) -> dict[str, float]:
    """Each candidate node's score: how well the best metapath from its kind explains the
    question (0 for all when the question names no relation and no asked kind)."""
    scores: dict[str, float] = {}
    for nid in m.node_ids:
        kind = store.kind(nid)
        if f.generic or (not f.cues and f.target_kind is None):
            scores[nid] = 0.0
        else:
            best = best_parse(kind, m)
            scores[nid] = best if best is not None else NO_PARSE
    return scores


def resolve(
    store: KGStore,
    m: Mention,
    f: Features,
    choice: str | None,
    best_parse: BestParse,
    beside: frozenset[str] = frozenset(),
) -> list[str]:
    """Node ids the mention may mean after structural resolution and concept collapse;
    ``beside`` is the kinds the question's other names may be."""
    ids = m.node_ids
    if choice and choice in ids:
        return [choice]
    if len(ids) == 1:
        return ids
    if f.mechanism or f.yes_no or asks_remedy(f.cues, f.target_kind):
        # a claim's or a remedy's ends are the kinds its relation joins ("what is given for
        # CML": the leukaemia, not the gene with that synonym)
        asked = frozenset({f.target_kind}) if f.target_kind else frozenset()
        ends = claim_kinds(store, f, beside | asked)
        focused = [n for n in ids if store.kind(n) in ends]
        ids = focused or ids
        if len(ids) == 1:
            return ids
    scores = sense_scores(store, m, f, best_parse)
    top = max(scores.values())
    kept = named_after(store, [n for n in ids if scores[n] >= top - SENSE_MARGIN], scores)
    by_group: dict[tuple[str, ...], list[str]] = {}
    out: list[str] = []
    for n in kept:
        group = same_concept_kinds(store.kind(n))
        if len(group) == 1:
            out.append(n)
        else:
            by_group.setdefault(group, []).append(n)
    for order, nodes in by_group.items():
        # one concept in several vocabularies: the best-fitting kind's senses (a disease and
        # two side effects of its name are the disease in "drugs for BPH")
        best = max(nodes, key=lambda n: (scores[n], -order.index(store.kind(n))))
        out.extend(n for n in nodes if store.kind(n) == store.kind(best))
    return central(store, m, asked_of(store, f, out))


def claim_kinds(
    store: KGStore, f: Features, beside: frozenset[str] = frozenset()
) -> frozenset[str]:
    """The kinds a yes/no or mechanism question's ends may be: those at the ends of the
    relations its words name ("do statins cause myopathy": a drug and a side effect, not the
    disease of that name), else a drug and a disease. Of the relations a word names, those
    reaching a kind the question's other names may be (``beside``) are meant: "does metformin
    cause lactic acidosis" asks of a side effect a drug causes, not of a disease's genes."""
    rels = {r for c in f.cues for r in c.rels}
    if f.mechanism or not rels:
        return DRUG_DISEASE
    uses = [u for u in store.uses() if u.rel in rels]
    near = [u for u in uses if u.src in beside or u.dst in beside]
    kinds = {k for u in (near or uses) for k in (u.src, u.dst)}
    return frozenset(kinds) or DRUG_DISEASE


def asked_of(store: KGStore, f: Features, ids: list[str]) -> list[str]:
    """``ids`` with the senses of one kind narrowed to those the graph holds a fact of the
    relation the question names with a strong cue ("tx for OCD": the disorder that drugs
    treat, not the bone disease of those initials with none), when some hold one and some
    none. A weak cue ("associated with") only joins words and narrows nothing."""
    rels = {r for c in f.cues if c.weight >= STRONG for r in c.rels}
    if not rels or len(ids) < 2:
        return ids
    uses = [u for u in store.uses() if u.rel in rels]
    by_kind: dict[str, list[str]] = {}
    for n in ids:
        by_kind.setdefault(store.kind(n), []).append(n)
    drop: set[str] = set()
    for kind, nodes in by_kind.items():
        held_asked = [
            n for n in nodes if any(store.degree(store.index[n], u) for u in uses if u.src == kind)
        ]
        if len(nodes) > 1 and held_asked and len(held_asked) < len(nodes):
            drop |= set(nodes) - set(held_asked)
    return [n for n in ids if n not in drop]


def held(store: KGStore, node_id: str) -> int:
    """How many facts the graph holds about a node: its edges along every relation."""
    i = store.index[node_id]
    kind = store.kind(node_id)
    return sum(store.degree(i, u) for u in store.uses() if u.src == kind)


def central(store: KGStore, m: Mention, ids: list[str]) -> list[str]:
    """``ids`` with the senses of one kind narrowed to the one the graph holds far more facts
    about (``CENTRAL_RATIO``), when there is one; others unchanged. A sense whose own name
    the mention is ("HTT" of huntingtin) is never dropped for one it is only a synonym of."""
    named = {c.node_id for c in m.candidates if c.primary}
    by_kind: dict[str, list[str]] = {}
    for n in ids:
        by_kind.setdefault(store.kind(n), []).append(n)
    drop: set[str] = set()
    for kind, nodes in by_kind.items():
        if len(kept := same_named(store, nodes)) < len(nodes):
            # "anticoagulant": one class named by two vocabularies (an FDA established class
            # "Anti-coagulant", MeSH's "Anticoagulants"): the one with more members
            drop |= set(nodes) - set(kept)
            continue
        if len(nodes) < 2 or kind not in CENTRAL_KINDS:
            continue
        facts = sorted(((held(store, n), n) for n in nodes), reverse=True)
        ratio = CENTRAL_RATIO
        if len(nodes) == 2 and facts[1][1] in ancestors(store, facts[0][1]):
            ratio = SUBTYPE_RATIO
        if facts[0][0] >= ratio * max(facts[1][0], 1) and (
            facts[0][1] in named or not named & set(nodes) or ratio == SUBTYPE_RATIO
        ):
            drop |= {n for _, n in facts[1:]}
    return [n for n in ids if n not in drop]


def same_named(store: KGStore, ids: list[str]) -> list[str]:
    """``ids`` as one node when they are classes of one name (``central``'s rule)."""
    if len(ids) > 1 and {store.kind(n) for n in ids} <= SAME_NAME_KINDS and _one_name(store, ids):
        return [max(ids, key=lambda n: (held(store, n), n))]
    return ids


def _one_name(store: KGStore, nodes: list[str]) -> bool:
    """The nodes' names are one name but for case, hyphens, spaces and a plural "s"."""
    return len({re.sub(r"[^a-z]", "", store.name(n).lower()).removesuffix("s") for n in nodes}) == 1


def ancestors(store: KGStore, node_id: str, depth: int = 2) -> set[str]:
    """The diseases ``node_id`` is a subtype of (``DsD``), up to ``depth`` steps up."""
    out: set[str] = set()
    front = [node_id]
    for _ in range(depth):
        front = [p for n in front for p in store.objects(n, "DsD")]
        out.update(front)
    return out


def named_after(store: KGStore, ids: list[str], scores: dict[str, float]) -> list[str]:
    """``ids`` without the nodes of a kind named after another (``NAMED_AFTER``) that fit the
    question no better than a candidate of that other kind."""
    out = ids
    for kind, named in NAMED_AFTER.items():
        rivals = [scores[n] for n in ids if store.kind(n) == named]
        if rivals:
            out = [n for n in out if store.kind(n) != kind or scores[n] > max(rivals)]
    return out


def coherent(
    store: KGStore, resolved: list[tuple[Mention, list[str]]]
) -> list[tuple[Mention, list[str]]]:
    """A mention still read as several nodes of one kind means those the question's other,
    settled names are joined to in the graph ("does aspirin inhibit COX-1": the COX1 that
    aspirin binds, PTGS1, not the mitochondrial gene of that symbol); unchanged when none
    or all of them are."""
    anchors = [ids[0] for _, ids in resolved if len(ids) == 1]
    if not anchors:
        return resolved
    out = []
    for m, ids in resolved:
        if len(ids) > 1 and len({store.kind(n) for n in ids}) == 1:
            near = [n for n in ids if any(store.linked(n, a) for a in anchors)]
            if near:
                ids = near
        out.append((m, ids))
    return out


def listed_alike(
    store: KGStore, text: str, resolved: list[tuple[Mention, list[str]]]
) -> list[tuple[Mention, list[str]]]:
    """A mention read as nodes of several kinds, written in a list beside a settled name
    ("drugs for both MS and RA", "ms or als"), means its nodes of that name's kind: the
    things a list joins are alike. Unchanged when it has none of that kind."""
    ordered = sorted(resolved, key=lambda r: r[0].start)
    out = {id(m): ids for m, ids in ordered}
    for (a, ids_a), (b, ids_b) in pairwise(ordered):
        if not listed(text, [(a.start, a.end), (b.start, b.end)]):
            continue
        for (m, ids), other in (((a, ids_a), ids_b), ((b, ids_b), ids_a)):
            kinds = {store.kind(n) for n in other}
            if len(ids) > 1 and len(kinds) == 1:
                alike = [n for n in ids if store.kind(n) in kinds]
                if alike:
                    out[id(m)] = alike
    return [(m, out[id(m)]) for m, _ in resolved]


def clarify(store: KGStore, m: Mention, ids: list[str]) -> tuple[str, list[Candidate]]:
    """The clarifying question for an ambiguous mention, with its candidates."""
    cands = [
        Candidate(id=n, name=store.name(n), kind=store.kind(n), detail=store.description(n))
        for n in ids
    ]

    def label(c: Candidate) -> str:
        detail = f", {c.detail}" if c.detail and c.kind == "Gene" else ""
        return f"{c.name} ({c.kind}{detail}, {c.id})"

    listing = "; ".join(label(c) for c in cands)
    return (
        f"'{m.text}' can mean several things in the knowledge graph: {listing}. "
        "Which one do you mean?",
        cands,
    )
