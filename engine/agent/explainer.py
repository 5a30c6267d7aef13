"""Explainer: answer text from the templates in ``prompts/`` (``answer_*.md``), and the
phrasing tables that headline a graph answer ("Compounds that treat X")."""

from __future__ import annotations

from collections.abc import Sequence, Set

import prompts
from engine.agent.subtypes import SUBTYPE_REL
from engine.graph.metapaths import Metapath
from engine.graph.relations import BY_ABBREV, triple_text, use_phrase, verb_phrase
from engine.graph.store import KGStore, Sample
from engine.graph.walk import reverse
from engine.result import Answer, LinkedEntity, Triple
from engine.understand.reading import PLURAL

MAX_LISTED = 8

PASSIVE = {
    "treats": "treated by",
    "palliates": "palliated by",
    "binds": "bound by",
    "presents": "presented by",
    "associates": "associated with",
    "localizes": "localized in",
    "includes": "included in",
    "causes": "caused by",
    "expresses": "expressed in",
    "upregulates": "upregulated by",
    "downregulates": "downregulated by",
    "participates": "with participating genes",
    "regulates": "regulated by",
}
"""A relation's verb read backwards, for the hops of a longer chain."""


def describe_metapath(mp: Metapath, seed: str, many: bool = False) -> str:
    """'Compounds that treat X', 'Diseases that X treats', or the hops of a longer chain;
    ``many``: the seed names several things ('Genes that both X and Y bind')."""
    dst = PLURAL[mp.dst].listed.capitalize() if mp.dst in PLURAL else mp.dst
    if len(mp) == 1:
        return use_phrase(mp.uses[0], seed, dst, many)
    hops = []
    for u in mp.uses:
        v = u.verb
        hops.append(PASSIVE.get(v, v) if u.inverse else v)
    return f"{dst} reached from {seed} ({' → '.join(hops)})"


def headline(
    intent: str | None,
    seed: str,
    top: Metapath | None,
    target: str | None,
    note: str | None = None,
    many: bool = False,
) -> str:
    """What a graph answer lists: mechanistic paths to ``target``, everything linked to the
    seed (an overview, or no reading), or the most probable reading ``top`` in words, with
    the plan's ``note`` after it when it has one; ``many``: the seed names several things
    that each hold."""
    if intent == "mechanism":
        return f"{seed} may act on {target} through"
    if intent == "overview" or top is None:
        return f"What the graph links to {seed}"
    what = describe_metapath(top, seed, many)
    return f"{what} ({note})" if note else what


def render_triple(store: KGStore, t: Triple) -> str:
    return triple_text(t, store.name)


def render_path(store: KGStore, path: list[Triple]) -> str:
    return " · ".join(render_triple(store, t) for t in path)


def kg_answer(store: KGStore, answers: list[Answer], paths: list[list[Triple]], what: str) -> str:
    return _with_paths(store, f"**{what}**: {names_of(answers)}.", paths)


def names_of(answers: Sequence[Answer]) -> str:
    """Up to ``MAX_LISTED`` names, and how many more there are."""
    names = ", ".join(a.name for a in answers[:MAX_LISTED])
    extra = f" and {len(answers) - MAX_LISTED} more" if len(answers) > MAX_LISTED else ""
    return f"{names}{extra}"


def listed(answers: Sequence[Answer]) -> str:
    """``names_of``, or 'none in the graph' for none."""
    return names_of(answers) if answers else "none in the graph"


def _with_paths(store: KGStore, summary: str, paths: list[list[Triple]]) -> str:
    """A graph answer: its ``summary``, then its first five paths."""
    lines = "\n".join(f"- {render_path(store, p)}" for p in paths[:5])
    more = f"\n- … {len(paths) - 5} more paths" if len(paths) > 5 else ""
    return prompts.load("answer_kg").render(summary=summary, paths=lines, more=more).strip()


def therapy_answer(
    store: KGStore,
    treats: Sequence[Answer],
    palliates: Sequence[Answer],
    paths: list[list[Triple]],
    seed: str,
    seed_kind: str,
    note: str = "",
) -> str:
    """A therapy answer in two labelled groups: what modifies the disease (treats) and what
    relieves its symptoms (palliates), or, from a drug, the diseases of each; ``note`` after
    the headline's subject ("besides sumatriptan")."""
    seed = f"{seed} ({note})" if note else seed
    if seed_kind == "Disease":
        summary = (
            f"**Drugs for {seed}**: disease-modifying (treats): {listed(treats)}; "
            f"symptomatic (palliates): {listed(palliates)}."
        )
    else:
        summary = (
            f"**What {seed} is used for**: treats {listed(treats)}; "
            f"relieves the symptoms of (palliates) {listed(palliates)}."
        )
    return _with_paths(store, summary, paths)


OFFERS = {
    "Compound": "its targets, what it treats and its side effects",
    "Disease": "its drugs, genes, symptoms and similar diseases",
    "Gene": "the drugs that bind it, its diseases and pathways",
}
"""What the graph holds about a node of each kind, offered when a question asks what it
does not hold."""


def out_of_scope(topic: str, named: Sequence[tuple[str, str]]) -> str:
    """The sources hold no ``topic``; what they do hold about the things ``named`` (name,
    kind) is offered."""
    offers = [
        f"About **{name}** they hold {OFFERS.get(kind, 'what the graph links to it')}."
        for name, kind in dict.fromkeys(named)
    ]
    offer = " ".join(offers) if offers else "Ask about a drug, disease, gene or how they relate."
    return prompts.load("answer_out_of_scope").render(topic=topic, offer=offer).strip()


def relation_name(rel: str) -> str:
    """'Compound–causes–Side Effect' for 'CcSE' (the abbreviation when unknown)."""
    r = BY_ABBREV.get(rel)
    return f"{r.source}–{r.verb}–{r.target}" if r is not None else rel


def sampled_note(rels: Sequence[tuple[str, Sample]]) -> str:
    """One line per sampled relation an answer comes from: it is no complete list."""
    return "\n".join(
        f"_{relation_name(rel)}: the graph holds a sample of these edges "
        f"({s.kept:,} of {s.total:,}), so this is not a complete list._"
        for rel, s in rels
    )


def sampled_missing(rels: Sequence[tuple[str, Sample]]) -> str:
    """``sampled_note`` for an edge not found: its absence from a sample proves nothing."""
    return f"{sampled_note(rels)} Missing from the sample is no 'no'."


def none_among(what: str, names: Sequence[str]) -> str:
    """A question of which listed things hold, none of which does."""
    return f"**{what}**: none of {', '.join(names)} in the graph."


def among_note(text: str, members: Sequence[LinkedEntity], answered: Set[str]) -> str:
    """A "which of ..." answer, with the listed things the graph does not record (none of the
    ``answered`` ids) said after its first line."""
    missing = [e.name for e in members if e.id not in answered]
    if not missing:
        return text
    head, _, rest = text.partition("\n")
    note = f"Not recorded for: {', '.join(missing)}."
    return f"{head}\n{note}\n{rest}" if rest else f"{head}\n{note}"


def none_in_set(what: str, names: Sequence[str], counts: Sequence[int]) -> str:
    """A set question with no answer: what was asked, and what each entity has alone."""
    each = "; ".join(f"{n}: {c}" for n, c in zip(names, counts, strict=True))
    return f"**{what}**: none in the graph (answers for each alone — {each})."


def claim_yes(store: KGStore, t: Triple) -> str:
    return _recorded("answer_claim_yes", store, t)


def claim_class_yes(store: KGStore, cls: str, total: int, found: list[Triple]) -> str:
    """A claim about a drug class the graph records for some of its drugs (``found``: each a
    member's edge), with a path per member."""
    names = [store.name(t[0]) for t in found]
    shown = ", ".join(names[:MAX_LISTED]) + (
        f" and {len(names) - MAX_LISTED} more" if len(names) > MAX_LISTED else ""
    )
    path = "\n".join(
        f"- {render_triple(store, (cls, 'PCiC', t[0]))} · {render_triple(store, t)}"
        for t in found[:MAX_LISTED]
    )
    return (
        prompts.load("answer_claim_class_yes")
        .render(
            subject=store.name(cls),
            verb=_plural(verb_phrase(found[0][1])) if len(found) > 1 else verb_phrase(found[0][1]),
            object=store.name(found[0][2]),
            count=str(len(found)),
            total=str(total),
            members=shown,
            path=path,
        )
        .strip()
    )


def _plural(verb: str) -> str:
    """A drug's verb phrase for several drugs ("treats" -> "treat", "binds" -> "bind")."""
    head, _, rest = verb.partition(" ")
    head = head[:-1] if head.endswith("s") and not head.endswith("ss") else head
    return f"{head} {rest}".strip()


def claim_contradicted(store: KGStore, t: Triple) -> str:
    """A statement that denies an edge the graph records: it is contradicted."""
    return _recorded("answer_claim_contradicted", store, t)


KIND_NOUNS = {
    "Compound": "a drug",
    "Disease": "a disease",
    "Gene": "a gene",
    "Symptom": "a symptom",
    "Side Effect": "a side effect",
    "Anatomy": "a part of the body",
    "Pharmacologic Class": "a class of drugs",
    "Pathway": "a pathway",
}


def definition(name: str, kind: str, description: str | None, classes: Sequence[str]) -> str:
    """What one thing is: its definition in the data (Disease Ontology's for a disease, a
    gene's full name), else its kind, a drug's classes with it."""
    noun = KIND_NOUNS.get(kind, f"a {kind.lower()}")
    if description:
        what = description if description.rstrip().endswith(".") else f"{description}."
        if kind == "Gene":
            what = f"{noun}, {what[0].lower()}{what[1:]}"
    elif classes:
        what = f"{noun} ({', '.join(classes[:MAX_LISTED])})."
    else:
        what = f"{noun} in the knowledge graph."
    return prompts.load("answer_definition").render(name=name, what=what).strip()


def claim_on_path(store: KGStore, path: list[Triple], denied: bool = False) -> str:
    """A claim the graph records along ``path``: one edge, a chain of ``is a subtype of``
    edges (the claim that one disease is a kind of another) or an edge to a subtype of the
    disease the claim named, then up to it ("metformin treats diabetes")."""
    first, last = path[0], path[-1]
    if len(path) == 1 or first[1] == SUBTYPE_REL:
        statement = (first[0], first[1], last[2])
        template = "answer_claim_contradicted" if denied else "answer_claim_yes"
        return _recorded(template, store, statement, path)
    template = "answer_claim_contradicted_subtype" if denied else "answer_claim_yes_subtype"
    return (
        prompts.load(template)
        .render(
            subject=store.name(first[0]),
            verb=verb_phrase(first[1]),
            object=store.name(first[2]),
            disease=store.name(last[2]),
            path=f"- {render_path(store, path)}",
        )
        .strip()
    )


def _recorded(template: str, store: KGStore, t: Triple, path: list[Triple] | None = None) -> str:
    """``template`` filled with the recorded edge ``t`` and its path."""
    return (
        prompts.load(template)
        .render(
            subject=store.name(t[0]),
            verb=verb_phrase(t[1]),
            object=store.name(t[2]),
            path=f"- {render_path(store, path or [t])}",
        )
        .strip()
    )


def claim_denial_unrecorded(subject: str, verb: str, obj: str) -> str:
    """A statement that denies an edge the graph does not record."""
    return (
        prompts.load("answer_claim_denial_unrecorded")
        .render(subject=subject, verb=verb, object=obj)
        .strip()
    )


def claim_no(subject: str, verb: str, obj: str) -> str:
    return prompts.load("answer_claim_no").render(subject=subject, verb=verb, object=obj).strip()


def not_found(missing: list[str], contained: dict[str, list[str]] | None = None) -> str:
    """'X is not in the knowledge graph' — said only of phrases that contain no node name;
    a phrase that does ("idiopathic hypersomnia") is reported with the node it contains."""
    contained = contained or {}
    absent = [m for m in missing if not contained.get(m)]
    parts: list[str] = []
    for phrase in missing:
        names = contained.get(phrase)
        if names:
            found = " and ".join(f"**{n}**" for n in dict.fromkeys(names))
            parts.append(
                prompts.load("answer_not_found_partial").render(found=found, phrase=phrase).strip()
            )
    if absent or not parts:
        text = " and ".join(f"'{m}'" for m in absent) if absent else "the entity you named"
        parts.insert(0, prompts.load("answer_not_found").render(missing=text).strip())
    return " ".join(parts)


def understood(entities: list[str]) -> str:
    """NOT_ANSWERED that says what was understood: the entities, not the question."""
    names = " and ".join(f"**{e}**" for e in dict.fromkeys(entities)) or "nothing I know"
    return prompts.load("answer_understood").render(entities=names).strip()


def no_study(entities: list[str]) -> str:
    """NOT_ANSWERED for a question to the literature that no passage at hand speaks to."""
    names = " and ".join(f"**{e}**" for e in dict.fromkeys(entities))
    return prompts.load("answer_no_study").render(entities=names).strip()


def named_disease(said: str, name: str, kind: str, disease: str, what: str = "treatments") -> str:
    """The line that says a symptom's therapy (or gene) question was asked of the disease
    named by it."""
    return (
        f"Reading '{said}' as {disease}: the graph records {what} of diseases, and "
        f"{name} is in it as {'an' if kind[:1].lower() in 'aeiou' else 'a'} {kind.lower()}."
    )


HELD_RELATIONS = 3
"""Relations of a node offered when a question about it found nothing."""
HELD_NAMES = 3
"""Names shown per relation offered."""


def held_instead(store: KGStore, node_id: str, asked: Set[str]) -> str:
    """What the graph holds about a node a question found nothing for: its relations other
    than those ``asked``, the most populated first, each with a few names ("its targets: F10;
    the side effects it causes: …"); "" when it holds nothing else."""
    i = store.index.get(node_id)
    if i is None:
        return ""
    kind = store.kind(node_id)
    counted = [
        (store.degree(i, u), u)
        for u in store.uses()
        if u.src == kind and u.rel not in asked and not u.detail
    ]
    parts: list[str] = []
    for n, u in sorted((c for c in counted if c[0] > 0), key=lambda c: (-c[0], c[1].key)):
        if len(parts) == HELD_RELATIONS:
            break
        back = reverse(u)
        # the most specific first (a drug's own target before the enzymes every drug meets)
        ranked = sorted(
            store.neighbors(i, u).tolist(),
            key=lambda j: (store.degree(j, back), store.name(store.ids[j]).lower()),
        )
        names = [store.name(store.ids[j]) for j in ranked[:HELD_NAMES]]
        more = f" and {n - HELD_NAMES} more" if n > HELD_NAMES else ""
        dst = PLURAL[u.dst].listed if u.dst in PLURAL else u.dst
        what = use_phrase(u, store.name(node_id), dst[:1].upper() + dst[1:])
        parts.append(f"{what}: {', '.join(names)}{more}")
    if not parts:
        return ""
    return (
        prompts.load("answer_held_instead")
        .render(name=store.name(node_id), held="; ".join(parts))
        .strip()
    )


def not_english() -> str:
    return prompts.load("answer_not_english").render().strip()


def no_path(entity: str, reason: str) -> str:
    return prompts.load("answer_no_path").render(entity=entity, reason=reason).strip()


def clarify(question: str) -> str:
    return prompts.load("answer_clarify").render(question=question).strip()


def literature(title: str, snippet: str, count: int, sources: list[str]) -> str:
    cited = ", ".join(sources[:3]) + (" …" if len(sources) > 3 else "")
    return (
        prompts.load("answer_literature")
        .render(title=title, snippet=snippet, count=count, sources=cited)
        .strip()
    )


def nothing() -> str:
    return prompts.load("answer_none").render().strip()


def unsupported() -> str:
    return prompts.load("answer_unsupported").render().strip()
