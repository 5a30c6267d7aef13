"""Planner: link entities, read the question's form, choose seeds and a metapath distribution.

Senses are resolved by structure, not by string (``senses``): a mention left with several
candidates after that becomes a clarifying question.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Literal

from engine.agent import senses
from engine.agent.plan import Plan
from engine.graph.metapaths import Metapath, enumerate_metapaths, mechanism_metapaths
from engine.graph.relations import DirectedRel
from engine.graph.store import KGStore
from engine.graph.walk import Budget
from engine.result import Candidate, LinkedEntity
from engine.understand.bank import is_relation_word
from engine.understand.cueshare import shared_relations, widen
from engine.understand.datarel import DataVocabulary
from engine.understand.form import (
    YES_NO_START,
    asked_span,
    asks_for_things,
    asks_to_check,
    is_wh_question,
    is_yes_no,
)
from engine.understand.lexicon import COMPILED_CUES, is_structural
from engine.understand.linking import Linker, example_asides, examples
from engine.understand.mentions import LinkResult, Mention
from engine.understand.negation import is_negated, negated_spans
from engine.understand.parse import Features, features
from engine.understand.pathfit import order_cues, score_metapath
from engine.understand.reading import (
    SEM_ACCEPT,
    SEM_GRAPH,
    Reading,
    close_pair,
    phrase,
    relation_question,
)
from engine.understand.semantic import SemanticScorer, masked
from engine.understand.spelling import Speller
from engine.util.numeric import softmax

PARSE_TEMPERATURE = 0.5
"""Softmax temperature over parse scores: a cue's weight (1.0) apart is a clear preference."""
MIN_PARSE_SCORE = -1.5
"""Below this the best metapath leaves cues unexplained: the question is not a graph question."""
MAX_UNCOVERED = 2
"""A question with more words beyond its names, cues and function words says more than a
graph question: it needs a confident reading to be read as one."""
_EXISTENTIAL = re.compile(r"\b(?:is|are)\s+there\b", re.IGNORECASE)
"""A question whether there is something ("Are there brain changes in X?")."""
CONTRACTIONS = frozenset({"m", "d", "s", "ll", "re", "ve", "t"})
"""What is left of "I'm", "I'd", "it's", "we'll" ... once the tokenizer splits at the apostrophe."""
LEXICON_CONFIDENT = 1.0
"""A parse at least this good explains the question's cues by itself (a strong cue read in
order, the asked kind reached); below it the exemplar bank's reading is added."""
SEM_LIFT = 1.0
"""How far a confidently read relation is put above the best lexicon parse."""
TIE = 1e-6
"""Lexicon parses this close in score are a tie the cue words leave open."""
RELATION_CHOICE = "relation:"
"""Prefix of a ``choice`` that answers a relation clarification ("relation:CpD^-1")."""
TOP_PARSES = 60
"""Parses a metapath distribution is made of, best first: the rest would carry no weight."""
MIN_PROBABILITY = 1e-4
"""A metapath less probable than this leaves the distribution: not worth a walk."""
QHASH_CHARS = 16
"""Hex digits of a question's hash (64 bits): enough to tell questions apart in traces."""
ONE_HOP = 1
"""Length of the metapaths of a single relation."""
MAX_UNLINKED = 2
"""A question naming a relation or the kind it asks for and at most this many phrases that
link to nothing asks about something the graph lacks; more is no question about one thing."""
NOT_FOUND_TOKENS = 16
"""Such a question (above) is one about something missing only when at most this long."""
OVERVIEW_TOKENS = 12
"""A question about an entity that no relation explains asks for its overview ("Tell me
about X") when at most this many tokens long; a longer one is a literature question."""

Reader = Callable[[str, Sequence[tuple[Mention, list[str]]]], Reading | None]
"""What a question means (None: no reading), given the nodes each mention may mean."""


class Planner:
    def __init__(
        self,
        store: KGStore,
        linker: Linker,
        budget: Budget,
        semantic: SemanticScorer | None = None,
        *,
        speller: Speller | None = None,
        reader: Reader | None = None,
        data: DataVocabulary | None = None,
    ) -> None:
        """``reader`` reads what a question means (default: ``read``, by the ``semantic``
        scorer's exemplar bank); ``data`` is the store's data vocabulary (default: read from
        ``store``)."""
        self.store = store
        self.linker = linker
        self.budget = budget
        self.semantic = semantic
        self.reader: Reader = reader if reader is not None else self.read
        """Reads what a question means (``read`` unless given)."""
        self.mechanisms = mechanism_metapaths(store.rephetio_metapaths())
        """Rephetio's Compound->Disease metapaths with their (positive) model weights."""
        self.data = data if data is not None else DataVocabulary.of(store)
        """Relations, relation words and action types the store's layers bring."""
        self.shared = (
            shared_relations(COMPILED_CUES, semantic.bank.slots) if semantic is not None else {}
        )
        """Cue pattern -> the further relations whose exemplar wordings use its word, each with
        the share of the cue's weight it gets."""
        self.speller = speller
        """Corrects typos of question words before linking (``respell``)."""

    def entity(self, m: Mention, node_id: str) -> LinkedEntity:
        method: Literal["exact", "fuzzy", "embedding"] = (
            m.method if m.method in ("fuzzy", "embedding") else "exact"  # type: ignore[assignment]
        )
        return LinkedEntity(
            mention=m.text,
            id=node_id,
            name=self.store.name(node_id),
            kind=self.store.kind(node_id),
            score=m.score,
            method=method,
            start=m.start,
            end=m.end,
        )  # type: ignore[arg-type]

    # --- structure -------------------------------------------------------------------
    def parses(
        self, kind: str, m: Mention, f: Features, reading: Reading | None = None
    ) -> list[tuple[Metapath, float]]:
        """Metapaths from ``kind`` scored by the lexicon cues plus, with a reading, the log
        probability the exemplar bank gives their first relation. With a reading, a single
        relation is also supported by the cue words its exemplar wordings share
        (``cueshare``), so that meaning decides between the relations a word serves; a chain
        only by the relations the cue tables name."""
        cues = order_cues(f.cues, m.start, m.end)
        wide = (
            [widen(c, COMPILED_CUES, self.shared) for c in cues]
            if self.shared and reading is not None
            else cues
        )
        hops = reading.first_hops(kind) if reading is not None else {}
        return sorted(
            (
                (
                    mp,
                    score_metapath(
                        mp,
                        wide if len(mp) == ONE_HOP else cues,
                        f.target_kind,
                        f.share,
                        noun_chain=f.noun_chain,
                    )
                    + (reading.bonus(mp, hops) if reading is not None else 0.0),
                )
                for mp in enumerate_metapaths(kind, self.budget.max_depth, self.data.uses)
            ),
            key=lambda x: -x[1],
        )

    def _best_parse(self, kind: str, m: Mention, f: Features) -> float | None:
        best = self.parses(kind, m, f)
        return best[0][1] if best else None

    def dist_for(self, kind: str, plan: Plan) -> list[tuple[Metapath, float]]:
        """Metapath distribution for a seed of ``kind`` injected after planning."""
        anchor = Mention("", 0, 0, 0, 0, [])
        return distribution(self.parses(kind, anchor, plan.features, plan.reading))

    # --- the plan ----------------------------------------------------------------------
    def respell(self, question: str) -> str:
        """``question`` with typos of its question words corrected ("durgs" -> "drugs"); the
        same length, so offsets into it hold for the question as typed."""
        return self.speller.correct(question) if self.speller is not None else question

    def link(self, question: str) -> LinkResult:
        link = self.linker.link(question, whole_names=True)
        if not is_yes_no(question):
            link.mentions = examples(question, link.tokens, link.mentions)
        return link

    def read(self, question: str, resolved: Sequence[tuple[Mention, list[str]]]) -> Reading | None:
        """Score the question, mentions masked by kind, against the exemplar bank (a question
        that opens with an interrogative is no claim: the claim slots are left out)."""
        if self.semantic is None:
            return None
        spans = [(m.start, m.end, self.store.kind(ids[0])) for m, ids in resolved if ids]
        text = masked(question, spans)
        without = ("claim",) if is_wh_question(question) else ()
        scores, qvec = self.semantic.score_with(text, question, {k for _, _, k in spans}, without)
        return Reading(scores, {s.id: s for s in self.semantic.bank.slots}, qvec)

    def plan(
        self, question: str, choice: str | None = None, link: LinkResult | None = None
    ) -> Plan:
        link = link or self.link(question)
        start, end = asked_span(question, [(m.start, m.end) for m in link.mentions])
        if (start, end) != (0, len(question)) and question[start:end].strip():
            return self._asked_part(question, start, end, choice)
        relation_choice = None
        if choice and choice.startswith(RELATION_CHOICE):
            relation_choice, choice = choice[len(RELATION_CHOICE) :], None
        f = features(question, link.tokens, link.mentions)
        spans = [(m.start, m.end) for m in link.mentions]
        if self.data:
            f = replace(f, cues=self.data.find_cues(f.norm, f.cues, spans))
            asked = self.data.asked_kind(f.norm, spans) if f.target_kind is None else None
            if asked is not None:
                named = f.named_kinds | {asked[0]}
                f = replace(f, target_kind=asked[0], target_pos=asked[1], named_kinds=named)
        if not f.yes_no:
            # a relation word the question negates says what the answer is not; one in an
            # aside that gives examples ("roles, such as receptor activity, ...") says what
            # the answer is like
            denied = negated_spans(question, link.tokens) + example_asides(question)
            f = replace(f, cues=tuple(c for c in f.cues if not is_negated(denied, c.start)))
        qhash = question_hash(question)
        plan = Plan(
            question,
            qhash,
            "literature",
            f,
            link,
            unlinked=list(link.unlinked),
            budget=self.budget,
        )
        resolved: list[tuple[Mention, list[str]]] = [
            (m, senses.resolve(self.store, m, f, choice, self._best_parse)) for m in link.mentions
        ]
        plan.reading = reading = self.reader(question, resolved)
        covered = {i for m in link.mentions for i in range(m.first_token, m.last_token + 1)}
        plan.uncovered = [
            t.text
            for i, t in enumerate(link.tokens)
            if i not in covered
            and not is_structural(t.norm)
            and not t.norm.isdigit()
            and not (i == 0 and t.norm in YES_NO_START)
            and t.norm not in CONTRACTIONS
        ]
        focused = len(plan.uncovered) <= MAX_UNCOVERED
        """A graph question names its entities and relations; a literature question says more."""
        # several nodes merely close in meaning to a phrase are a weak link, not a choice to
        # ask the user about: such a mention is left out
        resolved = [(m, ids) for m, ids in resolved if len(ids) == 1 or m.method != "embedding"]
        ambiguous = [(m, ids) for m, ids in resolved if len(ids) > 1]
        if ambiguous and focused:
            m, ids = ambiguous[0]
            plan.intent = "clarify"
            plan.clarification, plan.candidates = senses.clarify(self.store, m, ids)
            return plan
        # a mention still read as several nodes (in a question too long to ask back about)
        # leaves the plan; the others are its entities
        single = [(m, ids[0]) for m, ids in resolved if len(ids) == 1]
        ents = [self.entity(m, node) for m, node in single]
        kinds = {e.kind for e in ents}
        mechanism = f.mechanism or (
            reading is not None
            and (not f.yes_no or f.declarative)
            and reading.intent_prob("mechanism") >= SEM_ACCEPT
        )
        # a yes/no question naming both ends of a relation asks about that edge; one asking
        # whether there is something ("Are there brain changes in X?") does only when the
        # bank reads a claim
        claim_read = (
            reading is not None
            and (
                reading.claim_mass(ents[0].kind, ents[1].kind)
                if len(ents) == 2 and not _EXISTENTIAL.search(question)
                else reading.intent_prob("claim")
            )
            >= SEM_ACCEPT
        )
        # a yes/no question that does not open with its verb ("Trauma patients on
        # anticoagulation: is it safe?") is a claim about an edge only when the bank reads one
        leading = bool(link.tokens) and link.tokens[0].norm in YES_NO_START
        claim_form = f.yes_no and (leading or claim_read)
        # a longer question that asks to check a claim ("Can you confirm whether GLRX is
        # among the proteins Sufentanil binds?") is still about one edge when the bank is
        # sure it is a claim
        claim_sure = (
            asks_to_check(question)
            and reading is not None
            and reading.intent_prob("claim") >= SEM_GRAPH
        )
        if (
            (len(ents) == 2 or mechanism)
            and kinds >= senses.DRUG_DISEASE
            and (mechanism or claim_form)
        ):
            # a yes/no question about three or more things (a comparison, a subgroup) is
            # not a claim about one edge
            drug = next(e for e in ents if e.kind == "Compound")
            disease = next(e for e in ents if e.kind == "Disease")
            plan.seeds, plan.targets = [drug], [disease]
            if mechanism:
                plan.intent = "mechanism"
                mechanisms = self.mechanisms
                total = sum(w for _, w in mechanisms)
                plan.dist = [(mp, w / total) for mp, w in mechanisms]
                return plan
            if focused or claim_sure:
                plan.intent = "claim"
                return plan
        if (
            len(ents) == 2
            and claim_form
            and (focused or claim_sure)
            and (f.cues or (claim_read and self._related(ents)))
        ):
            # a yes/no question the bank reads as a claim about two things the graph can
            # relate is one, whatever verb it uses ("Would X engage Y?")
            plan.seeds, plan.targets = [ents[0]], ents[1:2]
            plan.intent = "claim"
            return plan
        structured = f.target_kind is not None or bool(f.cues)
        if not ents:
            if (
                structured
                and 1 <= len(link.unlinked) <= MAX_UNLINKED
                and len(link.tokens) <= NOT_FOUND_TOKENS
            ):
                plan.intent = "not_found"
            return plan
        if not focused and (
            f.yes_no
            or (
                not self._graph_request(question, plan, single, covered)
                and not self._confident(question, reading, resolved, f)
            )
        ):
            # a longer question is still a graph question when the bank reads it, with
            # confidence, as one relation (or chain) of a linked entity
            plan.seeds = ents
            return plan
        if relation_choice is not None:
            return self._chosen_relation(plan, ents, relation_choice)
        # one seed (the best-parsed mention) guides the walk
        best: tuple[float, LinkedEntity, list[tuple[Metapath, float]]] | None = None
        lexical = not f.generic and (bool(f.cues) or f.target_kind is not None)
        for (m, _), e in zip(single, ents, strict=True):
            if not lexical and not self._graph_reading(reading, e.kind):
                continue
            parses = self.parses(e.kind, m, f)
            sure = (
                reading.confident_path(e.kind, f.named_kinds, f.target_kind)
                if reading is not None
                else None
            )
            if sure is not None and self._lexicon_defers(parses, sure):
                parses = self._meaning_first(self.parses(e.kind, m, f, reading), sure)
            elif (
                not parses
                or parses[0][1] < LEXICON_CONFIDENT
                or (
                    len(parses[0][0]) == 1
                    and reading is not None
                    and reading.graph_mass(e.kind) >= SEM_ACCEPT
                )
            ):
                # the cue tables do not explain the question, or they read one relation and
                # the bank reads a relation of this entity: meaning weighs in with the cues
                parses = self.parses(e.kind, m, f, reading)
            if parses and (best is None or parses[0][1] > best[0]):
                best = (parses[0][1], e, parses)
        if best is None:
            plan.seeds = ents[:1]
            plan.intent = "overview" if len(link.tokens) <= OVERVIEW_TOKENS else "literature"
            return plan
        score, seed, parses = best
        plan.seeds = [seed]
        plan.parse_score = score
        if score < MIN_PARSE_SCORE and not self._graph_reading(reading, seed.kind):
            plan.intent = "no_relation" if structured else "literature"
            return plan
        plan.dist = distribution(parses)
        plan.intent = "one_hop" if len(plan.dist[0][0]) == ONE_HOP else "multi_hop"
        i = self.store.index[seed.id]
        typed = self.data.typed(
            plan.dist, f.norm, spans, seed.name, lambda u: self.store.degree(i, u)
        )
        if typed is not None:
            plan.dist, plan.action, plan.note = typed.dist, typed.action, typed.note
        pair = close_pair(plan.dist) if reading is not None else None
        if pair is not None:
            plan.intent = "clarify"
            plan.clarification = relation_question(pair, seed.name)
            plan.candidates = [
                Candidate(
                    id=f"{RELATION_CHOICE}{u.key}", name=phrase(u, seed.name), kind="Relation"
                )
                for u in pair
            ]
        return plan

    def _asked_part(self, question: str, start: int, end: int, choice: str | None) -> Plan:
        """Plan the part of ``question`` that asks it (``form.asked_span``); the plan keeps the
        whole question, and its entities' offsets point into it."""
        plan = self.plan(question[start:end], choice)
        plan.question = question
        plan.qhash = question_hash(question)
        for e in {id(e): e for e in (*plan.seeds, *plan.targets)}.values():
            if e.start >= 0:
                e.start, e.end = e.start + start, e.end + start
        return plan

    def _confident(
        self,
        question: str,
        reading: Reading | None,
        resolved: list[tuple[Mention, list[str]]],
        f: Features,
    ) -> bool:
        """The bank is sure the question asks a relation (or chain) of one of its linked
        entities that fits the kinds it names: its top reading is one, at least ``SEM_GRAPH``
        probable, or, when the question asks for things ("For PCOS, which medications only
        take the edge off?"), more probable than not (``SEM_ACCEPT``)."""
        if reading is None:
            return False
        floor = SEM_ACCEPT if asks_for_things(question) else SEM_GRAPH
        return any(
            reading.confident_path(self.store.kind(ids[0]), f.named_kinds, f.target_kind, floor)
            is not None
            for _, ids in resolved
            if len(ids) == 1
        )

    def _graph_request(
        self,
        question: str,
        plan: Plan,
        single: list[tuple[Mention, str]],
        covered: set[int],
    ) -> bool:
        """A longer request about one named thing whose further words (``plan.uncovered``)
        are, but for at most ``MAX_UNCOVERED``, words the graph-question wordings and cue
        tables use ("molecular", "repressors", "profile"): it asks the graph for that thing's
        relation. A literature question's further words are its own subject matter
        ("survival", "biopsy"); a longer question about how several things relate ("what
        makes X turn into Y") needs a confident reading; a phrase linked only by meaning names
        nothing."""
        own = sum(
            not is_relation_word(w.lower(), self.linker.relation_words) for w in plan.uncovered
        )
        return (
            own <= MAX_UNCOVERED
            and sum(m.method != "embedding" for m, _ in single) == 1
            and (asks_for_things(question) or self._imperative(plan.link, covered))
        )

    def _imperative(self, link: LinkResult, covered: set[int]) -> bool:
        """The question opens with a verb in its plain form that is no name ("Pull up ...",
        "Fetch ..."): a request, which asks for things."""
        vocabulary = self.linker.vocabulary
        if vocabulary is None or not link.tokens or 0 in covered:
            return False
        first = link.tokens[0]
        return (
            first.text.isalpha()
            and first.norm not in YES_NO_START
            and not is_structural(first.norm)
            and vocabulary.language.inflects_as_verb(first.norm)
        )

    def _related(self, ents: list[LinkedEntity]) -> bool:
        a, b = ents[0], ents[1]
        return any(
            mp.uses[0].dst == b.kind for mp in enumerate_metapaths(a.kind, ONE_HOP, self.data.uses)
        )

    @staticmethod
    def _lexicon_defers(
        parses: list[tuple[Metapath, float]], path: tuple[DirectedRel, ...]
    ) -> bool:
        """Whether a confident reading of ``path`` replaces the lexicon's parse. One relation
        always does. A chain does when the cue words explain the question poorly, leave a tie
        it breaks, or read only the chain's first or last hops ("X's indications ->
        symptoms" read as X's indications; "drugs that treat X's look-alike diseases" read as
        drugs that treat X); a confident chain from the bank's few multi-hop shapes does not
        replace a different, well-explained chain of the cue words ("symptoms of diseases
        treated by drugs similar to X")."""
        if len(path) == ONE_HOP or not parses or parses[0][1] < LEXICON_CONFIDENT:
            return True
        top = parses[0][1]
        if any(mp.uses == path and math.isclose(s, top, abs_tol=TIE) for mp, s in parses):
            return True  # the cue words leave a tie ("genes X binds -> diseases") meaning breaks
        best = parses[0][0].uses
        n = len(best)
        return n < len(path) and best in (path[:n], path[-n:])

    @staticmethod
    def _meaning_first(
        parses: list[tuple[Metapath, float]], path: tuple[DirectedRel, ...]
    ) -> list[tuple[Metapath, float]]:
        """Parses with the metapath of ``path`` first: a confident reading of the relation
        (or chain) outranks the cue words, which still order the alternatives after it."""
        top = max((s for _, s in parses), default=0.0)
        lifted = [(mp, top + SEM_LIFT if mp.uses == path else s) for mp, s in parses]
        return sorted(lifted, key=lambda x: -x[1])

    @staticmethod
    def _graph_reading(reading: Reading | None, kind: str) -> bool:
        """The bank reads the question as a graph relation from an entity of ``kind``."""
        if reading is None:
            return False
        top = reading.top_slot()
        return (
            top is not None
            and top[0].intent in {"one_hop", "multihop"}
            and top[0].given == kind
            and reading.graph_mass(kind) >= SEM_ACCEPT
        )

    def _chosen_relation(self, plan: Plan, ents: list[LinkedEntity], key: str) -> Plan:
        """Resume a relation clarification: walk the chosen relation from the seed."""
        for e in ents:
            for mp in enumerate_metapaths(e.kind, ONE_HOP, self.data.uses):
                if mp.uses[0].key == key:
                    plan.seeds, plan.dist, plan.intent = [e], [(mp, 1.0)], "one_hop"
                    return plan
        plan.seeds = ents[:1]
        plan.intent = "no_relation"
        return plan


def distribution(scored: list[tuple[Metapath, float]]) -> list[tuple[Metapath, float]]:
    """The probabilities of the best ``TOP_PARSES`` parses (softmax at ``PARSE_TEMPERATURE``),
    those above ``MIN_PROBABILITY``."""
    top = scored[:TOP_PARSES]
    probs = softmax([s for _, s in top], PARSE_TEMPERATURE)
    return [(mp, p) for (mp, _), p in zip(top, probs, strict=True) if p > MIN_PROBABILITY]


def question_hash(question: str) -> str:
    """The question's id in traces: the first ``QHASH_CHARS`` hex digits of its SHA-1."""
    return hashlib.sha1(question.encode("utf-8")).hexdigest()[:QHASH_CHARS]
