"""The agent loop: Planner -> Retriever -> Reviewer -> Explainer, with events and timings."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

import numpy as np

from engine.agent import explainer
from engine.agent.dense import DenseBaseline
from engine.agent.evidence import fill_from_paths, literature
from engine.agent.llm_hooks import LLMSession
from engine.agent.names import named_query, read_as
from engine.agent.overview import overview_dist
from engine.agent.plan import Plan
from engine.agent.planner import Planner, joining
from engine.agent.reviewer import (
    llm_vetoes,
    min_paths,
    path_floor,
    review_claim,
    review_paths,
    supported,
    walk_acceptor,
)
from engine.agent.sets import by_members, combined, counts, held, kept_to
from engine.agent.steps import Steps
from engine.agent.subtypes import SUBTYPE_REL, is_a_chain, through_subtype
from engine.agent.targets import lead_with_targets, own_targets
from engine.agent.therapy import PALLIATES, TREATS, TherapyGroups, in_groups
from engine.agent.unlinked import contained, dense_seed
from engine.config import Mode, Settings
from engine.events import EventSink
from engine.graph.edges import Calibration, LocalEdgePredictor
from engine.graph.metapaths import Metapath
from engine.graph.relations import DirectedRel, directed_uses, verb_phrase
from engine.graph.store import KGStore
from engine.graph.walk import Walker, WalkPath, WalkResult
from engine.index.dense import PassageHit, PassageRetriever
from engine.ingest.nearest import BROADER
from engine.ports import MemoryPort
from engine.providers.embedder.base import Embedder, Vectors
from engine.providers.llm import LanguageModel, LocalModel
from engine.ranking.answers import apply_boosts, rank_paths
from engine.ranking.presets import MODES, Fusion, RetrievalPreset
from engine.result import Answer, Evidence, LinkedEntity, Result, Status, Triple
from engine.understand.followup import substitute
from engine.understand.negation import denies_between
from engine.understand.sets import AMONG, ANY, BOTH, says
from engine.util.text import question_problem

log = logging.getLogger(__name__)


@dataclass
class Components:
    settings: Settings
    store: KGStore
    planner: Planner
    predictor: LocalEdgePredictor
    walker: Walker
    embedder: Embedder | None
    passages: PassageRetriever | None
    dense: DenseBaseline
    """The dense-only baseline (``mode="dense"``)."""
    fusion: Fusion
    """How graph answers and the passages naming them combine (``Fusion.of(settings)``)."""
    errors: list[str] = field(default_factory=list)
    """One sentence per part that could not be opened, naming the file and the fix."""
    degraded: list[str] = field(default_factory=list)
    """Codes of those parts (``index:passages``), copied into every result's ``degraded``."""
    llm: LanguageModel = field(default_factory=LocalModel)
    """The model asked for opinions: an endpoint, or the local pipeline (no opinion)."""
    llm_calibration: Calibration | None = None


def _as_stated(rel: str, a: LinkedEntity, b: LinkedEntity) -> tuple[LinkedEntity, LinkedEntity]:
    """The claim's two ends in the order the relation states them ("Hydrochlorothiazide causes
    Gout" however the question put them)."""
    forward = {(u.src, u.dst) for u in directed_uses() if u.rel == rel and not u.inverse}
    return (b, a) if (b.kind, a.kind) in forward and (a.kind, b.kind) not in forward else (a, b)


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
        among: Sequence[str] = (),
    ) -> Result:
        """``among``: keep the answers to these nodes (``Helix.ask``). Such an answer is no
        answer to the question alone, so it is neither read from nor written to the cache."""
        steps = Steps(on_event)
        mode = mode or self.c.settings.mode
        problem = question_problem(question, self.c.settings.max_question_chars)
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
        if among:
            result = self._answer(question, mode, None, choice, steps, session, among)
            result.id = qid
            return self._finish(result, steps, memory=None, session=session)
        if memory is not None and choice is None:
            with steps.step("memory_read", "checking the answer cache") as a:
                hit = memory.cached(question, mode)
                a["cache_hit"] = hit is not None
            if hit is not None:
                hit = hit.model_copy(update={"id": qid, "cached": True})
                return self._finish(hit, steps, memory=None, session=None)
        result = self._answer(question, mode, memory, choice, steps, session)
        result.id = qid
        return self._finish(result, steps, memory=memory, session=session)

    # --- pipeline ------------------------------------------------------------------------
    def _answer(
        self,
        question: str,
        mode: Mode,
        memory: MemoryPort | None,
        choice: str | None,
        steps: Steps,
        session: str | None = None,
        among: Sequence[str] = (),
        instead: bool = True,
    ) -> Result:
        """``question`` answered; ``instead``: a therapy question about a symptom may be asked
        again of the disease named by it (once: that question is not asked again in turn)."""
        preset = MODES[mode]
        if preset.baseline:
            return self.c.dense.answer(question, steps)
        text, plan = self._plan(question, choice, steps)
        if among:
            self._among(plan, among)
        result = Result(
            question=question,
            status=Status.NOT_ANSWERED,
            mode=mode,
            intent=plan.intent,
            linked=_named(plan),
        )
        if memory is not None:
            mem = self._recall(question, plan, mode, memory, steps, session)
            if mem is not None:
                return mem
        hits = (
            self._passages(question, plan, result, steps)
            if preset.passages and self.c.passages is not None
            else []
        )
        llm = LLMSession(self.c.llm, self.c.settings, result, self.c.llm_calibration)
        plan = self._clarify(question, text, plan, result, llm)
        result = self._by_intent(plan, result, hits, preset, steps, llm)
        if (
            plan.instead is not None
            and instead
            and (
                result.status is Status.NOT_ANSWERED or not (result.answers or plan.features.yes_no)
            )
        ):
            # passages beside "no path" are no answer to a therapy question the disease named
            # by its symptom answers ("what's used for a gout flare": gout)
            result = self._named_disease(question, plan, result, mode, steps, session)
        if notes := read_as(plan):
            result.understood.extend(notes)
            if result.intent == "claim" and result.text:
                # a yes/no question is answered yes or no first; how a name was read follows
                result.text = "\n\n".join((result.text, " ".join(notes)))
            else:
                result.text = "\n".join((*notes, result.text)) if result.text else "\n".join(notes)
        return result

    def _named_disease(
        self,
        question: str,
        plan: Plan,
        result: Result,
        mode: Mode,
        steps: Steps,
        session: str | None,
    ) -> Result:
        """A therapy or gene question about a symptom asked of the disease named by it ("meds
        for anxiety": anxiety disorder), said so; ``result`` when that has no answer either."""
        d, seed = plan.instead, plan.seeds[0]
        assert d is not None
        if not 0 <= seed.start < seed.end:
            return result
        again = self._answer(
            substitute(question, seed.start, seed.end, d.name),
            mode,
            None,
            None,
            steps,
            session,
            instead=False,
        )
        if again.status is not Status.ANSWERED:
            return result
        what = "genes" if plan.features.target_kind == "Gene" else "treatments"
        note = explainer.named_disease(seed.mention, seed.name, seed.kind, d.name, what)
        again.question, again.linked = question, [d, *again.linked[1:]]
        again.understood.insert(0, note)
        again.text = f"{note}\n{again.text}"
        return again

    def _among(self, plan: Plan, among: Sequence[str]) -> None:
        """A plan with a one-hop relation to the kind of ``among`` keeps to it and to those
        nodes."""
        store = self.c.store
        kinds = {store.kind(n) for n in among if n in store.index}
        if plan.set_op is not None or len(kinds) != 1 or not plan.seeds:
            return
        # the relation itself, not a longer walk that ends at one of them
        direct = [(mp, w) for mp, w in plan.dist if len(mp) == 1 and mp.uses[0].dst in kinds]
        if not direct:
            return
        plan.dist = direct
        plan.members = [
            LinkedEntity(
                mention=store.name(n),
                id=n,
                name=store.name(n),
                kind=store.kind(n),
                score=1.0,
                method="user",
            )
            for n in among
            if n in store.index
        ]
        plan.set_op = AMONG
        plan.members_said = f"the last {len(plan.members)} answers"

    def _plan(self, question: str, choice: str | None, steps: Steps) -> tuple[str, Plan]:
        """The question respelled (same length: offsets hold for both), linked and planned."""
        text = self.c.planner.respell(question)
        with steps.step("link", "linking entities") as a:
            linked = self.c.planner.link(text)
            a["mentions"] = [m.text for m in linked.mentions]
            if text != question:
                a["respelled"] = text
        with steps.step("plan", "reading the question") as a:
            plan = self.c.planner.plan(text, choice, linked)
            a.update(
                intent=plan.intent,
                seeds=[e.id for e in plan.seeds],
                mentions=[m.text for m in plan.link.mentions],
                unlinked=plan.unlinked,
            )
        return text, plan

    @staticmethod
    def _recall(
        question: str,
        plan: Plan,
        mode: Mode,
        memory: MemoryPort,
        steps: Steps,
        session: str | None = None,
    ) -> Result | None:
        """The user's memory's answer to the question, if it has one, read in the
        conversation ``session`` (its patient is the one "her" stands for)."""
        with steps.step("memory_read", "looking in your memory") as a:
            mem = memory.answer(question, plan.seeds + plan.targets, session)
            a["hit"] = mem is not None
        if mem is not None:
            mem.intent = mem.intent or "memory"
            mem.mode = mode
        return mem

    def _passages(
        self, question: str, plan: Plan, result: Result, steps: Steps
    ) -> list[PassageHit]:
        """Passages for the question; a dense outage degrades to graph-only (no passages)."""
        assert self.c.passages is not None
        hits: list[PassageHit] = []
        with steps.step("dense", "searching passages") as a:
            try:
                reading = plan.reading
                qvec = (
                    reading.question_vec
                    if reading is not None and reading.question_vec is not None
                    else self._embed(question)
                )
                # the words searched carry the graph's names of what was said otherwise (the
                # lexical half finds "type 2 diabetes mellitus" for "T2DM"); the meaning
                # searched is the question's own
                query = named_query(
                    question,
                    # a broader disease's name would find passages about another disease
                    [e for e in (*plan.seeds, *plan.targets) if not _read_broader(plan, e)],
                )
                hits = self.c.passages.search(query, qvec, self.c.settings.dense_top_n)
                a["query"] = query
            except Exception as exc:
                log.error("dense retrieval failed: %s", exc)
                result.degraded.append(f"dense:{type(exc).__name__}")
            a["passages"] = len(hits)
        return hits

    def _clarify(
        self, question: str, text: str, plan: Plan, result: Result, llm: LLMSession
    ) -> Plan:
        """A mention the planner would ask about, as the model reads it: the sense the
        question makes clear (planned again with it), or its own question and options."""
        relation_question = any(c.kind == "Relation" for c in plan.candidates)
        if plan.intent != "clarify" or not llm.enabled("clarify") or relation_question:
            return plan
        mention = plan.clarification.split("'")[1] if plan.clarification else ""
        decision = llm.clarify(question, mention, plan.candidates)
        if decision is not None and not decision.ambiguous and decision.choice:
            plan = self.c.planner.plan(text, decision.choice)
            result.intent, result.linked = plan.intent, _named(plan)
        elif decision is not None and decision.question:
            plan.clarification = decision.question
            plan.candidates = [
                c for c in plan.candidates if c.id in decision.options
            ] or plan.candidates
        return plan

    def _by_intent(
        self,
        plan: Plan,
        result: Result,
        hits: list[PassageHit],
        preset: RetrievalPreset,
        steps: Steps,
        llm: LLMSession,
    ) -> Result:
        """The answer the plan's intent calls for."""
        c = self.c
        if plan.intent == "clarify":
            result.status = Status.NEEDS_CLARIFICATION
            result.clarification = plan.clarification
            result.candidates = plan.candidates
            result.text = explainer.clarify(plan.clarification or "")
            result.stop_reason = "ambiguous mention"
            return result
        if plan.intent == "not_found" and preset.passages and hits:
            dense_seed(
                plan,
                hits,
                steps,
                store=c.store,
                planner=c.planner,
                embedder=c.embedder,
                settings=c.settings,
            )
        if plan.intent == "not_found":
            inside = contained(c.store, c.planner, plan.unlinked)
            note = explainer.not_found(plan.unlinked, inside)
            result.stop_reason = "entity not in graph"
            return self._literature(result, hits, note, naming=plan.unlinked)
        if plan.intent == "not_english":
            result.stop_reason = "not in English"
            result.text = explainer.not_english()
            return result
        if plan.intent == "out_of_scope" and plan.scope is not None:
            result.stop_reason = "out of scope"
            named = [(e.name, e.kind) for e in plan.seeds]
            note = explainer.out_of_scope(plan.scope.topic.says, named)
            if not plan.seeds:
                result.text = note
                return result
            # passages that name the question's entities may still speak to it
            return self._literature(result, hits, note, naming=[e.mention for e in plan.seeds])
        if plan.intent == "claim":
            return self._claim(plan, result, steps)
        if plan.intent == "no_relation":
            result.stop_reason = "no matching relation"
            names = [e.name for e in plan.seeds]
            note = explainer.no_path(
                names[0], plan.note or "none of its relations matches the question"
            )
            return self._literature(
                result,
                hits,
                note,
                # a reason the planner gave (a therapy of a symptom) is said; else what was read
                otherwise=note if plan.note else explainer.understood(names),
                **self._held_to(plan),
            )
        if plan.intent in {"one_hop", "multi_hop", "mechanism", "overview"}:
            return self._graph(plan, result, hits, steps, llm)
        names = [e.name for e in plan.seeds]
        otherwise: str | None
        if plan.intent == "literature" and names:
            otherwise = explainer.no_study([e.name for e in [*plan.seeds, *plan.targets]])
        else:
            otherwise = explainer.understood(names) if names else None
        return self._literature(result, hits, otherwise=otherwise, **self._held_to(plan))

    def _acts_on(self, plan: Plan, result: Result, steps: Steps) -> Result | None:
        """How a drug works in a disease no path joins it to ("rituximab in lymphoma"): what
        the drug acts on, said so; None when the graph records no target of it either."""
        drug, disease = plan.seeds[0], plan.targets[0] if plan.targets else None
        if disease is None or drug.kind != "Compound":
            return None
        mode = cast(Mode, result.mode or "hybrid")
        again = self._answer(
            f"which genes does {drug.name} bind", mode, None, None, steps, instead=False
        )
        if again.status is not Status.ANSWERED or not again.answers:
            return None
        note = (
            f"No path in the graph joins what {drug.name} acts on to {disease.name}; "
            f"what it acts on is this."
        )
        again.question, again.intent = result.question, "mechanism"
        again.linked = [drug, disease]
        again.understood.insert(0, note)
        again.text = f"{note}\n{again.text}"
        return again

    def _held_to(self, plan: Plan) -> dict[str, Any]:
        """What a passage answering ``plan``'s question must name: its drugs."""
        return {"about": named_as(plan, self.c.store)}

    def _literature(
        self, result: Result, hits: list[PassageHit], note: str = "", **kw: Any
    ) -> Result:
        """``evidence.literature`` with this engine's store and embedder."""
        return literature(result, self.c.store, hits, note, embedder=self.c.embedder, **kw)

    # --- intents -------------------------------------------------------------------------
    def _graph(
        self, plan: Plan, result: Result, hits: list[PassageHit], steps: Steps, llm: LLMSession
    ) -> Result:
        store, s = self.c.store, self.c.settings
        seed = plan.seeds[0]
        at = store.index.get(seed.id)
        dist = plan.dist or overview_dist(
            seed.kind, None if at is None else (lambda u: store.degree(at, u) > 0)
        )
        dist = self._predict(plan, result, dist, steps, llm)
        if plan.set_op == AMONG:
            walk = kept_to(self._walk(plan, dist, steps), plan.members, store.ids)
            if not walk.paths:
                return self._none_among(plan, result, hits)
        elif plan.set_op is not None:
            walk = self._set_walk(plan, dist, steps)
            if not walk.paths:
                return self._none_in_set(plan, result, hits)
        else:
            walk = self._walk(plan, dist, steps)
        result.stop_reason = walk.stop_reason
        paths = rank_paths(walk.paths, dist)
        if plan.excluded:
            apart = {e.id for e in plan.excluded}
            paths = [p for p in paths if store.ids[p.end] not in apart]
        with steps.step("review", "checking the paths") as a:
            verdict = review_paths(paths, path_floor(plan.intent, s.review_threshold))
            a.update(accepted=verdict.accepted, confidence=round(verdict.confidence, 3))
        if not verdict.accepted:
            note = explainer.no_path(plan.seeds[0].name, verdict.reason)
            asked = dict.fromkeys(u.rel for mp, _ in dist[:1] for u in mp.uses)
            if sampled := [(r, store.sampled[r]) for r in asked if r in store.sampled]:
                # "where is CFTR expressed": the graph holds a sample of those edges
                note = f"{note}\n\n{explainer.sampled_missing(sampled)}"
            if plan.intent == "one_hop" and (
                held := explainer.held_instead(store, seed.id, set(asked))
            ):
                # "what is apixaban used for": no indication recorded, its targets are
                note = f"{note}\n\n{held}"
            if plan.intent == "mechanism" and (acts := self._acts_on(plan, result, steps)):
                return acts
            return self._literature(result, hits, note, **self._held_to(plan))
        with steps.step("fuse", "fusing graph and passage evidence") as a:
            target = plan.targets[0].id if plan.intent == "mechanism" and plan.targets else None
            fill_from_paths(result, store, self.c.fusion, paths, target, hits)
            if target is not None:
                lead_with_targets(result, store, own_targets(store, seed.id, target))
            if plan.set_held:
                by_members(result, plan.set_held)
            a["answers"] = len(result.answers)
        groups = self._therapy_order(result, paths) if plan.therapy and not plan.members else None
        if self._vetoed(plan, result, steps, llm):
            return result
        self._explain(plan, result, steps, llm, groups)
        if plan.definition:
            self._defined(result, seed)
        result.status = Status.ANSWERED
        return result

    def _defined(self, result: Result, seed: LinkedEntity) -> None:
        """A question of what one thing is: the thing first among the answers, and its
        definition (or its kind and classes) before the overview."""
        store = self.c.store
        top = max((a.score for a in result.answers), default=1.0)
        result.answers = [
            Answer(id=seed.id, name=seed.name, score=top, kind=seed.kind, why="the thing asked")
        ] + [a for a in result.answers if a.id != seed.id]
        i = store.index[seed.id]
        member = DirectedRel("PCiC", True, "Compound", "Pharmacologic Class")
        classes = (
            [store.name(store.ids[j]) for j in store.neighbors(i, member).tolist()]
            if seed.kind == "Compound"
            else []
        )
        said = explainer.definition(seed.name, seed.kind, store.description(seed.id), classes)
        result.text = f"{said}\n\n{result.text}"

    def _set_walk(self, plan: Plan, dist: list[tuple[Metapath, float]], steps: Steps) -> WalkResult:
        """The walk from each of a set question's entities, combined (``agent.sets``)."""
        assert plan.set_op is not None
        walks = [self._walk(replace(plan, seeds=[e]), dist, steps) for e in plan.members]
        ids = self.c.store.ids
        plan.set_counts = counts(walks, lambda p: ids[p.end])
        if plan.set_op == ANY:
            plan.set_held = held(walks, lambda p: ids[p.end])
        return combined(plan.set_op, walks, lambda p: ids[p.end])

    def _none_among(self, plan: Plan, result: Result, hits: list[PassageHit]) -> Result:
        """A question of which listed things hold, none of which does: said so."""
        top = plan.dist[0][0] if plan.dist else None
        what = explainer.headline(plan.intent, plan.seeds[0].name, top, None)
        result.stop_reason = "no answer holds for the set"
        names = [plan.members_said] if plan.members_said else [e.name for e in plan.members]
        note = explainer.none_among(what, names)
        return self._literature(result, hits, note)

    def _none_in_set(self, plan: Plan, result: Result, hits: list[PassageHit]) -> Result:
        """A set question none of whose answers holds: said with how many each entity has."""
        assert plan.set_op is not None
        top = plan.dist[0][0] if plan.dist else None
        names = [e.name for e in plan.members]
        what = explainer.headline(
            plan.intent, says(plan.set_op, names), top, None, many=plan.set_op == BOTH
        )
        result.stop_reason = "no answer holds for the set"
        note = explainer.none_in_set(what, [e.name for e in plan.members], plan.set_counts)
        return self._literature(result, hits, note)

    def _therapy_order(self, result: Result, paths: list[WalkPath]) -> TherapyGroups:
        """A therapy answer's drugs (or diseases) in two groups, those it treats first."""
        ids = self.c.store.ids
        treated = {ids[p.end] for p in paths if p.uses and p.uses[0].rel == TREATS}
        groups, result.paths = in_groups(result.answers, result.paths, treated)
        result.answers = [*groups.treats, *groups.palliates]
        return groups

    def _predict(
        self,
        plan: Plan,
        result: Result,
        dist: list[tuple[Metapath, float]],
        steps: Steps,
        llm: LLMSession,
    ) -> list[tuple[Metapath, float]]:
        """The walk's metapath distribution, the model's relation scores blended in (a blend
        marks the plan's hash, so the predictor's cache keeps the two apart)."""
        seed = plan.seeds[0]
        with steps.step("predict_edges", "scoring relations") as a:
            if plan.intent in {"one_hop", "multi_hop"} and llm.enabled("edges"):
                blended = llm.edge_dist(result.question, seed.name, seed.kind, dist)
                a["llm"] = blended is not None
                if blended is not None:
                    dist = blended
                    plan.qhash = f"{plan.qhash}:llm"
            first = self.c.predictor.predict(
                plan.qhash, seed.id, seed.kind, (), dist, self.c.settings.calibration
            )
            a["top"] = [(u.key, round(p, 3)) for u, p in first]
        return dist

    def _walk(self, plan: Plan, dist: list[tuple[Metapath, float]], steps: Steps) -> WalkResult:
        """The budgeted walk from the plan's seeds (towards its targets, if any)."""
        store, walker = self.c.store, self.c.walker
        seeds = [store.index[e.id] for e in plan.seeds if e.id in store.index]
        targets = {store.index[e.id] for e in plan.targets if e.id in store.index} or None

        def on_depth(depth: int, expanded: int, found: int) -> None:
            steps.emit(
                "walk",
                f"depth {depth}: {expanded} nodes expanded, {found} paths",
                depth=depth,
                expanded=expanded,
                paths=found,
            )

        with steps.step("walk", "walking the graph") as a:
            walk = walker.walk(
                seeds,
                dist,
                qhash=plan.qhash,
                targets=targets,
                accept=walk_acceptor(dist, min_paths(plan.intent)),
                on_depth=on_depth,
                calibrated=self.c.settings.calibration,
            )
            a.update(
                expanded=walk.expanded,
                depth=walk.depth,
                stop_reason=walk.stop_reason,
                paths=len(walk.paths),
                goal_checks=walk.goal_checks,
                budget_nodes=walker.budget.max_nodes,
                budget_ms=walker.budget.max_ms,
                cache_hits=self.c.predictor.cache_hits,
            )
        return walk

    def _vetoed(self, plan: Plan, result: Result, steps: Steps, llm: LLMSession) -> bool:
        """Whether the model's review rejects the answer (then the result says so, without
        the answers, paths and triples)."""
        if not llm.enabled("review") or plan.intent not in {"one_hop", "multi_hop"}:
            return False
        with steps.step("review", "LLM review") as a:
            check = llm.review(result.question, self.c.store.name)
            a["llm_supported"] = None if check is None else check.supported
        if check is None or not llm_vetoes(check.supported, check.confidence):
            return False
        result.answers, result.paths = [], []
        result.evidence = [e for e in result.evidence if e.kind != "triple"]
        result.text = explainer.no_path(plan.seeds[0].name, "the reviewer rejected it")
        return True

    def _explain(
        self,
        plan: Plan,
        result: Result,
        steps: Steps,
        llm: LLMSession,
        groups: TherapyGroups | None = None,
    ) -> None:
        """The answer's text: the template's (in ``groups`` for a therapy question), after the
        model's phrasing when it gives one."""
        store = self.c.store
        with steps.step("explain", "writing the answer"):
            what = explainer.headline(
                plan.intent,
                (
                    says(plan.set_op, [e.name for e in plan.members])
                    if plan.set_op not in (None, AMONG)
                    else plan.seeds[0].name
                ),
                plan.dist[0][0] if plan.dist else None,
                plan.targets[0].name if plan.intent == "mechanism" else None,
                _besides(plan),
                many=plan.set_op == BOTH,
            )
            if groups is not None:
                seed = plan.seeds[0]
                result.text = explainer.therapy_answer(
                    store,
                    groups.treats,
                    groups.palliates,
                    result.paths,
                    seed.name,
                    seed.kind,
                    _besides(plan),
                )
            else:
                result.text = explainer.kg_answer(store, result.answers, result.paths, what)
            if plan.set_op == AMONG and not plan.members_said:
                result.text = explainer.among_note(
                    result.text, plan.members, {a.id for a in result.answers}
                )
            rels = dict.fromkeys(t[1] for p in result.paths for t in p)
            if sampled := [(r, store.sampled[r]) for r in rels if r in store.sampled]:
                result.text = f"{result.text}\n\n{explainer.sampled_note(sampled)}"
            phrased = llm.explain(result.question, store.name) if llm.enabled("explain") else None
            if phrased:
                result.text = f"{phrased}\n\n{result.text}"

    def _claim(self, plan: Plan, result: Result, steps: Steps) -> Result:
        store = self.c.store
        a_ent, b_ent = plan.seeds[0], plan.targets[0]
        joins = joining(store, a_ent, b_ent)
        # the relation the words name, when it joins the two ends; else the one the reading
        # makes most probable that does ("CFTR mutations cause cystic fibrosis": associates)
        rels = [r for c in plan.features.cues for r in c.rels if r in joins]
        if not rels and says_is_a(plan.question, a_ent, b_ent):
            # "is ulcerative colitis a kind of IBD": the hierarchy; "is atorvastatin a
            # statin": the class's members
            if a_ent.kind == b_ent.kind == "Disease":
                rels = [SUBTYPE_REL]
            elif {a_ent.kind, b_ent.kind} == {"Compound", CLASS_KIND}:
                rels = [MEMBER_REL]
        if not rels and plan.reading is not None:
            rels = [r for r in plan.reading.claim_relations() if r in joins][:1]
        asked = rels or ["CtD"]
        if TREATS in asked and PALLIATES not in asked:
            # "does X treat Y": a drug the graph records as relieving Y treats it in the
            # asker's sense; the answer names the edge it found
            asked = [*asked, PALLIATES]
        with steps.step("review", "verifying the claim") as a:
            found: Triple | None = None
            for rel in asked:
                for use in directed_uses():
                    if use.rel != rel or use.src != a_ent.kind or use.dst != b_ent.kind:
                        continue
                    i, j = store.index[a_ent.id], store.index[b_ent.id]
                    if store.has_edge(i, use, j):
                        found = store.triple(i, use, j)
                        break
                if found:
                    break
            members: list[Triple] = []
            if found is None and a_ent.kind == CLASS_KIND:
                members = class_edges(store, a_ent.id, b_ent, asked)
            chain = (
                [] if found is not None or members else _in_hierarchy(store, a_ent, b_ent, asked)
            )
            verdict = review_claim(found is not None or bool(members) or bool(chain))
            a.update(accepted=verdict.accepted, relations=rels)
        result.stop_reason = verdict.reason
        denied = denies_between(plan.question, (a_ent.start, a_ent.end), (b_ent.start, b_ent.end))
        with steps.step("explain", "writing the answer"):
            if found is None and members and not denied:
                total = len(store.objects(a_ent.id, "PCiC"))
                result.status = Status.ANSWERED
                result.answers = [Answer(id=b_ent.id, name=b_ent.name, score=1.0, kind=b_ent.kind)]
                result.paths = [[(a_ent.id, "PCiC", t[0]), t] for t in members]
                result.evidence = [
                    Evidence(kind="triple", triple=t, score=1.0) for p in result.paths for t in p
                ]
                result.text = explainer.claim_class_yes(store, a_ent.id, total, members)
                return result
            if found is None and chain:
                result.status = Status.ANSWERED
                result.answers = [Answer(id=b_ent.id, name=b_ent.name, score=1.0, kind=b_ent.kind)]
                result.paths = [chain]
                result.evidence = [Evidence(kind="triple", triple=t, score=1.0) for t in chain]
                result.text = explainer.claim_on_path(store, chain, denied)
                return result
            if found is None:
                rel = rels[0] if rels else "CtD"
                say = explainer.claim_denial_unrecorded if denied else explainer.claim_no
                subject, obj = _as_stated(rel, a_ent, b_ent)
                result.text = say(subject.name, verb_phrase(rel), obj.name)
                if rel in store.sampled:
                    note = explainer.sampled_missing([(rel, store.sampled[rel])])
                    result.text = f"{result.text}\n\n{note}"
                return result
            result.status = Status.ANSWERED
            result.answers = [Answer(id=b_ent.id, name=b_ent.name, score=1.0, kind=b_ent.kind)]
            result.evidence = [Evidence(kind="triple", triple=found, score=1.0, source="hetionet")]
            result.paths = [[found]]
            say_found = explainer.claim_contradicted if denied else explainer.claim_yes
            result.text = say_found(store, found)
            wider = [(e.mention, e.name) for e in (a_ent, b_ent) if _read_broader(plan, e)]
            if wider and not denied:
                # a claim about a kind of disease the graph lacks is not confirmed by one
                # about the broader disease ("allopurinol treats acute gout attacks")
                said, name = wider[0]
                result.text = (
                    f"I can't confirm that for '{said}' itself: the knowledge graph has no "
                    f"node for it. It records this for {name}, the broader disease:\n\n"
                    f"{result.text}"
                )
        return result

    # --- helpers -------------------------------------------------------------------------
    def _embed(self, text: str) -> Vectors:
        if self.c.embedder is None:
            raise RuntimeError("no embedder")
        return np.asarray(self.c.embedder.encode([text]), dtype=np.float32)

    def _finish(
        self, result: Result, steps: Steps, *, memory: MemoryPort | None, session: str | None
    ) -> Result:
        if not supported(result):
            result.status = Status.NOT_ANSWERED
            result.text = f"{result.text}\n\n{explainer.unsupported()}".strip()
            result.stop_reason = "nothing supports an answer"
        if memory is not None and result.status == Status.ANSWERED and not result.cached:
            with steps.step("memory_read", "applying memory boosts") as a:
                boosts = memory.boosts(result.triples(), result.question)
                a["boosted"] = len(boosts)
            if boosts:
                apply_boosts(result, boosts)
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


def _besides(plan: Plan) -> str:
    """The plan's note, with the names it sets apart ("besides epilepsy syndrome")."""
    names = dict.fromkeys(e.name for e in plan.excluded)
    apart = plan.excluded_said or (f"besides {', '.join(names)}" if names else "")
    return "; ".join(x for x in (plan.note, apart) if x)


STUDIED_KINDS = frozenset({"Compound", "Pharmacologic Class"})
"""The kinds of entity a study question is about first (the drug whose evidence is asked for):
a passage answering it names them. Other names of a long question (a setting, a symptom read
from a common word) are often written otherwise in the abstract that answers it."""


_IS_A = re.compile(
    r"^\W*(?:(?:is|are|was)\W+)?(?:(?:an?|one)\W+)?"
    r"(?:(?:kind|type|form|sort|subtype|variety)s?\W+of\W+)?(?:an?\W+)?$",
    re.IGNORECASE,
)


def says_is_a(question: str, a: LinkedEntity, b: LinkedEntity) -> bool:
    """The question says that one disease is another, with nothing but a copula and an
    article between them ("is melanoma a skin cancer", "melanoma is a skin cancer, right?")."""
    first, second = sorted((a, b), key=lambda e: e.start)
    between = question[first.end : second.start]
    return (
        first.end <= second.start
        and any(c.isalpha() for c in between)
        and bool(_IS_A.match(between + " "))
    )


def _in_hierarchy(
    store: KGStore, a: LinkedEntity, b: LinkedEntity, asked: list[str]
) -> list[Triple]:
    """A claim the disease hierarchy bears out: one disease a subtype of the other, some
    steps up ("is melanoma a kind of cancer"), or a drug's edge of the asked relations to a
    subtype of the disease named ("does metformin treat diabetes": type 2 diabetes mellitus).
    Empty when it bears out neither."""
    if a.kind == b.kind == "Disease":
        return is_a_chain(store, a.id, b.id) if SUBTYPE_REL in asked else []
    if b.kind != "Disease" or a.kind == "Disease":
        return []
    uses = [
        u
        for rel in asked
        for u in directed_uses()
        if u.rel == rel and u.src == a.kind and u.dst == "Disease" and not u.inverse
    ]
    return through_subtype(store, a.id, uses, b.id)


def named_as(plan: Plan, store: KGStore) -> list[list[str]]:
    """The question's drugs (``STUDIED_KINDS``), each by the names a passage about it may use:
    as typed, as the graph calls it and its aliases."""
    return [
        list(dict.fromkeys(n for n in (e.mention, e.name, *store.aliases_of(e.id)) if n))
        for e in {e.id: e for e in [*plan.seeds, *plan.targets]}.values()
        if e.kind in STUDIED_KINDS
    ]


CLASS_KIND = "Pharmacologic Class"
MEMBER_REL = "PCiC"


def class_edges(store: KGStore, cls: str, target: LinkedEntity, rels: list[str]) -> list[Triple]:
    """A drug class's members' edges of the asked relations to ``target`` ("do statins cause
    myopathy": the statins that cause it), the first relation that any member has, members by
    name."""
    j = store.index[target.id]
    drugs = sorted(store.objects(cls, "PCiC"), key=lambda d: store.name(d).lower())
    for rel in rels:
        uses = [
            u
            for u in directed_uses()
            if u.rel == rel and u.src == "Compound" and u.dst == target.kind
        ]
        found = [
            store.triple(store.index[d], u, j)
            for d in drugs
            for u in uses
            if store.has_edge(store.index[d], u, j)
        ]
        if found:
            return found
    return []


def _named(plan: Plan) -> list[LinkedEntity]:
    """The entities a plan was read from: its seeds and targets, then the other names a set
    question set beside its seed ("genes shared by crohns and UC": ulcerative colitis too)."""
    ends = plan.seeds + plan.targets
    ids = {e.id for e in ends}
    return ends + [m for m in plan.members if m.id not in ids and m.start >= 0]


def _read_broader(plan: Plan, e: LinkedEntity) -> bool:
    """``e`` was read as the broader disease of a longer phrase the graph has no name for."""
    return any(
        m.text == e.mention and m.candidates and all(c.source == BROADER for c in m.candidates)
        for m in plan.link.mentions
    )
