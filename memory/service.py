"""``UserMemory``: one user's memory behind ``engine.ports.MemoryPort``.

Stores (opened by ``memory.store.backend``: files under ``settings.user_dir(user)``, or the
user's rows in PostgreSQL): the vault of facts and aliases, the episodic turn log, the answer
cache; forgetting also reaches the session transcripts (``sessions.store``), in PostgreSQL in
the same transaction. Nothing here is shared between users.
"""

from __future__ import annotations

import errno
import logging
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from engine.config import Settings
from engine.ports import Embed
from engine.result import LinkedEntity, Result, Triple
from engine.telemetry.scrub import forget_in_traces, trace_files
from engine.understand.form import is_question, sentences
from engine.understand.polarity import Directions
from engine.understand.spelling import Edit, Speller, apply, moved
from engine.util.faults import MemoryFault
from engine.util.text import alias_key, has_lone_surrogate
from memory.answer import Answerer
from memory.asks import AskScorer, mask
from memory.cache import AnswerCache, is_reviewed
from memory.classes import DrugClasses
from memory.clauses import clauses
from memory.clock import Clock
from memory.dosing import dose_changed_to, kept_frequency
from memory.extract import Extracted, Extractor
from memory.linking import StatementLinker
from memory.literals import find_measurements
from memory.notes import it_as_code, revived
from memory.onrecord import clipped, redosed_on_record, stopped_value
from memory.origin import LOOKED_UP, STATED, confident_answers, kind_named
from memory.reasons import switch_reasons, switched_from, without_susceptibilities
from memory.relations import RelationCatalog, load_catalog
from memory.results import NameOf
from memory.router import Route, Router
from memory.saidnames import as_stated, said_drugs
from memory.sqlite import compact_sqlite
from memory.stated import says_now, stated_instant, unresolved_time
from memory.store.backend import TurnLog, delete_user, open_stores
from memory.subjects import Linker, Resolver, link
from memory.tables import as_statements
from memory.vault import VAULT_FILE, Fact, StoreOutcome, Vault

DEFAULT_SESSION = "default"
log = logging.getLogger(__name__)


ForgetElsewhere = Callable[[list[str]], object]
"""Drops every mention of these needles (ids, aliases, ``vault:<id>``) from another store."""


class InvalidText(ValueError):
    """Text memory cannot keep: it holds lone surrogates (not valid Unicode)."""


def check_text(*texts: str | None) -> None:
    """Raise ``InvalidText`` (one sentence with the fix) if any text holds a lone surrogate,
    which neither the DuckDB vault nor the SQLite logs can store."""
    for text in texts:
        if text and has_lone_surrogate(text):
            raise InvalidText(
                "the text is not valid Unicode (it holds a lone surrogate such as \\ud800); "
                "send it as UTF-8 text"
            )


@dataclass(frozen=True)
class Noted:
    """What a statement left in memory: the facts stored, and the sentences that stated none
    (said back to the user, never dropped silently)."""

    facts: tuple[Fact, ...]
    unread: tuple[str, ...]


class UserMemory:
    """Per-user memory: vault + episodic + cache, implementing ``MemoryPort``."""

    def __init__(
        self,
        settings: Settings,
        user: str,
        *,
        clock: Clock,
        linker: Linker | None = None,
        embed: Embed | None = None,
        catalog: RelationCatalog | None = None,
        asks: AskScorer | None = None,
        name_of: NameOf | None = None,
        forget_elsewhere: ForgetElsewhere | None = None,
        speller: Speller | None = None,
        directions: Directions | None = None,
    ) -> None:
        """``asks`` reads memory questions by meaning (built over ``embed`` when not given;
        share one between users); ``name_of`` names graph nodes stored without a name;
        ``forget_elsewhere`` is told what ``forget`` removed, to scrub stores memory does not
        own (``sessions.store.mention_scrubber``: the user's chat sessions); ``speller``
        corrects typos of question words before a question is read; ``directions`` reads
        which way a question says an amount moves (both the engine's, ``EnginePort``)."""
        self.speller = speller
        self.forget_elsewhere = forget_elsewhere
        self._asked: dict[str, tuple[str, datetime]] = {}
        self._ttl = timedelta(minutes=settings.episodic_ttl_minutes)
        self._last_question: dict[str, tuple[str, datetime]] = {}
        self._last_drug: dict[str, str] = {}
        """Per session, the drug its last memory question named ("it" in a follow-on)."""
        """Per session, its last memory question (a follow-on borrows its words)."""
        """Per session, the subject its last memory question named (``_conversation``)."""
        self.residue: str | None = None
        """What the last ``forget`` could not erase from the files, said plainly."""
        self.settings = settings
        self.user = user
        self.clock = clock
        self.linker = linker
        self.dir = settings.user_dir(user)
        self.catalog = catalog or load_catalog()
        stores = open_stores(settings, user, clock, catalog=self.catalog, embed=embed)
        self.vault: Vault = stores.vault
        self.episodic: TurnLog = stores.episodic
        self.cache: AnswerCache = stores.cache
        self.resolver = Resolver(self.vault)
        self.router = Router(resolve=self.resolver.mentioned)
        self.extractor = Extractor(self.catalog, self.resolver, linker)
        if asks is None and embed is not None:
            asks = AskScorer(embed)
        self.asks = asks
        self.name_of = name_of or (linker.name_of if isinstance(linker, StatementLinker) else None)
        members = linker.members_of if isinstance(linker, StatementLinker) else None
        self.answerer = Answerer(
            self.vault,
            self.resolver,
            self.catalog,
            asks=asks,
            name_of=self.name_of,
            directions=directions,
            classes=(
                DrugClasses(linker, linker.name_of, members)
                if isinstance(linker, StatementLinker) and members is not None
                else None
            ),
        )

    # --- lifecycle -------------------------------------------------------------------------
    @contextmanager
    def hold(self) -> Iterator[UserMemory]:
        """Keep this user's vault open (and locked against other processes) for a batch; in
        PostgreSQL each operation stays its own transaction."""
        with self.vault.batch():
            yield self

    def warm(self) -> None:
        """Do now what the first question would otherwise wait for: the router's patterns
        compiled, and what the question bank's relations share worked out (once per process:
        the rules and the scorer are shared by every user)."""
        rules = self.router.rules
        for rule in rules.rules:
            _ = rule.patterns
        _ = rules.temporal.compiled, rules.temporal.asking_clause_re
        if self.answerer.asks is not None:
            self.answerer.asks.shared_cues(self.catalog)

    def close(self) -> None:
        try:
            self.vault.flush()
        except MemoryFault as exc:
            log.warning("the last uses of remembered facts were not recorded: %s", exc)
        finally:
            self.episodic.close()
            self.cache.close()

    def __enter__(self) -> UserMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- MemoryPort --------------------------------------------------------------------------
    def route(self, question: str) -> Route:
        return self.router.route(question, self.clock.now())

    def answer(
        self, question: str, linked: list[LinkedEntity], session: str | None = None
    ) -> Result | None:
        """Answer from this user's own memory; None when it is not a memory question.

        Typos of question words are corrected first ("prevous creatinine?"); ``linked`` spans are
        moved to the corrected text."""
        asked = question
        if self.speller is not None:
            edits = self.speller.edits(question)
            question = apply(question, edits)
            linked = _moved(linked, edits)
        key = session or DEFAULT_SESSION
        last = self._last_question.get(key)
        before = last[0] if last is not None and self.clock.now() - last[1] <= self._ttl else None
        drug = self._last_drug.get(key) if before is not None else None
        if drug is not None and _FOLLOW_ON.match(question):
            # "and what did we start it at": "it" is the drug the last question named
            question = _POINTS_BACK.sub(drug, question, count=1)
        with self.vault.hold(), self.resolver.reading():
            result = self._answer(question, linked, session)
            if result is None and before is not None and _FOLLOW_ON.match(question):
                # "and as of thursday", "and which did i stop": a question that goes on from
                # the conversation's last memory question borrows its words, its own first
                # (its own time and verb are what it asks)
                question = f"{question.rstrip(' ?')}, {self._borrowed(question, before)}"
                result = self._answer(question, linked, session)
            if result is not None:
                self._last_question[key] = (question, self.clock.now())
        if result is not None and result.question != asked:
            result.question = asked
        return result

    def _borrowed(self, question: str, before: str) -> str:
        """What a follow-on takes from the memory question before it: its subject and what it
        asked, less what the follow-on says of its own. Its own time replaces the one before
        ("615 cr on monday?" then "and today"); its own relation asks that of the same subject
        ("wren backup?" then "and the lead?"), so only the subject the one before named is
        taken (all of it when that named none)."""
        if self.route(question).temporal.explicit:
            before = self.router.without_time(before, self.clock.now())
        if not any(s.score(question, ask=True) > 0 for s in self.catalog.relations.values()):
            return before
        named = [
            r.mention
            for r in self.resolver.patients(before) + self.resolver.notes(before)
            if r.known and r.id and r.mention
        ]
        return " ".join(dict.fromkeys(named)) or before

    def _answer(
        self, question: str, linked: list[LinkedEntity], session: str | None
    ) -> Result | None:
        """``answer`` once the question is read as it stands; notes the subject it names as
        the conversation's."""
        route = self.route(question)
        if not route.memory and not route.subjects:
            return None
        entities = _merge(linked, link(self.linker, question))
        last = self._conversation(session)
        entities = _merge(entities, self._said_drugs(question, entities, last))
        entities = as_stated(entities, self._asked_drugs(question, last))
        result = self.answerer.answer(question, entities, route, last)
        drugs = [e.mention for e in entities if e.kind == "Compound" and e.start >= 0]
        if drugs:
            self._last_drug[session or DEFAULT_SESSION] = drugs[0]
        named = [r.id for r in self.resolver.patients(question) if r.id and r.known]
        named += [r.id for r in self.resolver.notes(question) if r.id and r.known]
        if named:
            self._asked[session or DEFAULT_SESSION] = (named[0], self.clock.now())
        return result

    def _asked_drugs(self, question: str, conversation: str | None) -> list[Fact]:
        """The medications the user gave for the patient asked about (named, else the
        conversation's)."""
        named = [r for r in self.resolver.patients(question) if r.id and r.known]
        patient = named[0].id if named else conversation
        if patient is None or not patient.startswith("patient:"):
            return []
        return [f for f in self.vault.history(patient, "takes") if f.source == STATED]

    def _said_drugs(
        self, question: str, linked: list[LinkedEntity], conversation: str | None
    ) -> list[LinkedEntity]:
        """The medications of the patient asked about (named, else the conversation's) that
        the question names as the user wrote them (``memory.saidnames``: "his norad rate")."""
        named = [r for r in self.resolver.patients(question) if r.id and r.known]
        patient = named[0].id if named else conversation
        if patient is None or not patient.startswith("patient:"):
            return []
        taken = [(e.start, e.end) for e in linked if e.start >= 0]
        taken += [(r.start, r.end) for r in named if r.start >= 0]
        drugs = self._asked_drugs(question, conversation)
        specs = self.catalog.relations.values()
        return said_drugs(
            question, drugs, taken, lambda w: any(s.score(w, ask=True) > 0 for s in specs)
        )

    def boosts(self, triples: list[Triple], question: str | None = None) -> dict[Triple, float]:
        """``settings.vault_boost`` for each triple that is a current quality-1 vault fact; a
        fact the engine looked up (``reviewed``) for this same ``question`` is left out, so a
        misread question's answer never boosts itself when it is asked again."""
        verified = self.vault.verified(triples, not_for=question)
        return {t: self.settings.vault_boost for t in triples if t in verified}

    def cached(self, question: str, mode: str) -> Result | None:
        return self.cache.get(question, mode)

    def record(self, question: str, result: Result, session: str | None) -> None:
        """Log the turn; keep the triples of a confidently reviewed graph answer in the vault
        as looked-up facts (``memory.origin.confident_answers``: the quality gate) and the
        answer in the cache."""
        self.episodic.add(
            session or DEFAULT_SESSION,
            question,
            chain=[[list(t) for t in p] for p in result.paths],
            evidence=[e.model_dump(mode="json") for e in result.evidence],
            quality=result.answers[0].score if result.answers else None,
            subject=_subject_of(result),
        )
        if not is_reviewed(result) or (result.answers and result.answers[0].source == "memory"):
            return
        top = confident_answers(
            result, self.settings.looked_up_min_confidence, self.settings.vault_boost
        )
        with self.vault.hold():
            for ev in result.evidence:
                if (
                    ev.kind == "triple"
                    and ev.triple
                    and (ev.triple[0] in top or ev.triple[2] in top)
                ):
                    self.vault.add(
                        *ev.triple,
                        source=LOOKED_UP,
                        quality=1.0,
                        evidence=question,
                        session=session,
                    )
        self.cache.put(question, result.mode or "hybrid", result)

    # --- statements ----------------------------------------------------------------------------
    def state(self, text: str, session: str | None = None) -> Fact | None:
        """Capture the facts a user statement states (text extraction); the first one stored,
        None if none found (``state_each`` tells each).

        Questions are never captured (callers may offer every chat input here first)."""
        noted = self.state_each(text, session)
        return noted.facts[0] if noted.facts else None

    def state_each(self, text: str, session: str | None = None) -> Noted:
        """Capture the facts of each sentence of a statement, under the patient its sentence
        names ("Patient MRN A was started on X today. Patient MRN B is allergic to Y." is two
        facts); a sentence that names none is about the conversation's patient when it says
        so ("her", "my patient") or, in a clinician's shorthand, when what it states is a
        patient's ("eGFR 38, BP 142/84" after naming one). A sentence that packs several facts
        ("on metformin 500 mg bid, started empagliflozin 10 mg od") gives one per clause
        (``memory.clauses``). When no sentence alone states a fact, the whole text is read at
        once (a fact spread over two sentences)."""
        check_text(text, session)
        if is_question(text):
            return Noted((), ())
        # a grid of several patients' results: a sentence per patient
        text = as_statements(text, self.catalog.measurement_keys)
        parts = _rejoined([p for p in sentences(text) if p.strip()])
        with self.vault.hold():
            if len(parts) > 1:
                found: list[tuple[str, tuple[Fact, ...]]] = []
                last: str | None = None
                for part in parts:
                    # a sentence that names no patient goes on about the one the sentence
                    # before it stated a fact of ("MRN 5520 started X. confusion after the
                    # first dose.")
                    each = self._state_one(part, session, after=last)
                    found.append((part, each))
                    last = each[-1].subj if each else last
                self._keep_remarks(found, session)
                facts = tuple(f for _, each in found for f in each)
                if facts:
                    return Noted(facts, tuple(p for p, each in found if not each))
            facts = self._state_one(text, session, log_miss=len(parts) <= 1)
            if not facts:
                self._keep_remarks([(text, ())], session, alone=True)
            return Noted(facts, ()) if facts else Noted((), (text,))

    def _keep_remarks(
        self, found: list[tuple[str, tuple[Fact, ...]]], session: str | None, *, alone: bool = False
    ) -> None:
        """Keep each sentence that stated no fact as written, as a remark about its subject
        (``memory.remarks``): the patient or project it names, else the subject of the fact
        stated before it in the message, else the conversation's. The sentence is still said
        back as not read (no fact was read from it); a remark only answers a later question
        that nothing else answers. A message that stated no fact at all (``alone``) is kept
        only when it is about a project: a patient's number and a few words may be a question
        put without its question mark."""
        if not any(each for _, each in found) and not alone:
            return
        conversation = self._conversation(session)
        last = next((f.subj for _, each in found for f in each), conversation)
        for part, each in found:
            if each:
                last = each[-1].subj
                continue
            named = [r.id for r in self.resolver.patients(part) + self.resolver.notes(part) if r.id]
            subject = named[0] if named else last
            if subject is None or not subject.startswith(("note:", "patient:")):
                continue
            if alone and not subject.startswith("note:"):
                continue
            rel = "project_remark" if subject.startswith("note:") else "patient_remark"
            self._store(Extracted(subject, rel, part.strip()), part, session)

    def _state_one(
        self, text: str, session: str | None, *, log_miss: bool = True, after: str | None = None
    ) -> tuple[Fact, ...]:
        """Store the facts of one sentence: its clauses' when they state more than one (or the
        sentence as a whole states none), else the sentence's; a sentence without one is
        logged (with the patient it names) when ``log_miss``, and not again when its sentences
        already were; ``after``: the subject of the message's sentence before, which is the
        conversation's for this one."""
        with self.vault.hold():
            conversation = after or self._conversation(session)
            # the patient a sentence before it in the message named is as good as its own
            how = "clause" if after else "conversation"
            found = self.extractor.extract(text, conversation, carried=how)
            pieces = self._clause_facts(text, conversation)
            if not pieces and found is None:
                named = [r.id for r in self.resolver.patients(text) if r.id]
                found = self._on_record(text, named[0] if named else conversation)
            if len(pieces) < 2 and found is not None:
                pieces = [(text, found)]
            if not pieces:
                self.vault.learn_aliases(self.resolver.introductions(text))
                if log_miss:
                    named = [r.id for r in self.resolver.patients(text) if r.id]
                    self._log_statement(text, session, None, named[0] if named else None)
                return ()
            pieces += self._other_values(pieces)
            # a harm said as the reason of a switch is what the drug taken off did
            harms = link(self.linker, text, {"Side Effect", "Symptom"})
            pieces = switch_reasons(
                text,
                pieces,
                harms,
                lambda node: _graph_name(self.name_of, node) if self.name_of else None,
            )
            named = [e.id for e in link(self.linker, text) if e.kind == "Compound"]
            pieces = without_susceptibilities(text, switched_from(pieces, named))
            pieces += self._revived(text, pieces)
            pieces = [(part, self._as_own(self._stopped(part, fact))) for part, fact in pieces]
            said = self._stated_instant(text)
            stored = [
                self._store(self._as_said(fact, part, text), text, session, when)
                for part, fact in pieces
                # a clause that says "today" holds now, whatever another clause dates
                for when in [self._stated_instant(part) or (None if says_now(part) else said)]
            ]
            kept = tuple(f for f in stored if f is not None)
            self._project_asides(text, kept, session)
            return kept

    def _revived(
        self, sentence: str, pieces: list[tuple[str, Extracted]]
    ) -> list[tuple[str, Extracted]]:
        """A target of the sentence's project set aside before and taken up again by it
        ("bringing lpxc back"), no longer set aside (``notes.revived``)."""
        words = revived(sentence)
        notes = {f.subj for _, f in pieces if f.subj.startswith("note:")}
        out: list[tuple[str, Extracted]] = []
        for note in notes if words else ():
            for f in self.vault.history(note, "dropped_target"):
                names = {alias_key(n) for n in (f.obj, f.obj_name) if n}
                if f.t_end is None and names & set(words):
                    out.append((sentence, Extracted(note, f.rel, f.obj, ends=True)))
        return out

    def _project_asides(self, sentence: str, stored: tuple[Fact, ...], session: str | None) -> None:
        """Keep a project's sentence as a remark of that project, as written, when one of its
        clauses gave none of the values noted from it ("lead is KX-7 (IC50 12 nM), we killed
        KX-3 because of hERG": why KX-3 went is said only there)."""
        notes = [f for f in stored if f.subj.startswith("note:")]
        parts = clauses(sentence)
        if not notes or len(parts) < 2:
            return
        values = {alias_key(v) for f in notes for v in (f.obj, f.obj_name or "") if v}
        if any(not any(f" {v} " in f" {alias_key(p)} " for v in values) for p in parts):
            remark = Extracted(notes[0].subj, "project_remark", sentence.strip())
            self._store(remark, sentence, session)

    def _stopped(self, part: str, fact: Extracted) -> Extracted:
        """``fact`` as a stop when its words read as stopping the medication by meaning ("held
        his spironolactone", "weaned her off it") though no word of the statement grammar
        marks the value as old; a change to another value is left to that grammar, and a
        dose says the drug is given ("levo 100 mcg", "increasing vanc to 1.25 g")."""
        if (
            self.asks is None
            or fact.rel != "takes"
            or fact.ends
            or fact.supersedes is not None
            or fact.detail is not None
        ):
            return fact
        spans = [(r.start, r.end, "Patient") for r in self.resolver.patients(part) if r.start >= 0]
        spans += [(e.start, e.end, "Compound") for e in link(self.linker, part) if e.id == fact.obj]
        if not any(kind == "Compound" for *_, kind in spans):
            return fact
        if not self.asks.stops(mask(part, spans)):
            return fact
        return replace(fact, ends=True, detail=None)

    def _other_values(self, pieces: list[tuple[str, Extracted]]) -> list[tuple[str, Extracted]]:
        """The values each piece's clause gives besides its fact (``Extractor.values``), each
        once."""
        seen = {(f.rel, f.obj) for _, f in pieces}
        # a drug already noted, by its graph name or as written, is not noted again
        names = {alias_key(n) for _, f in pieces for n in (f.obj_name, f.said) if n}
        out: list[tuple[str, Extracted]] = []
        for part, fact in pieces:
            for extra in self.extractor.values(part, fact.subj, fact):
                said = {alias_key(n) for n in (extra.obj_name, extra.said) if n}
                if (extra.rel, extra.obj) not in seen and not (said & names):
                    seen.add((extra.rel, extra.obj))
                    names |= said
                    out.append((part, extra))
        return out

    def _drugs(self, patient: str) -> list[Fact]:
        """The medications the user gave for ``patient``, oldest first."""
        return [f for f in self.vault.history(patient, "takes") if f.source == STATED]

    def _on_record(self, part: str, patient: str | None) -> Extracted | None:
        """The fact a clause states only against the patient's record (``memory.onrecord``):
        a dose changed without naming the drug, or a medication stopped ("held his
        spironolactone", "vaso off") when the clause reads as stopping it by meaning."""
        if patient is None or not patient.startswith("patient:"):
            return None
        drugs = self._drugs(patient)
        linked = link(self.linker, part)
        if not any(e.kind == "Compound" for e in linked):
            changed = redosed_on_record(part, patient, drugs)
            if changed is not None:
                return changed
        if self.asks is None:
            return None
        spans = [(r.start, r.end, "Patient") for r in self.resolver.patients(part) if r.start >= 0]
        value = stopped_value(part, drugs, linked, [(a, b) for a, b, _ in spans])
        if value is None:
            return None
        obj, name, start, end = value
        if not self.asks.stops(mask(part, [*spans, (start, end, "Compound")])):
            return None
        return Extracted(patient, "takes", obj, None, name, ends=True)

    def _as_own(self, fact: Extracted) -> Extracted:
        """``fact`` with a drug the linker did not know read as the patient's medication its
        name clips ("carbi down to 10 mg od" after carbimazole 20 mg)."""
        if fact.rel != "takes" or "::" in fact.obj or not fact.subj.startswith("patient:"):
            return fact
        own = clipped(fact.obj_name or fact.obj, self._drugs(fact.subj))
        if own is None:
            return fact
        return replace(fact, obj=own.obj, obj_name=own.obj_name)

    def _as_said(self, fact: Extracted, part: str, sentence: str) -> Extracted:
        """``fact`` with a time its statement gives but no day can be read from ("last
        winter") kept as said in its detail, so answers show it as the user put it."""
        now = self.clock.now()
        if self._stated_instant(part) or self._stated_instant(sentence):
            return fact
        vague = unresolved_time(part, now) or unresolved_time(sentence, now)
        if vague is None:
            return fact
        said = f"(when: '{vague}', as said)"
        return replace(fact, detail=f"{fact.detail} {said}" if fact.detail else said)

    def _clause_facts(self, sentence: str, conversation: str | None) -> list[tuple[str, Extracted]]:
        """The fact of each clause of ``sentence`` that states one, each about the patient its
        clause names, else the one named before it in the sentence, else ``conversation``'s;
        empty for a sentence of one clause."""
        parts = clauses(sentence)
        if len(parts) < 2:
            return []
        out: list[tuple[str, Extracted]] = []
        patient, how = conversation, "conversation"
        headed = [r.id for r in self.resolver.notes(sentence) if r.id and r.start >= 0]
        if headed and not self.resolver.patients(sentence):
            # "fox degrader: vhl-based, lead FX-120": the project the sentence opens with, when
            # its first clause alone reads as naming none
            patient, how = headed[0], "clause"
        for at, part in enumerate(parts):
            named = [r.id for r in self.resolver.patients(part) if r.id]
            notes = [r for r in self.resolver.notes(part) if r.id]
            # a project the sentence named before goes on through a clause that seems to
            # name a new one ("osprey lead is OSP-71, ic50 12 nM in the cell assay")
            if notes and not any(r.known for r in notes) and (patient or "").startswith("note:"):
                notes = []
            named = named or [r.id for r in notes]
            if named:
                patient, how = named[0], "clause"
            if (patient or "").startswith("note:"):
                # "promoting it to lead": the compound said before in the sentence
                part = it_as_code(part, parts[:at])
            fact = (
                self.extractor.extract(part, patient, carried=how)
                or _redosed(part, out)
                or _continued(part, out, self.catalog, self._says_when)
                or self._on_record(part, patient)
            )
            if fact is not None and all(
                (fact.triple, fact.detail) != (f.triple, f.detail) for _, f in out
            ):
                out.append((part, fact))
        return out

    def _says_when(self, text: str) -> bool:
        """Whether ``text`` is no more than a time ("yesterday", "on Monday", "today")."""
        return says_now(text) or self._stated_instant(text) is not None

    def _stated_instant(self, text: str) -> datetime | None:
        """When ``text`` says its fact held (``memory.stated``), on this memory's clock."""
        rules = self.router.rules.temporal
        return stated_instant(text, self.clock.now(), rules.as_of, rules.as_of_days)

    def store_fact(
        self,
        subj: str,
        rel: str,
        obj: str,
        supersedes: Triple | None = None,
        evidence: str | None = None,
        *,
        session: str | None = None,
        subj_name: str | None = None,
        obj_name: str | None = None,
    ) -> Fact | None:
        """Store a stated fact given in structured form; ``evidence`` is the statement text."""
        check_text(subj, rel, obj, evidence, session, subj_name, obj_name, *(supersedes or ()))
        old: Triple | None = (supersedes[0], supersedes[1], supersedes[2]) if supersedes else None
        found = Extracted(subj, rel, obj, subj_name, obj_name, old)
        with self.vault.hold():
            return self._store(found, evidence, session)

    def _store(
        self,
        found: Extracted,
        text: str | None,
        session: str | None,
        valid_from: datetime | None = None,
    ) -> Fact | None:
        if found.ends:
            ended = self.vault.end(
                found.subj,
                found.rel,
                found.obj,
                evidence=text,
                session=session,
                obj_name=found.obj_name,
            )
            self.cache.invalidate({found.subj, found.obj})
            self._log_statement(text or " ".join(found.triple), session, ended)
            # what the chat says it noted: the value, stopped
            return replace(ended, detail="(stopped)") if ended is not None else None
        if found.rel == "takes" and found.detail:
            # "upping to 6mg": the frequency of the dose it changes goes on
            held = [f for f in self.vault.history(found.subj, "takes") if f.obj == found.obj]
            held = [f for f in held if f.t_end is None and f.detail]
            if held:
                found = replace(found, detail=kept_frequency(found.detail, held[-1].detail))
        subj_name, obj_name = found.subj_name, found.obj_name
        if text and self.linker is not None and (subj_name is None or obj_name is None):
            names = {e.id: e.name for e in link(self.linker, text)}
            subj_name = subj_name or names.get(found.subj)
            obj_name = obj_name or names.get(found.obj)
        if self.name_of is not None:
            subj_name = subj_name or _graph_name(self.name_of, found.subj)
            obj_name = obj_name or _graph_name(self.name_of, found.obj)
        if found.said and obj_name and not _same_name(found.said, obj_name):
            obj_name = f"{obj_name} ({found.said})"  # shown as the user wrote it too
        aliases = self.resolver.learn(text, found.subj) if text else []
        aliases += self.resolver.introductions(text) if text else []
        outcome: StoreOutcome = self.vault.add(
            found.subj,
            found.rel,
            found.obj,
            supersedes=found.supersedes,
            supersede_current=found.supersede_current,
            source="stated",
            evidence=text,
            subj_name=subj_name,
            obj_name=obj_name,
            session=session,
            aliases=aliases,
            detail=found.detail,
            valid_from=valid_from,
        )
        changed = {found.subj, found.obj} | {f.obj for f in outcome.superseded}
        self.cache.invalidate(changed)
        self._log_statement(text or " ".join(found.triple), session, outcome.fact)
        return outcome.fact

    def _log_statement(
        self, text: str, session: str | None, fact: Fact | None, named: str | None = None
    ) -> None:
        """Log a statement with its subject: the fact's, else the patient it ``named`` (the
        conversation is about that patient even when no fact was read)."""
        evidence: list[Any] = []
        if fact is not None or named is not None:
            self._asked.pop(session or DEFAULT_SESSION, None)
        if fact is not None:
            evidence = [{"kind": "memory", "id": f"vault:{fact.id}", "triple": list(fact.triple)}]
        self.episodic.add(
            session or DEFAULT_SESSION,
            text,
            evidence=evidence,
            subject=fact.subj if fact else named,
        )

    def _conversation(self, session: str | None) -> str | None:
        """The subject of the conversation: the patient or project its last question named,
        when no statement has named another since ("achebe's potassium this morning?" then
        "her K now"), else the last one a turn was about."""
        key = session or DEFAULT_SESSION
        asked = self._asked.get(key)
        if asked is not None and self.clock.now() - asked[1] <= self._ttl:
            return asked[0]
        return self.episodic.last_subject(key)

    # --- inspection and forgetting ---------------------------------------------------------------
    def facts(self, include_superseded: bool = True) -> list[Fact]:
        return self.vault.facts(include_superseded)

    def search(self, query: str, limit: int = 50) -> list[Fact]:
        """Facts matching ``query``: about a patient/note it names, else by text.

        A patient named by MRN is matched exactly: an MRN this user never stated finds nothing
        (never another patient whose MRN starts with the same digits)."""
        check_text(query)
        kind = kind_named(query)
        if kind is not None:  # "looked-up", "stated": every fact of that kind
            return self.vault.of_source(kind, limit)
        with self.vault.hold():
            subjects = self.resolver.mentioned(query)
            if subjects:
                return [f for s in subjects for f in self.vault.history(s)][:limit]
            if any(r.id for r in self.resolver.patients(query)):
                return []
            terms = [t for t in query.split() if len(t) > 1]
            return self.vault.search(terms, limit)

    def forget(self, target: Fact | Triple | str) -> int:
        """Forget one fact (all its intervals) or a whole subject, everywhere it is kept.

        ``target`` is a ``Fact``, a triple, or a subject: an id ("patient:4471",
        "Compound::DB00331", "note:crispr-screen") or a mention ("MRN 4471", "Ada Moreno"),
        or a kind of fact: "looked-up" (every fact the engine looked up) or "stated" (every
        fact the user said; ``memory.origin.kind_named``).
        Returns the number of vault rows removed.
        """
        if isinstance(target, str):
            check_text(target)
        elif isinstance(target, tuple):
            check_text(*target)
        # what the conversation carries on from is no longer said
        self._asked.clear()
        self._last_question.clear()
        self._last_drug.clear()
        with self.vault.hold():
            if isinstance(target, Fact):
                target = target.triple
            kind = kind_named(target) if isinstance(target, str) else None
            if isinstance(target, tuple) or kind is not None:
                gone = (
                    self.vault.forget_source(kind)
                    if kind is not None
                    else self.vault.forget_facts([target])  # type: ignore[list-item]
                )
                needles = [f"vault:{f.id}" for f in gone]
                nodes: set[str] = set()
                subject = None
            else:
                subject = self._subject_id(target)
                if subject is None:
                    return 0  # nothing of that name is remembered
                aliases = [a.alias for a in self.vault.aliases(subject)]
                gone = self.vault.forget_subject(subject)
                needles = [subject, *aliases, *_mentions_of(subject)]
                needles += [f"vault:{f.id}" for f in gone]
                nodes = {subject}
            nodes |= {f.subj for f in gone} | {f.obj for f in gone}
            self.episodic.forget(subject, needles)
            self.cache.invalidate(nodes)
            self.cache.forget_text(needles)
            if self.forget_elsewhere is not None:
                self.forget_elsewhere(needles)
            traces = self._forget_in_traces(needles, subject)
        left = [x for x in (traces, self._erase_deleted_bytes()) if x]
        self.residue = "; ".join(left) or None
        return len(gone)

    def _forget_in_traces(self, needles: list[str], subject: str | None) -> str | None:
        """Drop the user's traces naming any of ``needles``; what could not be dropped, said
        with how to finish (None when every trace naming them is gone)."""
        try:
            forget_in_traces(trace_files(self.settings, self.user), needles)
        except OSError as exc:
            cause = {
                errno.ENOSPC: "the disk is full",
                errno.EDQUOT: "the disk is full",
                errno.EROFS: "its disk is mounted read-only",
            }.get(
                exc.errno or 0,
                "this user may not read or replace it: check its owner, mode and flags",
            )
            again = f"forget {subject} again" if subject else "forget it again"
            return (
                f"the traces in {exc.filename or self.dir / 'traces'} still hold the questions "
                f"that named it, as they could not be rewritten ({cause}); {again} once they can"
            )
        return None

    def _erase_deleted_bytes(self) -> str | None:
        """Rewrite the user's store files so deleted rows leave no bytes in them; what could
        not be erased, said plainly (None when nothing is left behind)."""
        if self.settings.database_url:
            return (
                "PostgreSQL keeps the deleted rows' bytes in its table files until VACUUM "
                "reclaims them; ask the server's administrator to run VACUUM to erase them now"
            )
        left = [] if self.vault.compact() else [VAULT_FILE]
        left += [p.name for p in sorted(self.dir.glob("*.sqlite")) if not compact_sqlite(p)]
        if not left:
            return None
        return (
            f"{', '.join(left)} could not be rewritten now (in use); the deleted rows are "
            "unreadable, their bytes go at the next forget or when the space is reused"
        )

    def _subject_id(self, target: str) -> str | None:
        if target.startswith(("patient:", "note:")) or "::" in target:
            return target
        refs = [
            r
            for r in self.resolver.patients(target) + self.resolver.notes(target)
            if r.id and r.known
        ]
        return refs[0].id if refs else None


_ENDS_WITH_INITIAL = re.compile(r"(?:^|[\s(.])[A-Z]\.$")


_ENDS_WITH_GENUS = re.compile(r"(?<![\w.])[a-z]\.$")
"""A genus cut to its letter ("e. coli", "c. auris"): the lower-case word after it goes on."""


def _rejoined(parts: list[str]) -> list[str]:
    """Sentences with a split after a patient's initials undone ("J.M. (MRN 9043) on ..." is
    one sentence, not "J.M." and the rest), and after a genus cut to its letter ("mic vs e.
    coli 0.5 ug/mL")."""
    out: list[str] = []
    for part in parts:
        if out and (
            _ENDS_WITH_INITIAL.search(out[-1].rstrip())
            or (_ENDS_WITH_GENUS.search(out[-1].rstrip()) and part.lstrip()[:1].islower())
        ):
            out[-1] = f"{out[-1].rstrip()} {part.lstrip()}"
        else:
            out.append(part)
    return out


def _redosed(clause: str, before: list[tuple[str, Extracted]]) -> Extracted | None:
    """A clause that changes the dose of the drug the clause before it named, without naming
    it ("on sertraline 50 mg od, going up to 100 mg from today"): that drug at the new dose."""
    drug = before[-1][1] if before else None
    dose = dose_changed_to(clause)
    if drug is None or dose is None or drug.detail is None or drug.rel != "takes":
        return None
    return replace(drug, detail=dose.text, supersedes=None, supersede_current=False)


_DATED_VALUE = re.compile(
    r"^(?:(?:then|and|now)\s+)?"
    r"(?P<v>[<>]?\d+(?:[.,]\d+)?(?:/\d+)?(?:\s?(?:%|[A-Za-zµμ]+/[A-Za-zµμ0-9]+))?)"
    r"\s+(?P<when>(?:on |at |this |last )?[A-Za-z][\w ]{2,30})$",
    re.IGNORECASE,
)
_EARLIER_VALUE = re.compile(
    r"^(?:(?:it|this|that|and)\s+)?(?:was|were|had been|from)\s+"
    r"(?P<v>[<>]?\d+(?:[.,]\d+)?(?:/\d+)?(?:\s?(?:%|[A-Za-zµμ]+/[A-Za-zµμ0-9]+))?)(?![\w./])",
    re.IGNORECASE,
)


def _continued(
    clause: str,
    before: list[tuple[str, Extracted]],
    catalog: RelationCatalog,
    says_when: Callable[[str], bool] = lambda _: False,
) -> Extracted | None:
    """A clause that gives another value of the test the clause before it measured, without
    naming it again: an earlier one ("peak flow 320 today, was 210 on monday") or one of a
    series each with its day ("creat 180 on Monday, 150 yesterday, 131 today",
    ``says_when``: the rest of the clause is when): that test at that value (its own stated
    day is read with the clause)."""
    m = _EARLIER_VALUE.match(clause)
    if m is None:
        bare = _DATED_VALUE.match(clause)
        m = bare if bare is not None and says_when(bare.group("when")) else None
    last = before[-1][1] if before else None
    if m is None or last is None or catalog.functional(last.rel) != "key":
        return None
    found = find_measurements(last.obj)
    if not found or found[0].start != 0:
        return None
    value = f"{found[0].key} {m.group('v')}"
    return replace(last, obj=value, obj_name=None, supersedes=None, supersede_current=False)


def _same_name(said: str, name: str) -> bool:
    """Whether a value as written is its graph name, or its leading words ("apixaban" of
    Apixaban, "type 2 diabetes" of type 2 diabetes mellitus), or the graph name is the said
    one's. A part of a word is another name ("penicillin" is no "Benzylpenicillin"): the
    answer shows it as the user wrote it too."""
    a, b = alias_key(said), alias_key(name)
    return a == b or f"{b} ".startswith(f"{a} ") or f"{a} ".startswith(f"{b} ")


def _graph_name(name_of: NameOf, node: str) -> str | None:
    return name_of(node) if "::" in node else None


def _moved(linked: list[LinkedEntity], edits: list[Edit]) -> list[LinkedEntity]:
    """``linked`` with spans moved to the text after ``edits``; an entity whose span an edit
    cuts into is dropped (the memory's own linking reads the corrected text)."""
    if not edits:
        return linked
    out = []
    for e in linked:
        if e.start < 0:
            out.append(e)
            continue
        start, end = moved(e.start, edits), moved(e.end, edits)
        if start is not None and end is not None:
            out.append(e.model_copy(update={"start": start, "end": end}))
    return out


_POINTS_BACK = re.compile(r"\b(?:it|that one|this one)\b", re.IGNORECASE)
"""Words that point back at the drug the last question asked about."""
_FOLLOW_ON = re.compile(r"^\s*(?:and|so|also|what about|how about)\b", re.IGNORECASE)
"""How a question that goes on from the one before it opens."""


def _merge(first: list[LinkedEntity], second: list[LinkedEntity]) -> list[LinkedEntity]:
    """The caller's entities, then ours for spans it did not cover."""
    seen = {(e.id, e.start, e.end) for e in first}
    return [*first, *(e for e in second if (e.id, e.start, e.end) not in seen)]


def _subject_of(result: Result) -> str | None:
    for ev in result.evidence:
        if ev.kind == "memory" and ev.triple:
            return ev.triple[0]
    return result.linked[0].id if result.linked else None


def _mentions_of(subject: str) -> list[str]:
    """Text forms a subject takes in questions ("4471" for patient:4471)."""
    if subject.startswith("patient:"):
        return [subject.removeprefix("patient:")]
    return []


__all__ = [
    "DEFAULT_SESSION",
    "InvalidText",
    "Noted",
    "UserMemory",
    "check_text",
    "delete_user",
]
