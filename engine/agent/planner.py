"""Planner: link entities, read the question's form, choose seeds and a metapath distribution.

``Planner.plan`` is a sequence of named steps over a ``Plan``; each reading of the question is
made once and passed to the steps after it:

1. ``_asked_part``: only the part of what was typed that asks is planned (``form.asked_span``);
2. ``readings.read_words``: what the words say (``Wording``: features, form, uncovered words);
3. ``_senses``: which node each mention means (``senses``), by the best metapath parse from
   each candidate's kind (``parsing.Parses``: each parse scored once per kind and mention);
4. ``reader``: what the question means by the exemplar bank (``readings.Meaning``);
5. the decisions, each the finished plan or None to go on: ``_clarify_sense``,
   ``_edge_question``, ``_nothing_linked``, ``_says_more``, ``_chosen_relation`` and
   ``_walk`` (the seed whose parses explain the question best, ``parsing.best_seed``, its
   metapath distribution, ``_typed`` and ``_ask_relation``).

Senses are resolved by structure, not by string (``senses``): a mention left with several
candidates after that becomes a clarifying question.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Literal

from engine.agent import senses
from engine.agent.parsing import ONE_HOP, Parses, best_seed, distribution, seed_parses
from engine.agent.plan import Plan
from engine.agent.readings import Meaning, Wording, graph_reading, read_words
from engine.agent.targets import own_targets
from engine.agent.therapy import (
    PALLIATES,
    TREAT_VERB,
    TREATS,
    asks_remedy,
    explains_therapy,
    no_therapy_reason,
    therapy_dist,
)
from engine.graph.metapaths import Metapath, enumerate_metapaths, mechanism_metapaths
from engine.graph.relations import DirectedRel
from engine.graph.store import KGStore
from engine.graph.walk import Budget
from engine.ranking.evidence import is_pharmacological
from engine.ranking.signals import edge_action
from engine.result import Candidate, LinkedEntity
from engine.understand.bank import is_relation_word
from engine.understand.cueshare import shared_relations, widen
from engine.understand.datarel import DataVocabulary
from engine.understand.followup import attach
from engine.understand.form import (
    YES_NO_START,
    asked_span,
    defining,
    framed_yes_no,
    is_wh_question,
    is_yes_no,
    pasted_question,
    sentence_spans,
    untagged,
)
from engine.understand.lexicon import (
    COMPILED_CUES,
    KIND_WORDS,
    is_cue_word,
    is_structural,
    written_out,
)
from engine.understand.linking import FAMILY, Linker, covers, examples, fills
from engine.understand.mentions import FRAME_PREPOSITIONS, LinkResult, Mention
from engine.understand.negation import opens_negation
from engine.understand.parse import Features
from engine.understand.pathfit import order_cues, score_metapath
from engine.understand.reading import (
    SEM_ACCEPT,
    SEM_GRAPH,
    Reading,
    close_pair,
    phrase,
    relation_question,
)
from engine.understand.scope import ScopeReader
from engine.understand.semantic import SemanticScorer, masked
from engine.understand.sets import (
    AMONG,
    BUT_NOT,
    EXCLUDING,
    asks_common,
    list_operation,
    listed,
    set_apart,
)
from engine.understand.spelling import Speller
from engine.util.text import alias_key
from engine.util.wordforms import american

MIN_PARSE_SCORE = -1.5
"""Below this the best metapath leaves cues unexplained: the question is not a graph question."""
MAX_UNCOVERED = 2
"""A question with more words beyond its names, cues and function words says more than a
graph question: it needs a confident reading to be read as one."""
RELATION_CHOICE = "relation:"
"""Prefix of a ``choice`` that answers a relation clarification ("relation:CpD^-1")."""
QHASH_CHARS = 16
"""Hex digits of a question's hash (64 bits): enough to tell questions apart in traces."""
MAX_UNLINKED = 2
"""A question naming a relation or the kind it asks for and at most this many phrases that
link to nothing asks about something the graph lacks; more is no question about one thing."""
COMPARED = re.compile(
    r"\bvs\.?(?=\s)|\bversus\b|\bcompared? (?:to|with)\b|\bdifference between\b",
    re.IGNORECASE,
)
"""Words that set two things side by side."""
COMPARED_TARGETS = 20
"""A drug's own targets read when two drugs are compared (all of them, in practice)."""
BINDS = "CbG"
"""The relation a drug's mechanism of action is read as when no disease is named."""
NOT_FOUND_TOKENS = 16
"""Such a question (above) is one about something missing only when at most this long."""
OVERVIEW_TOKENS = 12
"""A question about an entity that no relation explains asks for its overview ("Tell me
about X") when at most this many tokens long; a longer one is a literature question."""

MEANT_HOP = 0.2
"""A relation the bank reads a question as asking with at least this share of its first hops
is one a sense must hold facts of to be the one meant (``_meant_by_reading``)."""

Reader = Callable[[str, Sequence[tuple[Mention, list[str]]]], Reading | None]
"""What a question means (None: no reading), given the nodes each mention may mean."""
Resolved = list[tuple[Mention, list[str]]]
"""Each mention with the nodes it may mean."""
Single = list[tuple[Mention, str]]
"""Each mention read as one node, with that node."""


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
        scope: ScopeReader | None = None,
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
        self.scope = scope
        """Reads whether a question asks for a topic the sources do not hold."""

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
        self,
        kind: str,
        m: Mention,
        f: Features,
        reading: Reading | None = None,
        hops: dict[str, float] | None = None,
    ) -> list[tuple[Metapath, float]]:
        """Metapaths from ``kind`` scored by the lexicon cues plus, with a reading, the log
        probability the exemplar bank gives their first relation. With a reading, a single
        relation is also supported by the cue words its exemplar wordings share
        (``cueshare``), so that meaning decides between the relations a word serves; a chain
        only by the relations the cue tables name. ``hops`` are the reading's
        ``first_hops(kind)`` when summed already."""
        cues = order_cues(f.cues, m.start, m.end)
        wide = (
            [widen(c, COMPILED_CUES, self.shared) for c in cues]
            if self.shared and reading is not None
            else cues
        )
        if reading is None:
            hops = {}
        elif hops is None:
            hops = reading.first_hops(kind)
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

    def dist_for(self, kind: str, plan: Plan) -> list[tuple[Metapath, float]]:
        """Metapath distribution for a seed of ``kind`` injected after planning."""
        anchor = Mention("", 0, 0, 0, 0, [])
        return distribution(self.parses(kind, anchor, plan.features, plan.reading))

    # --- before the plan ---------------------------------------------------------------
    def respell(self, question: str) -> str:
        """``question`` with typos of its question words corrected ("durgs" -> "drugs"); the
        same length, so offsets into it hold for the question as typed."""
        return self.speller.correct(question) if self.speller is not None else question

    def link(self, question: str) -> LinkResult:
        """The question's mentions, whole names first; in a question that asks for things,
        examples it gives ("drugs such as X") are its mentions too."""
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
        text = written_out(masked(question, spans))
        without = ("claim",) if is_wh_question(question) else ()
        kinds = {k for _, _, k in spans}
        scores, mvec, qvec = self.semantic.score_with(text, question, kinds, without)
        return Reading(scores, {s.id: s for s in self.semantic.bank.slots}, qvec, mvec)

    # --- the plan ----------------------------------------------------------------------
    def plan(
        self, question: str, choice: str | None = None, link: LinkResult | None = None
    ) -> Plan:
        """What to do with ``question``: its intent, seeds, targets and metapath distribution,
        or the question to ask back. ``choice`` answers an earlier clarification (a node id,
        or ``RELATION_CHOICE`` and a relation); ``link`` is the question's linking when done
        already. The steps are the module docstring's. A statement tagged to be confirmed
        that is read as no claim is read again as asked directly (``form.untagged``)."""
        plan = self._plan(question, choice, link)
        direct = untagged(question) if plan.intent != "claim" and choice is None else None
        if direct is None:
            return plan
        again = self._plan(direct, None, None)
        if again.intent != "claim":
            return plan
        again.question, again.qhash = question, question_hash(question)
        return again

    def _plan(
        self, question: str, choice: str | None = None, link: LinkResult | None = None
    ) -> Plan:
        link = link or self.link(question)
        if choice is None and (of_class := self._class_for(question, link)) is not None:
            return of_class
        if choice is None and (compared := self._compared(question, link)) is not None:
            return compared
        if choice is None and (pasted := self._pasted(question, link)) is not None:
            return pasted
        apart = [m for m in link.mentions if set_apart(question, m.start)]
        if apart and len(apart) < len(link.mentions) and choice is None:
            return self._set_apart(question, apart)
        spans = tuple((m.start, m.end) for m in link.mentions)
        start, end = asked_span(question, spans)
        if (start, end) != (0, len(question)) and question[start:end].strip():
            return self._asked_part(question, start, end, choice)
        relation_choice = None
        if choice and choice.startswith(RELATION_CHOICE):
            relation_choice, choice = choice[len(RELATION_CHOICE) :], None
        words = read_words(question, link, spans, self.data)
        foreign = self._foreign(link)
        plan = Plan(
            question,
            question_hash(question),
            "literature",
            words.features,
            link,
            unlinked=list(link.unlinked),
            budget=self.budget,
            uncovered=list(words.uncovered),
        )
        if foreign:
            plan.intent = "not_english"
            return plan
        parses = Parses(self.parses, words.features)
        resolved = self._senses(words, choice, parses)
        plan.reading = self.reader(question, resolved)
        if (out := self._out_of_scope(plan, resolved)) is not None:
            return out
        # several nodes merely close in meaning to a phrase are a weak link, not a choice to
        # ask the user about: such a mention is left out
        resolved = [(m, ids) for m, ids in resolved if len(ids) == 1 or m.method != "embedding"]
        if (asked := self._clarify_sense(plan, words, resolved)) is not None:
            return asked
        # a mention still read as several nodes (in a question too long to ask back about)
        # leaves the plan; the others are its entities
        single = [(m, ids[0]) for m, ids in resolved if len(ids) == 1]
        ents = [self.entity(m, node) for m, node in single]
        meaning = Meaning.of(plan.reading)
        return (
            self._edge_question(plan, words, meaning, ents)
            or self._nothing_linked(plan, words, ents)
            or self._says_more(plan, words, meaning, resolved, single, ents)
            or self._open_yes_no(plan, words, meaning, ents)
            or (
                self._chosen_relation(plan, ents, relation_choice)
                if relation_choice is not None
                else None
            )
            or self._walk(plan, words, meaning, parses, single, ents)
        )

    def _foreign(self, link: LinkResult) -> bool:
        """The question is written in another language: most of its longer words outside
        the names it links are words neither the corpus nor the tokenizer knows ("¿qué
        medicamentos tratan la diabetes?"), at least ``FOREIGN_WORDS`` of them. Clinical
        shorthand is short or linked, so an English question typed tersely is not one."""
        vocabulary = self.linker.vocabulary
        if vocabulary is None:
            return False
        named = {i for m in link.mentions for i in range(m.first_token, m.last_token + 1)}
        words = [
            t.text.lower()
            for i, t in enumerate(link.tokens)
            if i not in named and t.text.isalpha() and len(t.text) >= FOREIGN_LETTERS
        ]
        language = vocabulary.language
        unknown = [w for w in words if not (language.in_corpus(w) or language.whole_word(w))]
        return len(unknown) >= FOREIGN_WORDS and len(unknown) >= FOREIGN_SHARE * len(words)

    def _pasted(self, question: str, link: LinkResult) -> Plan | None:
        """A pasted note whose last question names nothing ("... Sister had pancreatitis at 19.
        ... any genes worth testing for?"): asked of the disease the note names most; None for
        any other text."""
        last = pasted_question(question, sentence_spans(question))
        if last is None:
            return None
        a, b = last
        if any(a <= m.start < b for m in link.mentions):
            return None  # it names what it asks about (``form.asked_span``)
        named: Counter[str] = Counter()
        for m in link.mentions:
            diseases = [n for n in m.node_ids if self.store.kind(n) == "Disease"]
            if m.end <= a and len(diseases) == 1:
                named[diseases[0]] += 1
        if not named:
            return None
        disease = self.store.name(named.most_common(1)[0][0])
        asked = question[a:b].strip().rstrip(" ?.!")
        word = asked.rsplit(" ", 1)[-1].lower()
        asked = (
            f"{asked} {disease}?" if word in FRAME_PREPOSITIONS else attach(f"{asked}?", disease)
        )
        plan = self.plan(asked)
        plan.question, plan.qhash = question, question_hash(question)
        plan.note = "; ".join(x for x in (plan.note, f"the note's question, about {disease}") if x)
        return plan

    def _compared(self, question: str, link: LinkResult) -> Plan | None:
        """Two drugs set side by side with no relation named ("prilosec vs nexium, any real
        difference?", "zoloft versus prozac"): compared by what they act on, the targets they
        share first; None for any other question, when they share none, or when the data types
        each drug's own targets and those differ."""
        if COMPARED.search(question) is None or len(link.mentions) != 2:
            return None
        drugs = [m.node_ids[0] for m in link.mentions if len(m.node_ids) == 1]
        if len(drugs) != 2 or any(self.store.kind(d) != "Compound" for d in drugs):
            return None
        words = read_words(
            question, link, tuple((m.start, m.end) for m in link.mentions), self.data
        )
        if any(r != BINDS for c in words.features.cues for r in c.rels):
            return None  # "zoloft vs prozac side effects": the relation named is compared
        own = [{t[2] for t, _ in own_targets(self.store, d, most=COMPARED_TARGETS)} for d in drugs]
        if all(own) and not own[0] & own[1]:
            # drugs acting on different targets (lisinopril, losartan) differ where they act:
            # what else they both bind is no answer to how they compare
            return None
        a, b = (self.store.name(d) for d in drugs)
        plan = self.plan(f"which genes do both {a} and {b} bind")
        if plan.intent not in ("one_hop", "multi_hop"):
            return None
        plan.question, plan.qhash = question, question_hash(question)
        plan.note = "; ".join(x for x in (plan.note, "compared by their targets") if x)
        return plan

    def _class_for(self, question: str, link: LinkResult) -> Plan | None:
        """A question for the drugs of a class that a disease is given ("anticoagulants for
        afib", "which antibiotics treat UTI"): planned as the drugs for the disease, its
        answers kept to the class's drugs. None for any other question."""
        kinds = [{self.store.kind(n) for n in m.node_ids} for m in link.mentions]
        if len(kinds) != 2 or {"Pharmacologic Class"} not in kinds:
            return None
        named = link.mentions[kinds.index({"Pharmacologic Class"})]
        other = kinds[1 - kinds.index({"Pharmacologic Class"})]
        classes = senses.same_named(self.store, named.node_ids)
        if "Disease" not in other or len(classes) != 1:
            return None
        if is_yes_no(question) or framed_yes_no(question):
            return None
        pc = classes[0]
        drugs = self.store.objects(pc, "PCiC")
        name = self.store.name(pc)
        members = [
            LinkedEntity(
                mention=self.store.name(d),
                id=d,
                name=self.store.name(d),
                kind="Compound",
                score=1.0,
                method="user",
            )
            for d in drugs
        ]
        lo = max((m.end for m in link.mentions if m.end <= named.start), default=0)
        denied = _denial(question, lo, named.start)
        if denied is not None:
            # "glaucoma drugs that aren't beta blockers": the drugs for the disease without them
            plan = self.plan(f"{question[:denied].rstrip()} {question[named.end :]}".strip())
            if not plan.therapy or plan.set_op is not None:
                return None
            plan.excluded += members
            plan.excluded_said = f"not {name}"
        else:
            plan = self.plan(f"{question[: named.start]}drugs{question[named.end :]}")
            if not plan.therapy or plan.set_op is not None or not drugs:
                return None
            plan.members, plan.set_op, plan.therapy = members, AMONG, False
            plan.members_said = f"the {len(drugs)} {name}"
            plan.note = "; ".join(x for x in (plan.note, name) if x)
        plan.question, plan.qhash = question, question_hash(question)
        return plan

    def _set_apart(self, question: str, apart: Sequence[Mention]) -> Plan:
        """Plan ``question`` without the names it sets apart from its answers and the words
        that do ("what else is X used for besides epilepsy" -> "what else is X used for");
        the plan keeps the whole question and those names, which no answer may be."""
        cut = question
        for m in sorted(apart, key=lambda m: -m.start):
            found = EXCLUDING.search(cut[: m.start])
            at = found.start() if found is not None else m.start
            cut = f"{cut[:at].rstrip()} {cut[m.end :].lstrip()}".strip()
        plan = self.plan(cut)
        plan.question, plan.qhash = question, question_hash(question)
        plan.excluded = [self.entity(m, n) for m in apart for n in m.node_ids]
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

    def _senses(self, words: Wording, choice: str | None, parses: Parses) -> Resolved:
        """The nodes each mention may mean (``senses.resolve``): ``choice`` when it is one of
        them, else those whose kind's best parse explains the question best, and of one kind
        those joined to the question's other names (``senses.coherent``)."""
        mentions = words.link.mentions
        resolved = [
            (
                m,
                senses.resolve(
                    self.store,
                    m,
                    words.features,
                    choice,
                    parses.best,
                    frozenset(
                        self.store.kind(n) for o in mentions if o is not m for n in o.node_ids
                    ),
                ),
            )
            for m in mentions
        ]
        resolved = senses.listed_alike(self.store, words.text, resolved)
        return senses.coherent(self.store, resolved)

    def _out_of_scope(self, plan: Plan, resolved: Resolved) -> Plan | None:
        """Decides a question about a topic the sources do not hold (dosing, interactions,
        guidelines ...: ``scope``), read by meaning with its names masked; its entities are
        kept to say what the sources hold about them."""
        if self.scope is None or plan.reading is None:
            return None
        vec = plan.reading.masked_vec
        # a reading given without its vector (a fixed reader) is embedded here
        topic = (
            self.scope.read_vector(vec)
            if vec is not None
            else self.scope.read(plan.reading.scores.text)
        )
        kinds = [(m, self.store.kind(ids[0])) for m, ids in resolved if len(ids) == 1]
        if topic is None and any(k in CONDITION_KINDS for _, k in kinds):
            # a condition named as a side effect or symptom is part of what is asked ("safe in
            # pregnancy", "ok with renal impairment"): read again with it said in words
            things = [(m.start, m.end, k) for m, k in kinds if k not in CONDITION_KINDS]
            topic = self.scope.read(masked(plan.question, things))
        if topic is None:
            return None
        plan.intent, plan.scope = "out_of_scope", topic
        plan.seeds = [self.entity(m, ids[0]) for m, ids in resolved if len(ids) == 1]
        return plan

    def _clarify_sense(self, plan: Plan, words: Wording, resolved: Resolved) -> Plan | None:
        """Decides whether to ask which node a mention means: a focused question (one that
        says little beyond its names and cues) with a mention still read as several nodes
        asks about the first such mention."""
        ambiguous = [(m, ids) for m, ids in resolved if len(ids) > 1]
        if not ambiguous or not focused(words):
            return None
        m, ids = ambiguous[0]
        if (meant := self._meant_by_reading(plan, ids)) is not None:
            # "what works for OCD": the disorder drugs treat, read by meaning, not the bone
            # disease of those initials that no drug treats
            return self.plan(plan.question, meant)
        if (member := self._family_member(m, resolved)) is not None:
            # "does haloperidol block dopamine receptors": the receptor it is joined to
            return self.plan(plan.question, member)
        plan.intent = "clarify"
        plan.clarification, plan.candidates = senses.clarify(self.store, m, ids)
        return plan

    def _meant_by_reading(self, plan: Plan, ids: list[str]) -> str | None:
        """The one sense of a mention whose kind the bank is sure the question asks a relation
        from and that alone holds facts of that relation (``senses.asked_of`` for a relation
        read by meaning rather than named by a cue); None otherwise."""
        meaning = Meaning.of(plan.reading)
        kinds = {self.store.kind(n) for n in ids}
        if meaning is None or len(kinds) != 1 or plan.features.generic:
            # "which entities are linked to CNK" names no relation to choose a sense by
            return None
        kind = kinds.pop()
        if not meaning.graph_reading(kind):
            return None
        # the relations the reading spreads over ("what works for": treats and palliates)
        hops = meaning.first_hops(kind)
        uses = [u for u in self.store.uses() if hops.get(u.key, 0.0) >= MEANT_HOP]
        holding = [n for n in ids if any(self.store.degree(self.store.index[n], u) for u in uses)]
        return holding[0] if len(holding) == 1 else None

    def _family_member(self, m: Mention, resolved: Resolved) -> str | None:
        """For a protein name said without its number (``linking.FAMILY``) beside one other
        named thing: the member the graph joins to that thing, one a drug acts on
        pharmacologically first (haloperidol's DRD2 before the receptors it also binds);
        None when it joins none."""
        if not m.candidates or any(c.source != FAMILY for c in m.candidates):
            return None
        others = [ids[0] for o, ids in resolved if o is not m and len(ids) == 1]
        if len(others) != 1:
            return None
        joined = [c.node_id for c in m.candidates if self.store.linked(c.node_id, others[0])]
        sources = self.store.edge_sources([(others[0], BINDS, g) for g in joined])
        acted = [
            g
            for g in joined
            if is_pharmacological(edge_action(sources.get((others[0], BINDS, g), [])))
        ]
        return next(iter(acted or joined), None)

    def _edge_question(
        self, plan: Plan, words: Wording, meaning: Meaning | None, ents: list[LinkedEntity]
    ) -> Plan | None:
        """Decides whether the question asks about one edge: how a drug acts on a disease
        (``mechanism``, walked along Rephetio's metapaths) or whether a claim holds
        (``claim``), its seeds and targets the two ends. A longer yes/no question about a
        drug and a disease that is not sure to be a claim keeps them as seed and target and
        goes on."""
        f = words.features
        asked_how = asks_mechanism(words, meaning)
        ents = self._condition_treated(f, ents, asked_how)
        kinds = {e.kind for e in ents}
        # several drugs named and no word of a mechanism: a question of which of them holds
        # ("which of metformin, sitagliptin and atenolol are for type 2 diabetes")
        drugs = sum(e.kind == "Compound" for e in ents)
        mechanism = asked_how and (f.mechanism or drugs <= 1)
        claim_read = reads_claim(words, meaning, ents)
        # a yes/no question that does not open with its verb ("Trauma patients on
        # anticoagulation: is it safe?") is a claim about an edge only when the bank reads one
        # or it is the statement itself said as a question ("statins cause myopathy?")
        claim_form = f.yes_no and (words.leading or f.declarative or claim_read)
        # a longer question that asks to check a claim ("Can you confirm whether GLRX is
        # among the proteins Sufentanil binds?") is still about one edge when the bank is
        # sure it is a claim
        claim_sure = words.asks_to_check and meaning is not None and meaning.claim >= SEM_GRAPH
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
                total = sum(w for _, w in self.mechanisms)
                plan.dist = [(mp, w / total) for mp, w in self.mechanisms]
                return plan
            if focused(words) or claim_sure:
                plan.intent = "claim"
                return plan
        if (
            len(ents) == 2
            and claim_form
            and (focused(words) or claim_sure)
            and ((f.cues and self._joins(f, ents)) or (claim_read and self._related(ents)))
            and not _shared(plan.question, ents)
        ):
            # a yes/no question the bank reads as a claim about two things the graph can
            # relate is one, whatever verb it uses ("Would X engage Y?")
            plan.seeds, plan.targets = [ents[0]], ents[1:2]
            plan.intent = "claim"
            return plan
        return None

    def _condition_treated(
        self, f: Features, ents: list[LinkedEntity], mechanism: bool = False
    ) -> list[LinkedEntity]:
        """A yes/no question whether a drug treats a condition named as a symptom or side
        effect ("fluoxetine treats bulimia?"), or how it works in it ("how does fluoxetine
        work for depression"), is about the disease the name says (``disease_named_by``:
        bulimia nervosa), when the graph holds one that drugs treat."""
        rels = {r for c in f.cues for r in c.rels}
        asks = mechanism or (f.yes_no and bool(rels & {TREATS, PALLIATES}))
        if not asks or len(ents) != 2:
            return ents
        if not any(e.kind == "Compound" for e in ents):
            return ents
        out = list(ents)
        for i, e in enumerate(ents):
            disease = self._disease_named_by(e) if e.kind in CONDITION_KINDS else None
            if disease is not None and says_more(disease.name, e.name):
                out[i] = disease
        return out

    def _joins(self, f: Features, ents: list[LinkedEntity]) -> bool:
        """A relation the question's words name joins the two things' kinds (a pathway read
        for "insulin" is not what "a treatment for type 1 diabetes" is said of); a class
        stands for its drugs."""
        rels = {r for c in f.cues for r in c.rels}
        return bool(rels & joining(self.store, ents[0], ents[1]))

    def _nothing_linked(self, plan: Plan, words: Wording, ents: list[LinkedEntity]) -> Plan | None:
        """Decides a question that names no node: a short structured question with one or
        two phrases that link to nothing asks about something the graph lacks
        (``not_found``); any other is a literature question."""
        if ents:
            return None
        link = words.link
        if (
            words.structured
            and 1 <= len(link.unlinked) <= MAX_UNLINKED
            and len(link.tokens) <= NOT_FOUND_TOKENS
        ):
            plan.intent = "not_found"
        return plan

    def _says_more(
        self,
        plan: Plan,
        words: Wording,
        meaning: Meaning | None,
        resolved: Resolved,
        single: Single,
        ents: list[LinkedEntity],
    ) -> Plan | None:
        """Decides whether a question that says more than a graph question (not
        ``focused``) is a literature question about its entities: it is when it wants a yes
        or a no, or when it is neither a request in graph words (``_graph_request``) nor
        read, with confidence, as one relation or chain of a linked entity
        (``_confident``)."""
        if focused(words):
            return None
        if words.features.yes_no or (
            not self._graph_request(words, single) and not self._confident(words, meaning, resolved)
        ):
            plan.seeds = ents
            return plan
        return None

    def _open_yes_no(
        self, plan: Plan, words: Wording, meaning: Meaning | None, ents: list[LinkedEntity]
    ) -> Plan | None:
        """Decides a yes/no question about one named thing and something the graph names not
        ("does vitamin D reduce falls", "does coffee protect against liver cancer" with no
        node for coffee): a list of the named thing's relations answers no such question, a
        study may; it is a literature question. One asking whether there is something ("is
        there a drug for X"), only naming a relation ("does X have side effects") or that the
        bank reads as one relation with confidence ("is asthma hereditary") is not."""
        f = words.features
        if not f.yes_no or words.existential or len(ents) != 1:
            return None
        if meaning is not None and (
            meaning.confident_path(ents[0].kind, f.named_kinds, f.target_kind, SEM_GRAPH)
            is not None
        ):
            # the bank is sure of a relation ("is asthma hereditary": its genes)
            return None
        own = [
            w
            for w in words.uncovered
            if not (is_structural(w) or is_cue_word(w) or w.lower() in INDEFINITE)
        ]
        if not own and not words.link.unlinked:
            return None
        plan.seeds = ents
        return plan

    def _walk(
        self,
        plan: Plan,
        words: Wording,
        meaning: Meaning | None,
        parses: Parses,
        single: Single,
        ents: list[LinkedEntity],
    ) -> Plan:
        """Decides the graph question: the best-parsed entity seeds the walk along a
        distribution over its metapaths (``one_hop`` or ``multi_hop``). Without a parse the
        question asks for an overview of its first entity (or is a literature question when
        long); a parse that explains too little of it is ``no_relation``."""
        if len(ents) == 1 and defining(plan.question, ents[0].start, ents[0].end):
            # "what is SLE": the thing itself, defined, and an overview of what the graph
            # links to it
            plan.seeds, plan.intent, plan.definition = ents[:1], "overview", True
            return plan
        if (acts := self._drug_action(plan, words, meaning, ents)) is not None:
            return acts
        if (among := self._among(plan, words, meaning, parses, single, ents)) is not None:
            return among
        best = best_seed(words.features, meaning, parses, single, ents)
        if best is None:
            # one thing named and no relation read: an overview of it; two things the graph
            # joins ("metformin and pcos"): the edges joining them, as a claim; several
            # things ("metformin and cancer incidence in diabetics"): what studies say of
            # them together
            if len(ents) == 2 and self.store.linked(ents[0].id, ents[1].id):
                plan.seeds, plan.targets, plan.intent = ents[:1], ents[1:], "claim"
                return plan
            plan.seeds = ents if len(ents) > 1 else ents[:1]
            long = len(words.link.tokens) > OVERVIEW_TOKENS
            apart = len(ents) > 1
            plan.intent = "literature" if long or apart else "overview"
            return plan
        score, seed, scored = best
        plan.seeds = [seed]
        plan.parse_score = score
        if score < MIN_PARSE_SCORE and not graph_reading(meaning, seed.kind):
            plan.intent = "no_relation" if words.structured else "literature"
            return plan
        plan.dist = distribution(scored)
        plan.intent = "one_hop" if len(plan.dist[0][0]) == ONE_HOP else "multi_hop"
        f = words.features
        if seed.kind not in senses.DRUG_DISEASE and (
            asks_remedy(f.cues, f.target_kind)
            or (seed.kind in CONDITION_KINDS and _class_for_it(plan.question, ents))
            or (seed.kind in CONDITION_KINDS and not f.cues and _drugs_after(plan.question, seed))
        ):
            # "treatment for herpes simplex" where the graph has it only as a side effect:
            # what causes it is no answer, and a disease named by it is what is meant ("meds
            # for anxiety": anxiety disorder), asked instead
            instead = self._disease_named_by(seed)
            # a chain through the diseases presenting it only when the question names them
            # ("drugs for diseases that present nausea"), never for "meds for nausea"
            through = "Disease" in words.features.named_kinds
            if not (through and explains_therapy(plan.dist)):
                plan.intent, plan.note = "no_relation", no_therapy_reason(seed.name, seed.kind)
                plan.instead = instead
                return plan
        if seed.kind in CONDITION_KINDS and f.target_kind == "Gene":
            # "congenital long qt syndrome genes" where the graph has it as a side effect:
            # the genes of the disease named by it, asked when the walk finds none
            genes = [u for u in self.store.uses() if u.rel == "DaG" and u.src == "Disease"]
            plan.instead = self._disease_named_by(seed, genes)
        self._typed(plan, words, seed)
        self._set_of(plan, seed, ents)
        return self._therapy(plan, seed) or self._ask_relation(plan, meaning, seed)

    def _among(
        self,
        plan: Plan,
        words: Wording,
        meaning: Meaning | None,
        parses: Parses,
        single: Single,
        ents: list[LinkedEntity],
    ) -> Plan | None:
        """Decides a question asking which of several listed things the relation links to one
        more ("which of propranolol, topiramate and sumatriptan treat migraine"): walked from
        that one along its best relation to the listed kind, the answers kept to the list."""
        if not is_wh_question(plan.question) and "which" not in words.features.norm.split():
            return None
        kinds = Counter(e.kind for e in ents)
        many = [k for k, n in kinds.items() if n >= 2]
        if len(many) != 1 or len(kinds) != 2 or len(ents) != kinds[many[0]] + 1:
            return None
        group = sorted((e for e in ents if e.kind == many[0]), key=lambda e: e.start)
        if not listed(plan.question, [(e.start, e.end) for e in group]):
            return None
        m, target = next(
            (m, e) for (m, _), e in zip(single, ents, strict=True) if e.kind != many[0]
        )
        scored = [
            (mp, sc)
            for mp, sc in seed_parses(words.features, meaning, parses, m, target.kind)
            if len(mp) == ONE_HOP and mp.uses[0].dst == many[0]
        ]
        if not scored:
            return None
        plan.seeds, plan.dist, plan.intent = [target], distribution(scored), "one_hop"
        plan.members, plan.set_op = group, AMONG
        return self._therapy(plan, target) or plan

    def _drug_action(
        self, plan: Plan, words: Wording, meaning: Meaning | None, ents: list[LinkedEntity]
    ) -> Plan | None:
        """Decides a question asking how one drug works, with no disease named ("moa of
        galantamine", "how does metformin work"): a drug's mechanism of action is what it acts
        on, so the plan walks what it binds (the drug-target action read as in ``_typed``)."""
        if len(ents) != 1 or ents[0].kind != "Compound" or not asks_mechanism(words, meaning):
            return None
        drug = ents[0]
        binds = next(
            (
                mp
                for mp in enumerate_metapaths(drug.kind, ONE_HOP, self.data.uses)
                if mp.uses[0].rel == BINDS
            ),
            None,
        )
        if binds is None:
            return None
        plan.seeds, plan.dist, plan.intent = [drug], [(binds, 1.0)], "one_hop"
        self._typed(plan, words, drug)
        return plan

    def _asks_treats_alone(self, question: str) -> bool:
        """The question's own words, besides the verb "treat" that any therapy question may
        use, speak for treats over palliates ("disease-modifying", "approved", "first-line":
        the words the bank uses for treats alone, ``twins``)."""
        if self.semantic is None:
            return False
        said = self.semantic.twin_words().says(TREAT_VERB.sub(" ", question))
        return said.get(TREATS, 0) > said.get(PALLIATES, 0)

    def _set_of(self, plan: Plan, seed: LinkedEntity, ents: list[LinkedEntity]) -> None:
        """Decides a set question (``sets``): one relation asked of the seed and of more
        entities of its kind, named as a list joined as each, as any, or as one but not the
        other."""
        same = [e for e in ents if e.kind == seed.kind and e.id != seed.id]
        if not same or len(plan.dist[0][0]) != ONE_HOP:
            return
        listed = sorted({e.id: e for e in (seed, *same)}.values(), key=lambda e: e.start)
        op = list_operation(plan.question, [(e.start, e.end) for e in listed])
        if op is not None and (op != BUT_NOT or len(listed) == 2):
            plan.members, plan.set_op = listed, op

    def _therapy(self, plan: Plan, seed: LinkedEntity) -> Plan | None:
        """Decides a therapy question (``therapy``): one read as treats is walked along treats
        and palliates, with no relation to ask about."""
        if self._asks_treats_alone(plan.question) and self._states(seed, plan.dist[0][0]):
            # "what is X approved for": treats alone, unless the graph records no treats edge
            # of X, when what relieves (palliates) is the answer the data has
            return None
        one_hops = enumerate_metapaths(seed.kind, ONE_HOP, self.data.uses)
        dist = therapy_dist(plan.dist, one_hops)
        if dist is None:
            return None
        if not self._states(seed, dist[0][0]):
            # only drugs that relieve it (or only what it relieves): the whole therapy reading
            # is theirs, so that they are not held below the review floor
            (_, treats), (palliates, share), *rest = dist
            dist = [(palliates, treats + share), *rest]
        plan.dist, plan.therapy = dist, True
        return plan

    def _disease_named_by(
        self, seed: LinkedEntity, uses: list[DirectedRel] | None = None
    ) -> LinkedEntity | None:
        """The treated disease named by a symptom's word (``disease_named_by``); with
        ``uses``, the disease named by it that has edges of those instead."""
        said = seed.mention or seed.name
        nid = disease_named_by(self.store, said, uses) or self._disease_meant_by(said, uses)
        if nid is None:
            return None
        return seed.model_copy(update={"id": nid, "name": self.store.name(nid), "kind": "Disease"})

    def _disease_meant_by(self, said: str, uses: list[DirectedRel] | None = None) -> str | None:
        """A treated disease whose name says what ``said`` says in other word forms ("major
        depression": major depressive disorder), found by name embedding and kept only when
        the two names cover each other (``linking.covers``, ``linking.fills``)."""
        linker = self.linker
        for nid, _ in linker.embedded_names(said):
            name = self.store.name(nid)
            if (
                self.store.kind(nid) == "Disease"
                and covers(said, name)
                and fills(said, name)
                and any(
                    self.store.degree(self.store.index[nid], u)
                    for u in (uses or therapy_uses(self.store))
                )
            ):
                return nid
        return None

    def _states(self, seed: LinkedEntity, path: Metapath) -> bool:
        """The graph has an edge of ``path``'s first relation at ``seed``."""
        return self.store.degree(self.store.index[seed.id], path.uses[0]) > 0

    def _typed(self, plan: Plan, words: Wording, seed: LinkedEntity) -> None:
        """Decides the drug-target action asked for ("What does X inhibit?"): the plan's
        binding readings keep that action's edges of the seed (``DataVocabulary.typed``)."""
        i = self.store.index[seed.id]
        typed = self.data.typed(
            plan.dist,
            words.features.norm,
            words.spans,
            seed.name,
            lambda u: self.store.degree(i, u),
        )
        if typed is not None:
            plan.dist, plan.action, plan.note = typed.dist, typed.action, typed.note

    def _ask_relation(self, plan: Plan, meaning: Meaning | None, seed: LinkedEntity) -> Plan:
        """Decides whether to ask which relation is meant: with a reading, when the two most
        probable single relations are close (``reading.close_pair``)."""
        pair = close_pair(plan.dist) if meaning is not None else None
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

    def _confident(self, words: Wording, meaning: Meaning | None, resolved: Resolved) -> bool:
        """The bank is sure the question asks a relation (or chain) of one of its linked
        entities that fits the kinds it names: its top reading is one, at least ``SEM_GRAPH``
        probable, or, when the question asks for things ("For PCOS, which medications only
        take the edge off?"), more probable than not (``SEM_ACCEPT``)."""
        if meaning is None:
            return False
        f = words.features
        floor = SEM_ACCEPT if words.asks_for_things else SEM_GRAPH
        return any(
            meaning.confident_path(self.store.kind(ids[0]), f.named_kinds, f.target_kind, floor)
            is not None
            for _, ids in resolved
            if len(ids) == 1
        )

    def _graph_request(self, words: Wording, single: Single) -> bool:
        """A longer request about one named thing whose further words (``uncovered``)
        are, but for at most ``MAX_UNCOVERED``, words the graph-question wordings and cue
        tables use ("molecular", "repressors", "profile"): it asks the graph for that thing's
        relation. A literature question's further words are its own subject matter
        ("survival", "biopsy"); a longer question about how several things relate ("what
        makes X turn into Y") needs a confident reading; a phrase linked only by meaning names
        nothing."""
        own = sum(
            not is_relation_word(w.lower(), self.linker.relation_words) for w in words.uncovered
        )
        return (
            own <= MAX_UNCOVERED
            and sum(m.method != "embedding" for m, _ in single) == 1
            and (words.asks_for_things or self._imperative(words))
        )

    def _imperative(self, words: Wording) -> bool:
        """The question opens with a verb in its plain form that is no name ("Pull up ...",
        "Fetch ..."): a request, which asks for things."""
        vocabulary = self.linker.vocabulary
        tokens = words.link.tokens
        if vocabulary is None or not tokens or 0 in words.covered:
            return False
        first = tokens[0]
        return (
            first.text.isalpha()
            and first.norm not in YES_NO_START
            and not is_structural(first.norm)
            and vocabulary.language.inflects_as_verb(first.norm)
        )

    def _related(self, ents: list[LinkedEntity]) -> bool:
        """The graph has a relation from the first entity's kind to the second's."""
        a, b = ents[0], ents[1]
        return any(
            mp.uses[0].dst == b.kind for mp in enumerate_metapaths(a.kind, ONE_HOP, self.data.uses)
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


CLASS_MEMBER = {"Pharmacologic Class": "Compound"}
"""A class of drugs is said to do what its drugs do ("statins cause myopathy?")."""


def joining(store: KGStore, a: LinkedEntity, b: LinkedEntity) -> set[str]:
    """The relations the graph has between the kinds of ``a`` and ``b`` (a class standing
    for its drugs): those a claim about the two can be about."""
    ends = {CLASS_MEMBER.get(e.kind, e.kind) for e in (a, b)}
    return {u.rel for u in store.uses() if {u.src, u.dst} == ends}


_FOR = re.compile(r"^\s+(?:for|against|in)\b", re.IGNORECASE)


_FIRST_WORD = re.compile(r"\s*([a-z]+)", re.IGNORECASE)


def _drugs_after(question: str, seed: LinkedEntity) -> bool:
    """A condition named right before a noun for drugs, with no relation word ("anxiety
    meds", "nausea drugs"): the drugs one gives for it, as "drugs for" says; "drugs that
    cause nausea" says what it asks in words."""
    if not 0 <= seed.start < seed.end:
        return False
    m = _FIRST_WORD.match(question[seed.end :])
    return m is not None and KIND_WORDS.get(m.group(1).lower()) == "Compound"


def _class_for_it(question: str, ents: Sequence[LinkedEntity]) -> bool:
    """A drug class named just before "for" ("anticoagulants for dvt", "antiemetics for
    nausea"): the question asks for a remedy, as "drugs for" does."""
    return any(
        e.kind == "Pharmacologic Class" and _FOR.match(question[e.end :]) is not None
        for e in ents
        if e.end > 0
    )


def asks_mechanism(words: Wording, meaning: Meaning | None) -> bool:
    """The question asks how a drug acts on a disease: its words say so, or the bank reads
    the mechanism more probable than not in a question that is no plain yes/no question."""
    f = words.features
    return f.mechanism or (
        meaning is not None and (not f.yes_no or f.declarative) and meaning.mechanism >= SEM_ACCEPT
    )


def _shared(question: str, ents: Sequence[LinkedEntity]) -> bool:
    """Two things of one kind written as a list in a question of what they have in common
    ("do carbamazepine and lamotrigine share any targets"): a set question about both, not
    a claim about an edge between them."""
    first, second = sorted(ents[:2], key=lambda e: e.start)
    return (
        first.kind == second.kind
        and listed(question, [(first.start, first.end), (second.start, second.end)])
        and asks_common(question)
    )


def reads_claim(words: Wording, meaning: Meaning | None, ents: Sequence[LinkedEntity]) -> bool:
    """The bank reads a claim about an edge: a yes/no question naming both ends of a relation
    asks about that edge (the claim slots and those of the relations between the two kinds);
    one asking whether there is something ("Are there brain changes in X?") does only when
    the bank reads a claim."""
    if meaning is None:
        return False
    if len(ents) == 2 and not words.existential:
        return meaning.reading.claim_mass(ents[0].kind, ents[1].kind) >= SEM_ACCEPT
    return meaning.claim >= SEM_ACCEPT


def focused(words: Wording) -> bool:
    """A graph question names its entities and relations; a literature question says more
    (more than ``MAX_UNCOVERED`` further words)."""
    return len(words.uncovered) <= MAX_UNCOVERED


CONDITION_KINDS = frozenset({"Side Effect", "Symptom"})
"""Kinds whose names say a circumstance a question may be about ("pregnancy", "renal
impairment") rather than a thing it asks of the graph."""

FOREIGN_LETTERS = 4
FOREIGN_WORDS = 2
FOREIGN_SHARE = 0.6
"""A question whose words of ``FOREIGN_LETTERS`` letters or more outside its names are at
least this share unknown to the corpus and the tokenizer, and at least ``FOREIGN_WORDS`` of
them, is written in another language."""

INDEFINITE = frozenset(
    "anything something everything nothing anyone any some all other others else".split()
)
"""Words that stand for what is asked without naming it ("does imatinib inhibit anything")."""


def question_hash(question: str) -> str:
    """The question's id in traces: the first ``QHASH_CHARS`` hex digits of its SHA-1."""
    return hashlib.sha1(question.encode("utf-8")).hexdigest()[:QHASH_CHARS]


_CLAUSE = re.compile(r"\b(?:that|which|who)\s+$", re.IGNORECASE)


def _denial(question: str, lo: int, hi: int) -> int | None:
    """Where the words between ``lo`` and ``hi`` start to deny or set apart the name at ``hi``
    ("drugs *that aren't* beta blockers", "drugs *other than* statins"), else None."""
    if (apart := EXCLUDING.search(question[lo:hi])) is not None:
        return lo + apart.start()
    for m in re.finditer(r"[\w']+", question[lo:hi]):
        word = m.group().lower().replace("\u2019", "'")
        if opens_negation(word) or word.endswith("n't"):
            at = lo + m.start()
            clause = _CLAUSE.search(question[lo:at])
            return lo + clause.start() if clause is not None else at
    return None


NAMED_BY_EXTRA = 1
"""Words a disease's name may have beyond a symptom's to be named by it ("anxiety disorder")."""


def therapy_uses(store: KGStore) -> list[DirectedRel]:
    """The uses from a disease to the drugs that treat or palliate it."""
    return [u for u in store.uses() if u.rel in (TREATS, PALLIATES) and u.src == "Disease"]


def disease_named_by(
    store: KGStore, said: str, uses: list[DirectedRel] | None = None
) -> str | None:
    """The disease whose name is ``said``'s words (in either spelling, ``wordforms``) and at
    most ``NAMED_BY_EXTRA`` more ("anxiety": anxiety disorder; "depression": endogenous
    depression), or ``said``'s words but as many fewer ("gout flare": gout), with the most
    drugs that treat or palliate it (with ``uses``: the most edges of those, a disease's
    genes); None when no such disease has any."""
    words = [american(w) for w in alias_key(said).split()]
    if not words:
        return None
    uses = uses or therapy_uses(store)
    best: tuple[bool, int, int, str] | None = None
    for nid, name in store.names_of_kind("Disease"):
        have = [american(w) for w in alias_key(name).split()]
        wider = len(have) <= len(words) + NAMED_BY_EXTRA and _contains_run(have, words)
        narrower = len(words) <= len(have) + NAMED_BY_EXTRA and _contains_run(words, have)
        # the head noun phrase of a longer name ("community acquired pneumonia": pneumonia),
        # taken only when no name of the words closer to them has drugs
        headed = len(have) < len(words) and words[-len(have) :] == have
        # or the longer name without a word inside it, its head kept ("pulmonary arterial
        # hypertension": pulmonary hypertension, before hypertension)
        inside = 1 < len(have) < len(words) and have[-1] == words[-1] and _in_order(words, have)
        if not have or not (wider or narrower or headed or inside):
            continue
        i = store.index[nid]
        drugs = sum(store.degree(i, u) for u in uses)
        key = (wider or narrower, len(have) if headed or inside else 0, drugs, nid)
        if drugs and (best is None or key > best):
            best = key
    return best[-1] if best else None


def says_more(name: str, said: str) -> bool:
    """``name`` holds every word of ``said`` ("bulimia nervosa" of "bulimia"), so a claim
    about it is one about what was said; a name with fewer ("gout" of "acute gout attack")
    is another claim."""
    return set(alias_key(said).split()) <= set(alias_key(name).split())


def _in_order(words: list[str], part: list[str]) -> bool:
    """``part``'s words all occur in ``words``, in the same order (others may stand between)."""
    rest = iter(words)
    return all(w in rest for w in part)


def _contains_run(words: list[str], run: list[str]) -> bool:
    """``run`` occurs in ``words`` as consecutive words."""
    n = len(run)
    return any(words[i : i + n] == run for i in range(len(words) - n + 1))
