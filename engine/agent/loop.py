"""The agent loop: Planner -> Retriever -> Reviewer -> Explainer, with events and timings."""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from engine.agent import explainer
from engine.agent.llm_hooks import LLMSession
from engine.agent.planner import Plan, Planner
from engine.agent.ports import MemoryPort
from engine.agent.reviewer import review_claim, review_paths, supported, walk_acceptor
from engine.agent.steps import Steps
from engine.config import Mode, Settings
from engine.events import EventSink
from engine.graph.edges import Calibration, LocalEdgePredictor
from engine.graph.metapaths import Metapath
from engine.graph.relations import directed_uses, use_phrase, verb_phrase
from engine.graph.store import KGStore
from engine.graph.walk import Walker, WalkPath, WalkResult
from engine.index.dense import PassageHit, PassageRetriever, doc_of
from engine.index.vectors import VectorIndex
from engine.providers.embedder.base import Embedder, Vectors
from engine.providers.llm import LLMProvider
from engine.ranking.fusion import fuse
from engine.result import Answer, Evidence, LinkedEntity, Result, Status, Triple
from engine.understand.relevance import relevant

log = logging.getLogger(__name__)

MAX_PATHS = 20
MAX_TRIPLE_EVIDENCE = 30
OVERVIEW_USES: dict[str, tuple[str, ...]] = {
    "Disease": ("CtD^-1", "DpS", "DaG", "DrD", "DlA", "CpD^-1"),
    "Compound": ("CtD", "CbG", "PCiC^-1", "CpD", "CrC", "CcSE"),
    "Gene": ("DaG^-1", "CbG^-1", "GiG", "GpPW"),
    "Symptom": ("DpS^-1",),
    "Anatomy": ("DlA^-1",),
    "Pharmacologic Class": ("PCiC",),
    "Side Effect": ("CcSE^-1",),
}


@dataclass
class Components:
    settings: Settings
    store: KGStore
    planner: Planner
    predictor: LocalEdgePredictor
    walker: Walker
    embedder: Embedder | None
    passages: PassageRetriever | None
    dense_passages: PassageRetriever | None
    """FAISS-only passage retrieval, used by the dense baseline."""
    triple_index: VectorIndex | None = None
    errors: list[str] = field(default_factory=list)
    """One sentence per part that could not be opened, naming the file and the fix."""
    degraded: list[str] = field(default_factory=list)
    """Codes of those parts (``index:passages``), copied into every result's ``degraded``."""
    llm: LLMProvider | None = None
    llm_calibration: Calibration | None = None


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
PLURAL = {
    "Compound": "Compounds",
    "Disease": "Diseases",
    "Gene": "Genes",
    "Symptom": "Symptoms",
    "Anatomy": "Anatomical structures",
    "Pharmacologic Class": "Pharmacologic classes",
    "Side Effect": "Side effects",
    "Pathway": "Pathways",
    "Biological Process": "Biological processes",
    "Molecular Function": "Molecular functions",
    "Cellular Component": "Cellular components",
}


def describe_metapath(mp: Metapath, seed: str) -> str:
    """'Compounds that treat X', 'Diseases that X treats', or the hops of a longer chain."""
    dst = PLURAL.get(mp.dst, mp.dst)
    if len(mp) == 1:
        return use_phrase(mp.uses[0], seed, dst)
    hops = []
    for u in mp.uses:
        v = u.verb
        hops.append(PASSIVE.get(v, v) if u.inverse else v)
    return f"{dst} reached from {seed} ({' → '.join(hops)})"


def _bad_input(question: str, settings: Settings) -> str | None:
    if not question.strip():
        return "The question is empty. Ask about a drug, disease, gene or symptom."
    if len(question) > settings.max_question_chars:
        return (
            f"The question is {len(question):,} characters long; the limit is "
            f"{settings.max_question_chars:,}. Please shorten it."
        )
    if any("\ud800" <= ch <= "\udfff" for ch in question):
        return (
            "The question contains text that is not valid Unicode (a lone surrogate such as "
            "\\ud800); please send it as UTF-8 text."
        )
    printable = sum(ch.isprintable() or ch in "\n\t" for ch in question)
    if "\x00" in question or printable < 0.9 * len(question):
        return "The question contains binary or control characters; please send plain text."
    return None


class AgentLoop:
    def __init__(self, comp: Components) -> None:
        self.c = comp

    # --- public --------------------------------------------------------------------------
    def ask(
        self,
        question: str,
        *,
        mode: Mode | None = None,
        memory: MemoryPort | None = None,
        session: str | None = None,
        choice: str | None = None,
        qid: str | None = None,
        on_event: EventSink | None = None,
    ) -> Result:
        steps = Steps(on_event)
        mode = mode or self.c.settings.mode
        problem = _bad_input(question, self.c.settings)
        if problem:
            return self._finish(
                Result(
                    id=qid,
                    question=question[:200],
                    status=Status.NOT_ANSWERED,
                    text=problem,
                    mode=mode,
                    stop_reason="invalid input",
                ),
                steps,
                memory=None,
                session=None,
            )
        if memory is not None and choice is None:
            with steps.step("memory_read", "checking the answer cache") as a:
                hit = memory.cached(question, mode)
                a["cache_hit"] = hit is not None
            if hit is not None:
                hit = hit.model_copy(update={"id": qid, "cached": True})
                return self._finish(hit, steps, memory=None, session=None)
        result = self._answer(question, mode, memory, choice, steps)
        result.id = qid
        return self._finish(result, steps, memory=memory, session=session)

    # --- pipeline ------------------------------------------------------------------------
    def _answer(
        self, question: str, mode: Mode, memory: MemoryPort | None, choice: str | None, steps: Steps
    ) -> Result:
        if mode == "dense":
            return self._dense_only(question, steps)
        with steps.step("link", "linking entities") as a:
            linked = self.c.planner.link(question)
            a["mentions"] = [m.text for m in linked.mentions]
        with steps.step("plan", "reading the question") as a:
            plan = self.c.planner.plan(question, choice, linked)
            a.update(
                intent=plan.intent,
                seeds=[e.id for e in plan.seeds],
                mentions=[m.text for m in plan.link.mentions],
                unlinked=plan.unlinked,
            )
        result = Result(
            question=question,
            status=Status.NOT_ANSWERED,
            mode=mode,
            intent=plan.intent,
            linked=plan.seeds + plan.targets,
        )
        if memory is not None:
            with steps.step("memory_read", "looking in your memory") as a:
                mem = memory.answer(question, plan.seeds + plan.targets)
                a["hit"] = mem is not None
            if mem is not None:
                mem.intent = mem.intent or "memory"
                mem.mode = mode
                return mem
        qvec = None
        hits: list[PassageHit] = []
        if mode == "hybrid" and self.c.passages is not None:
            with steps.step("dense", "searching passages") as a:
                try:
                    reading = plan.reading
                    qvec = (
                        reading.question_vec
                        if reading is not None and reading.question_vec is not None
                        else self._embed(question)
                    )
                    hits = self.c.passages.search(question, qvec, self.c.settings.dense_top_n)
                except Exception as exc:  # a dense outage degrades to graph-only
                    log.error("dense retrieval failed: %s", exc)
                    result.degraded.append(f"dense:{type(exc).__name__}")
                a["passages"] = len(hits)
        llm = LLMSession(self.c.llm, self.c.settings, result, self.c.llm_calibration)
        relation_question = any(c.kind == "Relation" for c in plan.candidates)
        if plan.intent == "clarify" and llm.enabled("clarify") and not relation_question:
            mention = plan.clarification.split("'")[1] if plan.clarification else ""
            decision = llm.clarify(question, mention, plan.candidates)
            if decision is not None and not decision.ambiguous and decision.choice:
                plan = self.c.planner.plan(question, decision.choice)
                result.intent, result.linked = plan.intent, plan.seeds + plan.targets
            elif decision is not None and decision.question:
                plan.clarification = decision.question
                plan.candidates = [
                    c for c in plan.candidates if c.id in decision.options
                ] or plan.candidates
        if plan.intent == "clarify":
            result.status = Status.NEEDS_CLARIFICATION
            result.clarification = plan.clarification
            result.candidates = plan.candidates
            result.text = explainer.clarify(plan.clarification or "")
            result.stop_reason = "ambiguous mention"
            return result
        if plan.intent == "not_found" and mode == "hybrid" and hits:
            self._dense_seed(plan, hits, steps)
        if plan.intent == "not_found":
            note = explainer.not_found(plan.unlinked, self._contained(plan.unlinked))
            result.stop_reason = "entity not in graph"
            return self._literature(result, hits, note, naming=plan.unlinked)
        if plan.intent == "claim":
            return self._claim(plan, result, steps)
        if plan.intent == "no_relation":
            result.stop_reason = "no matching relation"
            names = [e.name for e in plan.seeds]
            note = explainer.no_path(names[0], "none of its relations matches the question")
            return self._literature(result, hits, note, otherwise=explainer.understood(names))
        if plan.intent in {"one_hop", "multi_hop", "mechanism", "overview"}:
            return self._graph(plan, result, hits, steps, llm)
        names = [e.name for e in plan.seeds]
        return self._literature(
            result, hits, otherwise=explainer.understood(names) if names else None
        )

    # --- intents -------------------------------------------------------------------------
    def _graph(
        self, plan: Plan, result: Result, hits: list[PassageHit], steps: Steps, llm: LLMSession
    ) -> Result:
        store, s = self.c.store, self.c.settings
        dist = plan.dist or self._overview_dist(plan.seeds[0].kind)
        seeds = [store.index[e.id] for e in plan.seeds if e.id in store.index]
        targets = {store.index[e.id] for e in plan.targets if e.id in store.index} or None
        with steps.step("predict_edges", "scoring relations") as a:
            seed = plan.seeds[0]
            if plan.intent in {"one_hop", "multi_hop"} and llm.enabled("edges"):
                blended = llm.edge_dist(result.question, seed.name, seed.kind, dist)
                a["llm"] = blended is not None
                if blended is not None:
                    dist = blended
                    plan.qhash = f"{plan.qhash}:llm"
            first = self.c.predictor.predict(
                plan.qhash, seed.id, seed.kind, (), dist, s.calibration
            )
            a["top"] = [(u.key, round(p, 3)) for u, p in first]
        min_paths = 5 if plan.intent == "mechanism" else 1

        def on_depth(depth: int, expanded: int, found: int) -> None:
            steps.emit(
                "walk",
                f"depth {depth}: {expanded} nodes expanded, {found} paths",
                depth=depth,
                expanded=expanded,
                paths=found,
            )

        with steps.step("walk", "walking the graph") as a:
            walk = self.c.walker.walk(
                seeds,
                dist,
                qhash=plan.qhash,
                budget=plan.budget,
                targets=targets,
                accept=walk_acceptor(dist, min_paths),
                on_depth=on_depth,
                calibrated=s.calibration,
            )
            a.update(
                expanded=walk.expanded,
                depth=walk.depth,
                stop_reason=walk.stop_reason,
                paths=len(walk.paths),
                goal_checks=walk.goal_checks,
                budget_nodes=plan.budget.max_nodes,
                budget_ms=plan.budget.max_ms,
                cache_hits=self.c.predictor.cache_hits,
            )
        result.stop_reason = walk.stop_reason
        paths = self._rank_paths(walk, dist, plan)
        with steps.step("review", "checking the paths") as a:
            threshold = 0.0 if plan.intent in {"mechanism", "overview"} else s.review_threshold
            verdict = review_paths(paths, threshold)
            a.update(accepted=verdict.accepted, confidence=round(verdict.confidence, 3))
        if not verdict.accepted:
            return self._literature(
                result, hits, explainer.no_path(plan.seeds[0].name, verdict.reason)
            )
        with steps.step("fuse", "fusing graph and passage evidence") as a:
            self._fill_from_paths(result, paths, plan, hits)
            a["answers"] = len(result.answers)
        if llm.enabled("review") and plan.intent in {"one_hop", "multi_hop"}:
            with steps.step("review", "LLM review") as a:
                check = llm.review(result.question, store.name)
                a["llm_supported"] = None if check is None else check.supported
            if check is not None and not check.supported and check.confidence >= 0.7:
                result.answers, result.paths = [], []
                result.evidence = [e for e in result.evidence if e.kind != "triple"]
                result.text = explainer.no_path(plan.seeds[0].name, "the reviewer rejected it")
                return result
        with steps.step("explain", "writing the answer"):
            what = self._what(plan)
            result.text = explainer.kg_answer(store, result.answers, result.paths, what)
            phrased = llm.explain(result.question, store.name) if llm.enabled("explain") else None
            if phrased:
                result.text = f"{phrased}\n\n{result.text}"
        result.status = Status.ANSWERED
        return result

    def _claim(self, plan: Plan, result: Result, steps: Steps) -> Result:
        store = self.c.store
        a_ent, b_ent = plan.seeds[0], plan.targets[0]
        rels = [r for c in plan.features.cues for r in c.rels]
        if not rels and plan.reading is not None:
            rels = plan.reading.claim_relations()
        with steps.step("review", "verifying the claim") as a:
            found: Triple | None = None
            for rel in rels or ["CtD"]:
                for use in directed_uses():
                    if use.rel != rel or use.src != a_ent.kind or use.dst != b_ent.kind:
                        continue
                    i, j = store.index[a_ent.id], store.index[b_ent.id]
                    if store.has_edge(i, use, j):
                        found = store.triple(i, use, j)
                        break
                if found:
                    break
            verdict = review_claim(found is not None)
            a.update(accepted=verdict.accepted, relations=rels)
        result.stop_reason = verdict.reason
        with steps.step("explain", "writing the answer"):
            if found is None:
                rel = rels[0] if rels else "CtD"
                result.text = explainer.claim_no(a_ent.name, verb_phrase(rel), b_ent.name)
                return result
            result.status = Status.ANSWERED
            result.answers = [Answer(id=b_ent.id, name=b_ent.name, score=1.0, kind=b_ent.kind)]
            result.evidence = [Evidence(kind="triple", triple=found, score=1.0, source="hetionet")]
            result.paths = [[found]]
            result.text = explainer.claim_yes(store, found)
        return result

    def _literature(
        self,
        result: Result,
        hits: list[PassageHit],
        kg_note: str = "",
        naming: list[str] | None = None,
        otherwise: str | None = None,
    ) -> Result:
        """Answer from passages that pass the relevance floor, labelled as literature after
        what the graph could not say (``kg_note``); else NOT_ANSWERED saying so
        (``otherwise``, by default the note itself)."""
        texts = self.c.store.passages([h.id for h in hits]) if hits else {}
        good = relevant(hits, texts={k: v[1] or "" for k, v in texts.items()}, naming=naming or ())
        self._attach_passages(result, hits, {h.id for h in good})
        if not good:
            result.text = otherwise or kg_note or explainer.nothing()
            result.stop_reason = result.stop_reason or (
                "no relevant passage" if hits else "nothing retrieved"
            )
            return result
        top = texts.get(good[0].id)
        title, text = (top[0], top[1]) if top else ("", "")
        snippet = text if len(text) < 400 else text[:400].rsplit(" ", 1)[0] + " …"
        docs = list(dict.fromkeys(doc_of(h.id) for h in good))
        answer = explainer.literature(title or good[0].id, snippet, len(good), docs)
        result.text = f"{kg_note}\n\n{answer}" if kg_note else answer
        result.status = Status.ANSWERED
        result.intent = "literature" if kg_note else result.intent
        result.stop_reason = "answered from passages"
        return result

    def _contained(self, phrases: list[str]) -> dict[str, list[str]]:
        """Node names spelled inside each phrase (exact aliases, as the linker reads them)."""
        linker = self.c.planner.linker
        return {
            p: [self.c.store.name(m.node_ids[0]) for m in linker.link(p, fallback=False).mentions]
            for p in phrases
        }

    def _dense_only(self, question: str, steps: Steps) -> Result:
        """Honest dense-only baseline: FAISS over passages and verbalised triples, no graph."""
        from engine.index.triples import load_or_build
        from engine.providers.embedder.cache import CachedEmbedder

        result = Result(question=question, status=Status.NOT_ANSWERED, mode="dense", intent="dense")
        with steps.step("dense", "dense search") as a:
            qvec = self._embed(question)
            hits = (
                self.c.dense_passages.search(question, qvec, self.c.settings.dense_top_n)
                if self.c.dense_passages
                else []
            )
            if self.c.triple_index is None and self.c.embedder is not None:
                stores = self.c.settings.stores_dir
                cache = CachedEmbedder(self.c.embedder, stores / "embeddings")
                try:
                    self.c.triple_index = load_or_build(
                        self.c.store, cache, stores / "triples.faiss"
                    )
                finally:
                    cache.close()
            triples = self.c.triple_index.search(qvec, 20)[0] if self.c.triple_index else []
            a.update(passages=len(hits), triples=len(triples))
        from rapidfuzz import fuzz

        answers: dict[str, float] = {}
        for key, score in triples:
            s_id, rel, o_id = key.split("\t")
            t: Triple = (s_id, rel, o_id)
            result.evidence.append(
                Evidence(kind="triple", triple=t, score=score, source="hetionet")
            )
            result.paths.append([t])
            ends = sorted(
                (s_id, o_id),
                key=lambda n: fuzz.partial_ratio(self.c.store.name(n).lower(), question.lower()),
            )
            answers.setdefault(ends[0], score)
        result.answers = [
            Answer(id=n, name=self.c.store.name(n), score=s, kind=self.c.store.kind(n))
            for n, s in answers.items()
        ]
        self._attach_passages(result, hits)
        if result.answers or hits:
            result.status = Status.ANSWERED
            result.text = (
                f"Dense retrieval: {', '.join(a.name for a in result.answers[:5])}"
                if result.answers
                else "Dense retrieval found passages."
            )
        return result

    # --- helpers -------------------------------------------------------------------------
    def _embed(self, text: str) -> Vectors:
        if self.c.embedder is None:
            raise RuntimeError("no embedder")
        return np.asarray(self.c.embedder.encode([text]), dtype=np.float32)

    def _overview_dist(self, kind: str) -> list[tuple[Metapath, float]]:
        uses = {u.key: u for u in directed_uses()}
        keys = [k for k in OVERVIEW_USES.get(kind, ()) if k in uses]
        if not keys:
            keys = [u.key for u in directed_uses() if u.src == kind][:4]
        weights = [1.0 / (i + 1) for i in range(len(keys))]
        z = sum(weights)
        return [(Metapath((uses[k],)), w / z) for k, w in zip(keys, weights, strict=True)]

    def _rank_paths(
        self, walk: WalkResult, dist: list[tuple[Metapath, float]], plan: Plan
    ) -> list[WalkPath]:
        prob = {mp.uses: p for mp, p in dist}
        best_found = max((prob.get(p.uses, 0.0) for p in walk.paths), default=0.0)
        # keep the readings that are nearly as likely as the best one found
        keep = [p for p in walk.paths if prob.get(p.uses, 0.0) >= 0.5 * best_found]
        return sorted(keep, key=lambda p: (-prob.get(p.uses, 0.0), -p.specificity, p.nodes))

    def _fill_from_paths(
        self, result: Result, paths: list[WalkPath], plan: Plan, hits: list[PassageHit]
    ) -> None:
        store, s = self.c.store, self.c.settings
        support: dict[str, float] = defaultdict(float)
        best: dict[str, float] = {}
        for p in paths:
            end = store.ids[p.end]
            score = p.conf * (0.8 + 0.2 * p.specificity)
            best[end] = max(best.get(end, 0.0), score)
            support[end] += 1
        if plan.intent == "mechanism" and plan.targets:
            tid = plan.targets[0].id
            best = {tid: max(best.values(), default=1.0)}
        top_support = max(support.values(), default=1.0)
        graph_scores = {n: b * (0.9 + 0.1 * support[n] / top_support) for n, b in best.items()}
        dense_scores = self._dense_mentions(list(graph_scores), hits)
        fused = (
            fuse(graph_scores, dense_scores, s.fusion, s.graph_weight)
            if dense_scores
            else sorted(graph_scores.items(), key=lambda kv: -kv[1])
        )
        result.answers = [
            Answer(id=n, name=store.name(n), score=round(sc, 4), kind=store.kind(n))
            for n, sc in fused
        ]
        result.paths = [p.triples(store) for p in paths[:MAX_PATHS]]
        seen: set[Triple] = set()
        order = {a.id: i for i, a in enumerate(result.answers)}
        ranked_paths = sorted(paths, key=lambda p: order.get(store.ids[p.end], 1 << 30))
        for p in ranked_paths:
            for t in p.triples(store):
                if t not in seen and len(seen) < MAX_TRIPLE_EVIDENCE:
                    seen.add(t)
                    result.evidence.append(
                        Evidence(kind="triple", triple=t, source="hetionet", score=round(p.conf, 4))
                    )
        self._attach_passages(result, hits)

    def _dense_mentions(self, nodes: list[str], hits: list[PassageHit]) -> dict[str, float]:
        """Dense support for graph answers: the best passage score among passages naming them."""
        if not hits or not nodes:
            return {}
        texts = self.c.store.passages([h.id for h in hits])
        out: dict[str, float] = {}
        for h in hits:
            body = (texts.get(h.id, ("", "", ""))[1] or "").lower()
            for n in nodes:
                name = self.c.store.name(n).lower()
                if len(name) > 3 and name in body:
                    out[n] = max(out.get(n, 0.0), h.dense)
        return out

    def _attach_passages(
        self, result: Result, hits: list[PassageHit], good: set[str] | None = None
    ) -> None:
        if not hits:
            return
        texts = self.c.store.passages([h.id for h in hits])
        if good is None:
            good = {h.id for h in relevant(hits)}
        for h in hits:
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

    def _dense_seed(self, plan: Plan, hits: list[PassageHit], steps: Steps) -> None:
        """Linking failed: look for the missing entity among entities named in top passages.

        A passage entity becomes a seed only if its name embeds within ``embed_accept`` of the
        unlinked mention; otherwise the question stays unanswered.
        """
        if self.c.embedder is None or not plan.unlinked:
            return
        with steps.step("dense", "seeding from passages") as a:
            texts = self.c.store.passages([h.id for h in hits[: self.c.settings.dense_top_n]])
            found: dict[str, str] = {}
            for _, text, _ in texts.values():
                for m in self.c.planner.linker.link(text, fallback=False).mentions:
                    if len(m.node_ids) == 1:
                        found.setdefault(m.node_ids[0], m.text)
            a["passage_entities"] = len(found)
            if not found:
                return
            ids = list(found)[:200]
            names = [self.c.store.name(n) for n in ids]
            vecs = self.c.embedder.encode([*plan.unlinked, *names])
            q, cand = vecs[: len(plan.unlinked)], vecs[len(plan.unlinked) :]
            sims = (cand @ q.T).max(axis=1)
            ranked = sorted(zip(ids, sims.tolist(), strict=True), key=lambda x: -x[1])
            seeds = [(n, s) for n, s in ranked if s >= self.c.settings.embed_accept]
            seeds = seeds[: self.c.settings.max_seeds_from_dense]
            a["seeds"] = [n for n, _ in seeds]
            if seeds:
                plan.seeds = [
                    LinkedEntity(
                        mention=plan.unlinked[0],
                        id=n,
                        name=self.c.store.name(n),
                        kind=self.c.store.kind(n),
                        score=float(s),
                        method="dense-seed",
                    )
                    for n, s in seeds
                ]
                plan.intent = "one_hop"
                plan.dist = self.c.planner.dist_for(plan.seeds[0].kind, plan)

    @staticmethod
    def _what(plan: Plan) -> str:
        seed = plan.seeds[0].name
        if plan.intent == "mechanism":
            return f"Mechanistic paths from {seed} to {plan.targets[0].name}"
        if plan.intent == "overview" or not plan.dist:
            return f"What the graph links to {seed}"
        what = describe_metapath(plan.dist[0][0], seed)
        return f"{what} ({plan.note})" if plan.note else what

    def _finish(
        self, result: Result, steps: Steps, *, memory: MemoryPort | None, session: str | None
    ) -> Result:
        if not supported(result):
            result.status = Status.NOT_ANSWERED
            result.text = f"{result.text}\n\n{explainer.unsupported()}".strip()
            result.stop_reason = "nothing supports an answer"
        if memory is not None and result.status == Status.ANSWERED and not result.cached:
            with steps.step("memory_read", "applying memory boosts") as a:
                boosts = memory.boosts(result.triples())
                a["boosted"] = len(boosts)
            if boosts:
                self._apply_boosts(result, boosts)
        if memory is not None:
            with steps.step("memory_write", "remembering the turn"):
                try:
                    memory.record(result.question, result, session)
                except Exception as exc:
                    log.error("memory write failed: %s", exc)
                    result.degraded.append(f"memory:{type(exc).__name__}")
        result.timings = {k: round(v, 3) for k, v in steps.timings.items()}
        result.latency_ms = round(steps.elapsed(), 3)
        return result

    @staticmethod
    def _apply_boosts(result: Result, boosts: dict[Triple, float]) -> None:
        factor: dict[str, float] = {}
        for t, f in boosts.items():
            for node in (t[0], t[2]):
                factor[node] = max(factor.get(node, 1.0), f)
        changed = False
        for a in result.answers:
            if a.id in factor and factor[a.id] > 1.0:
                a.score = round(a.score * factor[a.id], 4)
                changed = True
        for e in result.evidence:
            if e.triple in boosts:
                e.score = round(e.score * boosts[e.triple], 4)
        if changed:
            result.answers.sort(key=lambda a: -a.score)
            result.memory_boosted = True
