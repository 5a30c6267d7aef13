"""Putting an answer's evidence on the result: graph answers and triples from the kept paths,
passages (marked relevant or not), and the literature answer when the graph has none."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from engine.agent import explainer
from engine.agent.quote import quote
from engine.agent.senses import held
from engine.graph.store import KGStore
from engine.graph.walk import WalkPath
from engine.index.dense import PassageHit, doc_of
from engine.providers.embedder.base import Embedder
from engine.ranking.answers import graph_scores
from engine.ranking.evidence import Signals, evidence_score, weigh, why
from engine.ranking.fusion import fuse
from engine.ranking.presets import Fusion
from engine.ranking.signals import answer_signals
from engine.result import Answer, Evidence, Result, Status, Triple
from engine.understand.relevance import relevant

MAX_PATHS = 20
"""Paths listed on a result."""
MAX_TRIPLE_EVIDENCE = 30
"""Distinct triples listed as evidence, those of the best answers' paths first."""
SNIPPET_CHARS = 400
"""Length of the passage quoted by a literature answer."""
GENERIC_SHARE = 0.05
"""A name used by more than this share of the corpus's passages ("disease", "cancer": one in
twelve) is no mention of a node when a passage uses it."""


def fill_from_paths(
    result: Result,
    store: KGStore,
    fusion: Fusion,
    paths: list[WalkPath],
    target: str | None,
    hits: list[PassageHit],
) -> None:
    """Answers (graph scores fused with passage mentions), paths and triple evidence from the
    kept ``paths`` (``fusion`` combines the two). With ``target``, the disease a mechanism
    question names, the answers are what the drug acts through: the node each path passes
    after the drug (its target gene, a drug like it, a disease it treats). When every path is
    one hop, the graph scores are weighed by the answers' evidence first and the paths listed
    follow the answers."""
    one_hop = all(len(p.uses) == 1 for p in paths)
    if target is not None:
        # weighed by the evidence of the drug's own edge to each (its first hop)
        scores = graph_scores(paths, lambda p: store.ids[p.nodes[1]])
        first = [replace(p, nodes=p.nodes[:2], uses=p.uses[:1]) for p in paths]
        signals = answer_signals(store, first)
        scores = weigh(scores, signals)
        dense_scores = dense_mentions(store, list(scores), hits)
    else:
        scores = graph_scores(
            paths, lambda p: store.ids[p.end], None if one_hop else first_hop_weights(store, paths)
        )
        dense_scores = dense_mentions(store, list(scores), hits)
        signals = answer_signals(store, paths, relative(dense_scores) if one_hop else None)
        if one_hop:
            # a passage naming an answer is one of its evidence signals (a tie-breaker),
            # not a second ranking fused in
            scores, dense_scores = weigh(scores, signals), {}
    fused = (
        fuse(scores, dense_scores, fusion)
        if dense_scores
        else sorted(scores.items(), key=lambda kv: -kv[1])
    )
    result.answers = by_evidence(
        [
            Answer(id=n, name=store.name(n), score=round(sc, 4), kind=store.kind(n))
            for n, sc in fused
        ],
        signals,
        lambda n: held(store, n),
    )
    if target is not None:
        result.answers = targets_first(result.answers)
    order = {a.id: i for i, a in enumerate(result.answers)}
    ranked_paths = sorted(paths, key=lambda p: order.get(store.ids[p.end], 1 << 30))
    result.paths = [p.triples(store) for p in (ranked_paths if one_hop else paths)[:MAX_PATHS]]
    seen: set[Triple] = set()
    for p in ranked_paths:
        for t in p.triples(store):
            if t not in seen and len(seen) < MAX_TRIPLE_EVIDENCE:
                seen.add(t)
                result.evidence.append(
                    Evidence(kind="triple", triple=t, source="hetionet", score=round(p.conf, 4))
                )
    attach_passages(result, store, hits)


def first_hop_weights(store: KGStore, paths: list[WalkPath]) -> Callable[[WalkPath], float] | None:
    """Each longer path's first edge weighed by its evidence as a one-hop answer would be
    (``engine/ranking/evidence.py``), relative to the best first edge; None when no first edge
    has any (the paths then count alike)."""
    first = {(p.nodes[:2], p.uses[:1]): p for p in paths}
    hop = answer_signals(store, [replace(p, nodes=n, uses=u) for (n, u), p in first.items()])
    ev = {n: evidence_score(s) for n, s in hop.items()}
    top = max(ev.values(), default=0.0)
    if top <= 0:
        return None
    return lambda p: ev.get(store.ids[p.nodes[1]], 0.0) / top


def targets_first(answers: list[Answer]) -> list[Answer]:
    """A mechanism's answers with the genes the drug acts on first, each group in its order:
    "how does metformin work in diabetes" is answered by its targets before the class it
    belongs to or the diseases it also treats."""
    return [a for a in answers if a.kind == "Gene"] + [a for a in answers if a.kind != "Gene"]


def relative(scores: Mapping[str, float]) -> dict[str, float]:
    """Scores as shares of the best one (the best passage naming an answer counts 1)."""
    top = max(scores.values(), default=0.0)
    return {k: v / top for k, v in scores.items()} if top > 0 else {}


def by_evidence(
    answers: list[Answer],
    signals: Mapping[str, Signals],
    known: Callable[[str], int] | None = None,
) -> list[Answer]:
    """Answers with equal scores in evidence order (``engine/ranking/evidence.py``), then, of
    equal evidence, the one the graph knows more about first (``known``: its edges; the drug
    in common use before a rarely used one of the same class), then by name, never by id;
    each answer with signals says why in ``why``."""
    for a in answers:
        if a.id in signals:
            a.why = why(signals[a.id])
    plain = Signals(sources=(), degree=0, population=0)
    edges = {a.id: known(a.id) for a in answers} if known is not None else {}
    return sorted(
        answers,
        key=lambda a: (
            -a.score,
            -evidence_score(signals.get(a.id, plain)),
            -edges.get(a.id, 0),
            a.name.lower(),
            a.id,
        ),
    )


def dense_mentions(store: KGStore, nodes: list[str], hits: list[PassageHit]) -> dict[str, float]:
    """Dense support for graph answers: the best passage score among passages naming them. A
    name that many of the corpus's passages use (``GENERIC_SHARE``: the Reactome pathway
    called "Disease") is a word of the field there, not a mention of the node."""
    if not hits or not nodes:
        return {}
    texts = store.passages([h.id for h in hits])
    out: dict[str, float] = {}
    for h in hits:
        body = (texts.get(h.id, ("", "", ""))[1] or "").lower()
        for n in nodes:
            name = store.name(n).lower()
            if len(name) > 3 and name in body and store.passage_share(name) <= GENERIC_SHARE:
                out[n] = max(out.get(n, 0.0), h.dense)
    return out


def attach_passages(
    result: Result, store: KGStore, hits: list[PassageHit], good: set[str] | None = None
) -> None:
    """Every retrieved passage as evidence, ``relevant`` when in ``good`` (by default: when it
    passes the relevance floor): the relevant ones first, each group in retrieved order (the
    passages an answer quotes lead its evidence)."""
    if not hits:
        return
    texts = store.passages([h.id for h in hits])
    if good is None:
        good = {h.id for h in relevant(hits)}
    for h in sorted(hits, key=lambda h: h.id not in good):
        _title, text, corpus = texts.get(h.id, ("", "", ""))
        result.evidence.append(
            Evidence(
                kind="passage",
                id=h.id,
                score=round(h.score, 4),
                text=text,
                source=corpus or "passages",
                relevant=h.id in good,
            )
        )


def literature(
    result: Result,
    store: KGStore,
    hits: list[PassageHit],
    kg_note: str = "",
    naming: list[str] | None = None,
    otherwise: str | None = None,
    embedder: Embedder | None = None,
    about: Sequence[Sequence[str]] = (),
) -> Result:
    """Answer from passages that pass the relevance floor, labelled as literature after
    what the graph could not say (``kg_note``); else NOT_ANSWERED saying so
    (``otherwise``, by default the note itself)."""
    texts = store.passages([h.id for h in hits]) if hits else {}
    said = {k: v[1] or "" for k, v in texts.items()}
    if about:
        # a drug is named anywhere in the article: its title and conclusion count too
        articles = {d: store.document(d) for d in {doc_of(h.id) for h in hits}}
        said = {k: f"{v} {' '.join(articles.get(doc_of(k)) or ())}" for k, v in said.items()}
    good = relevant(hits, texts=said, naming=naming or (), about=about)
    attach_passages(result, store, hits, {h.id for h in good})
    if not good:
        result.text = otherwise or kg_note or explainer.nothing()
        result.stop_reason = result.stop_reason or (
            "no relevant passage" if hits else "nothing retrieved"
        )
        return result
    top = texts.get(good[0].id)
    title, text = (top[0], top[1]) if top else ("", "")
    article = store.document(doc_of(good[0].id))
    if article is not None:
        # the article's own title and the sentences of its conclusion that answer the question
        title, text = article[0] or title, quote(article[1], result.question, embedder)
    snippet = text if len(text) < SNIPPET_CHARS else text[:SNIPPET_CHARS].rsplit(" ", 1)[0] + " …"
    docs = list(dict.fromkeys(doc_of(h.id) for h in good))
    answer = explainer.literature(title or good[0].id, snippet, len(good), docs)
    result.text = f"{kg_note}\n\n{answer}" if kg_note else answer
    result.status = Status.ANSWERED
    result.intent = "literature" if kg_note else result.intent
    # why the graph had no answer stays said ("answered from passages; frontier empty")
    graph_stop = result.stop_reason if kg_note and result.stop_reason else None
    result.stop_reason = "; ".join(x for x in ("answered from passages", graph_stop) if x)
    return result
