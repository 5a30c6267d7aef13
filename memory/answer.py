"""Answering memory probes from ONE user's vault.

A question is parsed into a subject (patient by MRN/name/title, note, or KG entity), a relation
(cue lexicons of ``relations.yaml`` and the meaning of the question against the exemplar bank,
``memory.asks``, restricted to relations the subject can have; ``memory.choose`` decides), an
optional measurement key ("CA 19-9") and a time qualifier (router rules, dates such as "as of
March 3" read on the caller's clock, and bank; a question that names a stored value asks about
the history around it, ``choose.on_named_value``). The answer is drawn only from this user's
vault. ``None`` means "not a memory question" (the KG pipeline takes
over); NOT_ANSWERED means the question is about this user's memory but nothing matching is
stored, and says which relation was understood ("I have no allergy recorded for MRN 4471").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace

from engine.result import LinkedEntity, Result
from engine.understand.followup import PRONOUN
from engine.understand.form import asked_noun, is_yes_no, without_frame
from engine.understand.lexicon import FUNCTION_WORDS, KIND_WORDS
from engine.understand.polarity import Directions
from engine.util.text import alias_key
from memory import choose, timeline
from memory.asks import AskReading, AskScorer, mask
from memory.circumstance import drug_as_circumstance
from memory.classes import DrugClasses, NamedClass
from memory.clauses import clauses
from memory.dates import date_spans
from memory.druglevels import asked_level
from memory.literals import Measurement, find_measurements, headed_key, mentioned_keys
from memory.notes import asked_label, asks_a_date
from memory.origin import STATED
from memory.patients import PERSON
from memory.relations import RelationCatalog, RelationSpec
from memory.remarks import REMARK_RELATIONS, best_remark
from memory.results import NameOf, Parsed, answered, not_answered, summary, swap, who
from memory.router import Route, Temporal, TemporalIntent
from memory.subjects import NOTE, PATIENT, Resolver, SubjectRef, subject_kind
from memory.vault import Fact, Vault

_PATIENT_RELS_MIN = 1.0
NO_PATIENT_YET = (
    "No patient has been named in this conversation yet; say which one "
    "(e.g. 'what meds is MRN 4471 on?')."
)


class Answerer:
    def __init__(
        self,
        vault: Vault,
        resolver: Resolver,
        catalog: RelationCatalog,
        *,
        asks: AskScorer | None = None,
        name_of: NameOf | None = None,
        directions: Directions | None = None,
        classes: DrugClasses | None = None,
    ) -> None:
        """``directions``: the engine's reading of which way an amount moves, which tells
        relations that go opposite ways apart (inhibits, upregulates); ``classes`` reads the
        drug classes a question names ("any blood thinners?", ``memory.classes``)."""
        self.vault = vault
        self.resolver = resolver
        self.catalog = catalog
        self.asks = asks
        self.name_of = name_of
        self.directions = directions
        self.classes = classes

    def answer(
        self,
        question: str,
        linked: list[LinkedEntity],
        route: Route,
        session_subject: str | None = None,
    ) -> Result | None:
        # the words of what is asked, a request wrapped round it blanked ("Can you check
        # which drug ...": its "check" is no lab check); offsets are kept, and the meaning is
        # read from the whole question
        text = without_frame(question)
        # an unknown "name" that holds a graph entity is no patient ("Disease Floxuridine is
        # on the shortlist for?")
        patients = [
            r
            for r in self.resolver.patients(text)
            if r.known or not any(e.start < r.end and r.start < e.end for e in linked)
        ]
        notes = self.resolver.notes(text)
        spans = [(r.start, r.end) for r in patients + notes] + date_spans(text)
        entities = [
            e for e in linked if e.start < 0 or not any(e.start < b and a < e.end for a, b in spans)
        ]
        reading = self._read(question, patients, notes, entities)
        named_classes = self.classes.named(text, linked) if self.classes is not None else []
        miss: SubjectRef | None = None
        for subject, reverse in self._candidates(
            text, patients, notes, entities, route, session_subject
        ):
            if not subject.known or not subject.id:
                miss = miss or subject
                continue
            # memory answers with what the user said; what the engine looked up is the
            # graph's to answer (``memory.origin``)
            history = [
                f
                for f in (
                    self.vault.about_object(subject.id)
                    if reverse
                    else self.vault.history(subject.id)
                )
                if f.source == STATED
            ]
            own = subject.kind in (PATIENT, NOTE) or route.rule == "own-notes"
            about_named = False
            # the patient's drugs of a class the question names ("what side effect did she
            # get from her aromatase inhibitor?"): the drugs it is asked about
            of_class = [] if reverse else self._class_drugs(named_classes, history)
            brought = _brought_on(history) if own and not reverse else {}
            named_drugs = {e.id for e in [*entities, *of_class] if e.kind == "Compound"}
            # a graph entity this user has notes on ("which disease did we find NADSYN1
            # marks?", "HTR1E tracks which disease again?"): the notes answer when a stored
            # relation fits the question's words or meaning; otherwise the graph does
            ours = not own and not reverse and bool(history)
            picked = self._relation(
                text,
                subject,
                history,
                reverse,
                reading if own or ours else None,
                named=frozenset(e.id for e in entities),
                classed=bool(named_classes),
                all_held=_all_held(entities, history),
            )
            if (
                ours
                and picked.spec is not None
                and not self._about_notes(text, picked.spec, subject.kind, reading)
            ):
                picked = choose.Choice(None)
            if picked.missing is not None and not reverse and own:
                # "what reaction does she get with aspirin?": a kin relation that holds the
                # value the question names answers in its place
                missing = picked.missing
                named_now = _anchor_test(tuple(entities), route.temporal)
                kin = [
                    r
                    for r in missing.near_named
                    if any(f.rel == r and named_now(f) for f in history)
                ]
                if kin:
                    picked = choose.Choice(self.catalog.relations[kin[0]])
                    about_named = True
                elif (
                    any(
                        f.rel in missing.near and _ties(f, e)
                        for f in history
                        for e in [*entities, *of_class]
                        if e.kind == "Compound"
                    )
                    or (
                        # "what's she complaining of?" with only side effects noted: what she
                        # felt that no statement put down to a drug is what she complains of
                        not named_drugs
                        and "Side Effect" not in missing.objects
                        and any(f.rel in missing.near and _complained(f, brought) for f in history)
                    )
                    or (
                        "Side Effect" in missing.objects
                        and any(
                            f.rel in missing.near
                            and (not named_drugs or brought.get(f.id, set()) & named_drugs)
                            for f in history
                            if f.id in brought
                        )
                    )
                ):
                    # "what did the atorvastatin do to him?": kin values tied to that drug
                    picked = choose.Choice(missing)
            spec = picked.spec
            if picked.missing is not None and not reverse and own:
                label = picked.missing.label or picked.missing.name
                said = [f.evidence for f in history]
                noted = self._remark(text, subject, history, route)
                if noted is not None:
                    return noted
                return not_answered(
                    question, f"I have no {label} recorded for {who(subject, said)}."
                )
            if spec is None and not reverse and own and history:
                noted = self._remark(text, subject, history, route)
                if noted is not None:
                    return noted  # "which column did we drop?": what the user said of it
            unheld = self._unheld_label(text, subject) if subject.kind == NOTE else None
            if (
                unheld is not None
                and spec is not None
                and spec.score(text, ask=True) <= 0
                and self._key(text, spec) is None
            ):
                spec = None  # "who's the chemist on heron?": read by meaning alone, no role
            if (
                spec is not None
                and subject.kind == NOTE
                and not reverse
                and spec.object_kinds
                and asks_a_date(text)
            ):
                # "any nomination date for kestrel?": a date is never a compound or a gene, nor
                # the code a relation of them keeps as written
                said = [f.evidence for f in history]
                return not_answered(question, f"I have no date recorded for {who(subject, said)}.")
            if spec is None and not reverse and unheld is not None:
                # "finch cro?": a noun no relation is asked by and no result is keyed by
                said = [f.evidence for f in history]
                return not_answered(
                    question, f"I have no {unheld} recorded for {who(subject, said)}."
                )
            if spec is None and not reverse and history and self._summary_ok(text, subject, route):
                return summary(
                    question,
                    subject,
                    timeline.current(history),
                    self.name_of,
                    {name: s.label for name, s in self.catalog.relations.items()},
                )
            if spec is None:
                if not reverse and subject.kind in (PATIENT, NOTE):
                    miss = miss or subject
                continue
            rows = [f for f in history if f.rel == spec.name]
            if subject.kind == NOTE and not reverse and _asks_remark(text, rows):
                # "why did FN-17 get shelved?", "what knocked out KT-9?": a reason, or a
                # compound the relation never held, is what the user said of it
                noted = self._remark(text, subject, history, route)
                if noted is not None:
                    return noted
            key = self._key(text, spec)
            if key is not None:
                canon = self.catalog.canonical_key
                rows = [f for f in rows if canon(f.key) == key]
            elif spec.functional == "key" and spec.subject == NOTE:
                kind = _KIND_OF_RESULT.search(text)
                if kind is not None and kind.group(1).lower() not in _ANY_RESULT:
                    # "any tox finding on osprey?": a kind of result none of its keys is
                    said = [f.evidence for f in history]
                    return not_answered(
                        question, f"I have no {kind.group(0)} recorded for {who(subject, said)}."
                    )
                unheld = self._unheld_label(text, subject)
                if unheld is not None:
                    # "who's the cro on finch?": a noun of the project's no key is, and no
                    # relation is asked by
                    said = [f.evidence for f in history]
                    return not_answered(
                        question, f"I have no {unheld} recorded for {who(subject, said)}."
                    )
            if named_classes and not reverse and "Compound" in spec.objects:
                # "any blood thinners for 50312?": of the values, those of the class named
                # and those the graph does not know; else those it cannot tell of
                # (``memory.classes.DrugClasses.holds``)
                of = {f.id: self._of_class(named_classes, f.obj) for f in rows}
                sure = [f for f in rows if of[f.id] or "::" not in f.obj]
                rows = sure if any(of.values()) else [f for f in rows if of[f.id] is None]
                if not rows:
                    said = [f.evidence for f in history]
                    return not_answered(
                        question,
                        f"I have no {named_classes[0].mention} recorded for {who(subject, said)}.",
                    )
            anchors = tuple(e for e in entities if e.id != subject.id)
            drugs = [e for e in anchors if e.kind == "Compound"] + of_class
            if spec.near and not rows and not drugs and not reverse:
                # "what side effect did she get?" with none noted as such: what she felt
                # that its statement says one of her drugs brought on ("nausea after first
                # dose"); "what's she complaining of?": what she felt that no statement put
                # down to a drug
                rows = [
                    f
                    for f in history
                    if f.rel in spec.near
                    and (
                        f.id in brought
                        if "Side Effect" in spec.objects
                        else _complained(f, brought)
                    )
                ]
            if spec.near and drugs and not reverse:
                # "what did the atorvastatin do to him?": what the patient felt that the
                # statement tied to that drug, noted as this relation or its kin
                felt = [f for f in history if f.rel in (spec.name, *spec.near)]
                ids = {d.id for d in drugs}
                tied = [
                    f
                    for f in felt
                    if any(_ties(f, d) for d in drugs) or brought.get(f.id, set()) & ids
                ]
                if tied:
                    rows, anchors = tied, tuple(e for e in anchors if e not in drugs)
            asked_of = [e for e in anchors if e.kind in spec.objects]
            if (
                is_yes_no(text)
                and spec.functional == "none"
                and asked_of
                and not any(_anchor_test(tuple(asked_of), route.temporal)(f) for f in rows)
            ):
                # "has she had any neutropenia?" when none was noted: not her other diagnoses
                said = [f.evidence for f in history]
                return not_answered(
                    question,
                    f"I have no {asked_of[0].mention} recorded for {who(subject, said)}.",
                )
            anchored = bool(anchors) or (spec.literal_object and _has_value(text))
            rule = route.temporal
            if rule.kind == Temporal.BEFORE and spec.functional == "none":
                # values that accumulate (allergies, diagnoses) have no previous one: "Before
                # the anaesthetic: what are her allergies?" asks what is on record
                rule = replace(rule, fallback=Temporal.CURRENT)
            if rule.soft and self.catalog.supersede.switch_re.search(text):
                rule = replace(rule, explicit=False)  # "at the last switch": not the latest value
            if rule.kind == Temporal.CURRENT and self.catalog.supersede.asks_old_value(text):
                # "Which drug was replaced in her latest switch?": the replaced value is asked
                rule = TemporalIntent(Temporal.PREVIOUS, None, Temporal.PREVIOUS, None, True)
            if (
                rule.kind == Temporal.CURRENT
                and not rule.explicit
                and not anchors
                and self.catalog.supersede.asks_new_value(text)
            ):
                # "What did we change her over to?": the value the latest change brought in
                rule = replace(rule, explicit=True)
            # a telegraphic question ("furosemide for 6110?") has too few words of its own
            # for the bank to read a time from: what it names is asked about as it stands
            when = (
                rule
                if reading is None or _few_words(reading.masked)
                else choose.temporal(rule, reading, spec.name, anchored=anchored)
            )
            if (
                when.kind == Temporal.PREVIOUS
                and spec.name == "takes"
                and not anchors
                and _ASKS_STOPPED.search(text)
            ):
                # "what did we stop on 7310?": a medication that ended, never one still given
                rows = [f for f in rows if f.t_end is not None]
                if not rows:
                    said = [f.evidence for f in history]
                    return not_answered(
                        question, f"I have no medication stopped for {who(subject, said)}."
                    )
            named = _anchor_test(anchors, when)
            dosed = [e for e in anchors if e.kind == "Compound" and "Compound" in spec.objects]
            if (
                spec.asks_detail(text)
                and not reverse
                and dosed
                and not any(f.obj == e.id for e in dosed for f in rows)
            ):
                # "what dose of metformin is 8842 on?" of a patient never on it: not another
                # drug's dose
                said = [f.evidence for f in history]
                return not_answered(
                    question, f"I have no {dosed[0].mention} recorded for {who(subject, said)}."
                )
            if (spec.asks_detail(text) or about_named) and anchors and any(named(f) for f in rows):
                # "What dose of [Compound] is she on?" asks about the value it names
                rows = [f for f in rows if named(f)]
            elif not reverse and not is_yes_no(text):
                when = choose.on_named_value(when, route.temporal, rows, named)
            if (
                when.kind == Temporal.CURRENT
                and spec.functional == "explicit"
                and any(named(f) and f.current for f in rows)
            ):
                # "furosemide for 6110?": of the values held at once, the one it names
                rows = [f for f in rows if named(f)]
            parsed = Parsed(subject, reverse, spec, key, when, anchors)
            chosen = self._select(rows, parsed)
            if (
                spec.functional == "explicit"
                and not reverse
                and not anchors
                and when.kind in (Temporal.CURRENT, Temporal.PREVIOUS)
                and self.catalog.supersede.stop_re.search(text)
            ):
                # "what did we hold for him?": the value a stop ended, when one did
                ended = timeline.stopped(rows)
                if ended:
                    parsed = replace(parsed, temporal=replace(when, kind=Temporal.PREVIOUS))
                    chosen = ended
            if not chosen and named_classes and rows and when.kind == Temporal.CURRENT:
                # "which aminoglycoside was he on?": the class's value that ended answers
                # when none of it holds now
                parsed = replace(parsed, temporal=replace(when, kind=Temporal.PREVIOUS))
                chosen = [max(rows, key=lambda f: (f.t_start, f.id))]
            if not chosen and when.kind != rule.kind and not rule.explicit:
                # only the bank's reading of the words moved the question off "current" ("what
                # was the key result?"), and there is no earlier value: the one there is answers
                parsed = replace(parsed, temporal=rule)
                chosen = self._select(rows, parsed)
            if (
                not chosen
                and when.kind == Temporal.CURRENT
                and not rule.explicit
                and spec.functional == "explicit"
                and _PAST_ASKED.search(text)
            ):
                # "what did I give him for the flare?" when nothing of it holds now: the value
                # that ended last
                ended = [f for f in rows if not f.current]
                if ended:
                    parsed = replace(parsed, temporal=replace(when, kind=Temporal.PREVIOUS))
                    chosen = [max(ended, key=lambda f: (f.t_end or f.t_start, f.id))]
            if not chosen and spec.functional == "none" and when.kind == Temporal.PREVIOUS:
                # values that accumulate have an earlier one only when several were stated:
                # with one, what is on record answers ("Before the ward round we need her
                # allergies. What were they?")
                parsed = replace(parsed, temporal=replace(when, kind=Temporal.CURRENT))
                chosen = self._select(rows, parsed)
            if not chosen:
                return self._not_answered(question, subject, "nothing stored for that")
            self.vault.touch(f.id for f in chosen)
            return answered(question, parsed, chosen, rows, self.name_of)
        if miss is not None:
            return self._not_answered(question, miss, "nothing stored for that")
        if (
            not patients
            and not (session_subject or "").startswith("patient:")
            and PERSON.search(text)
            and self._best_score(text, PATIENT) >= _PATIENT_RELS_MIN
        ):
            # "what meds is my patient on?" with no patient named in this conversation
            return not_answered(question, NO_PATIENT_YET)
        return None

    def _of_class(self, classes: list[NamedClass], drug: str) -> bool | None:
        """Whether ``drug`` is of one of ``classes`` (None: the graph cannot tell)."""
        if self.classes is None:
            return None
        said = [self.classes.holds(c, drug) for c in classes]
        return True if True in said else (None if None in said else False)

    def _class_drugs(self, classes: list[NamedClass], history: list[Fact]) -> list[LinkedEntity]:
        """The drugs of ``history`` of the ``classes`` a question names, as mentions of them
        at the class's words."""
        out: dict[str, LinkedEntity] = {}
        for c in classes:
            for f in history:
                if f.rel == "takes" and f.obj not in out and self._of_class([c], f.obj):
                    out[f.obj] = LinkedEntity(
                        mention=c.mention,
                        id=f.obj,
                        name=f.obj_name or f.obj,
                        kind="Compound",
                        score=1.0,
                        method="exact",
                        start=c.start,
                        end=c.end,
                    )
        return list(out.values())

    def _read(
        self,
        question: str,
        patients: list[SubjectRef],
        notes: list[SubjectRef],
        entities: list[LinkedEntity],
    ) -> AskReading | None:
        """The question's meaning with its mentions masked by kind ("[Patient]")."""
        if self.asks is None:
            return None
        spans = [(r.start, r.end, "Patient") for r in patients]
        for name in {r.name for r in patients if r.name and r.name in question}:
            at = question.index(name)  # a name introduced with its MRN ("Ada Moreno (4471)")
            spans.append((at, at + len(name), "Patient"))
        spans += [(r.start, r.end, "Project") for r in notes]
        spans += [
            (e.start, e.end, e.kind.replace(" ", ""))
            for e in entities
            if question[e.start : e.end].lower() not in KIND_WORDS  # "disease" is no pathway
        ]
        spans += [(a, b, "Date") for a, b in date_spans(question)]
        spans += [(m.start, m.end, "Value") for m in _measurements(question)]
        return self.asks.read(mask(question, spans))

    # --- parsing -------------------------------------------------------------------------
    def _candidates(
        self,
        question: str,
        patients: list[SubjectRef],
        notes: list[SubjectRef],
        entities: list[LinkedEntity],
        route: Route,
        session_subject: str | None,
    ) -> Iterator[tuple[SubjectRef, bool]]:
        """Possible subjects, best first; unknown ones make a NOT_ANSWERED if nothing fits."""
        patient_cue = self._best_score(question, PATIENT) >= _PATIENT_RELS_MIN
        note_cue = self._best_score(question, NOTE) > 0
        conversation = (
            SubjectRef(session_subject, subject_kind(session_subject), "", -1, -1, True, "episodic")
            if session_subject
            else None
        )
        if (
            conversation is not None
            and conversation.kind == PATIENT
            and not patients
            and PERSON.search(question)
        ):
            # "what dose of apixaban is he on?": the person is the conversation's patient, and
            # the drug named is the value asked about, not the subject
            yield conversation, False
            return
        if (
            conversation is not None
            and conversation.kind == PATIENT
            and not patients
            and not notes
            and not _WHO.match(question)
            and self._takes(conversation.id, entities)
        ):
            # "current mmf dose" after naming the patient: a drug the conversation's patient
            # is on, asked about with no one named, is asked of that patient
            yield conversation, False
        for ref in patients:
            if (
                ref.known
                or ref.via == "mrn"
                or (patient_cue and (ref.via != "bare" or not entities or route.rule == "patient"))
            ):
                yield ref, False
        for ref in notes:
            if ref.known or note_cue:
                yield ref, False
        for ref in self.resolver.entities(entities):
            yield ref, False
            yield ref, True
        if (
            conversation is not None
            and not patients
            and not notes
            # a pronoun with nothing named stands for the session's last subject, whichever
            # rule routed the question ("and which one does it lower, in my notes?")
            and (route.rule == "follow-up" or (not entities and PRONOUN.search(question)))
        ):
            yield conversation, False
        if route.rule == "own-notes":
            for ref in self.resolver.entities(entities[:1]):
                yield replace(ref, known=False), False

    def _takes(self, patient: str, entities: list[LinkedEntity]) -> bool:
        """Whether a drug of ``entities`` is one the user said ``patient`` takes."""
        drugs = {e.id for e in entities if e.kind == "Compound"}
        return bool(drugs) and any(
            f.obj in drugs and f.source == STATED for f in self.vault.history(patient, "takes")
        )

    def _remark(
        self, question: str, subject: SubjectRef, history: list[Fact], route: Route
    ) -> Result | None:
        """What the user said about ``subject`` as written, when no relation holds what the
        question asks and a remark shares a word of its own with it (``memory.remarks``)."""
        remarks = [f for f in history if f.rel in REMARK_RELATIONS and f.current]
        found = best_remark(question, remarks, [subject.mention, subject.name or ""])
        if found is None:
            return None
        spec = self.catalog.relations[found.rel]
        parsed = Parsed(subject, False, spec, None, route.temporal, ())
        return answered(question, parsed, [found], remarks, self.name_of)

    def _summary_ok(self, question: str, subject: SubjectRef, route: Route) -> bool:
        """No relation asked for at all: "What do we know about MRN 4471?" gets everything
        current (for KG entities only when the question says it is about the user's notes)."""
        if is_yes_no(question):
            return False  # "does 6110 have an ICD?" asks about one thing, not for everything
        specs = self.catalog.for_subject(subject.kind)
        if any(s.score(question, ask=True) > 0 for s in specs) or any(
            self._key(question, s) is not None for s in specs
        ):
            return False  # a relation or a measurement was asked for, and is not stored
        return subject.kind in (PATIENT, NOTE) or route.rule == "own-notes"

    def _best_score(self, question: str, kind: str) -> float:
        return max(
            (s.score(question, ask=True) for s in self.catalog.for_subject(kind)), default=0.0
        )

    def _relation(
        self,
        question: str,
        subject: SubjectRef,
        history: list[Fact],
        reverse: bool,
        reading: AskReading | None,
        named: frozenset[str] = frozenset(),
        classed: bool = False,
        all_held: bool = False,
    ) -> choose.Choice:
        """``classed``: the question names a drug class ("what DMARDs is she on?"), which is
        a cue of the relations whose values are drugs; ``all_held``: each thing it names is a
        value stored for the subject."""
        present = {f.rel for f in history}
        kind = subject.kind
        wanted = None if reverse else KIND_WORDS.get(asked_noun(question) or "")
        question = without_modifiers(question)
        specs = [
            spec
            for spec in self.catalog.relations.values()
            if not spec.verbatim
            and (kind in spec.objects if reverse else spec.subject == kind)
            # a question that asks for a disease ("which disease ...?") never asks for a gene
            and (wanted is None or spec.literal_object or wanted in spec.objects)
        ]
        signs = {spec.name: self._sign(spec) for spec in specs}
        offsets = self.asks.offsets(self.catalog) if self.asks is not None else {}
        way = self._direction(reading) if any(signs.values()) else 0
        scored = []
        # "current lithium dose": words of dosing ask for the drug, not the test of its name
        dosing = any(s.asks_detail(question) for s in specs if not s.literal_object)
        # "what bp tablet is she on?": a test's name before a word for a medicine says what
        # the medicine is for
        dosing = dosing or _FOR_A_TEST.search(question) is not None
        # "what's she on for her BP?": what follows "for" is what a drug is for, not what is
        # asked, so its words are no cue (the meaning still reads the whole question)
        purpose = _PURPOSE.search(question)
        cued = question[: purpose.start("tail")] if purpose else question
        # "tox finding on the tau lead?": the role after the noun asked only says whose it is
        owner = _OWNER.search(cued)
        if owner is not None and _ASKED_WORD.search(cued[: owner.start()]):
            whose = cued[owner.start() :]
            cued = cued[: owner.start()]
            # a project's role is not what is asked ("dc50 of the tau lead?"), unless the words
            # before it name one ("the backup for the tau lead")
            specs = [
                s
                for s in specs
                if s.score(cued, ask=True) > 0
                or not any(s.score(role, ask=True) > 0 for role in (whose, *_ROLES))
            ]
        # "what's she getting with the tamoxifen?": what the drug did, unless a test is named
        circumstance = (
            reading is not None
            and drug_as_circumstance(reading.masked)
            and not any(s.functional == "key" and self._key(cued, s) is not None for s in specs)
        )
        for spec in specs:
            cue = spec.score(cued, ask=True)
            if spec.functional == "key" and not dosing and self._key(cued, spec) is not None:
                cue += _KEY_NAMED
            if classed and "Compound" in spec.objects and not spec.literal_object:
                cue += 1.0
            if circumstance and "Side Effect" in spec.objects and not spec.literal_object:
                cue += _CIRCUMSTANCE_CUE
            sense = choose.meaning(reading, spec.name, offsets.get(spec.name, 0.0))
            moves = choose.direction(way, signs[spec.name])
            shared = self._shared_support(spec, question)
            scored.append(choose.Scored(spec, cue, sense, spec.name in present, moves, shared))
        if (
            reading is not None
            and not reverse
            and (
                _only_names(reading.masked)
                or (all_held and _few_words(reading.masked) and not any(s.cue > 0 for s in scored))
            )
        ):
            # "38801 pyridostigmine?", "50312 warfarin now?": nothing but names (and a word
            # that names no relation), too little to read a meaning from; the one relation
            # that holds the value it names is asked about
            holding = {f.rel for f in history if f.obj in named} & {s.spec.name for s in scored}
            if len(holding) == 1:
                return choose.Choice(self.catalog.relations[holding.pop()])
        if choose.asked(scored, reading) or not scored:
            return choose.choose(scored, reading)
        if subject.kind not in (PATIENT, NOTE) or any(
            s.score(question, ask=True) > 0 for s in self.catalog.relations.values()
        ):
            return choose.Choice(None)  # no cue for this subject's relations: not about them
        stored = [s.spec for s in scored if s.stored]
        return choose.Choice(stored[0] if len(stored) == 1 else None)

    def _about_notes(
        self, question: str, spec: RelationSpec, kind: str, reading: AskReading | None
    ) -> bool:
        """Whether a question about a graph entity that fits the user's note ``spec`` is
        about the note: it speaks of the user's own work, or names the relation with its
        cue words, or reads at least as close to the note as to any relation of the graph
        the note does not restate ("Which genes does X bind?" is not about a note that X
        upregulates a gene). A note with a direction reads that much closer when the question
        says its direction ("what does X bump up?"), and relations going the other way are
        no rivals."""
        if _FIRST_PERSON.search(question) or spec.score(question, ask=True) > 0:
            return True
        if reading is None or self.asks is None:
            return False
        rivals = self.asks.graph_read(reading, kind)
        sign = self._sign(spec)
        way = self._direction(reading) if sign else 0
        if way and self.directions is not None:
            rivals = {s: c for s, c in rivals.items() if self.directions.sign([s]) != -way}
        best = max((c for sid, c in rivals.items() if sid not in spec.graph), default=-1.0)
        # a note that restates graph relations is compared through them, within one bank
        restated = [rivals[sid] for sid in spec.graph if sid in rivals]
        own = max(restated) if restated else reading.relations.get(spec.name, -1.0)
        return own + choose.SEM_UNIT * choose.direction(way, sign) >= best

    def _shared_support(self, spec: RelationSpec, question: str) -> float:
        """Cue units ``spec`` gets from other relations' cues found in the question, each
        word once: a word one of its own cues reads already counts as its own."""
        if self.asks is None:
            return 0.0
        total = 0.0
        for cue, share in self.asks.shared_cues(self.catalog).get(spec.name, ()):
            m = cue.pattern.search(question)
            if m is not None and not any(own.pattern.search(m.group()) for own in spec.ask):
                total += cue.w * share
        return total

    def _direction(self, reading: AskReading | None) -> int:
        """Which way the question's words say for sure that an amount moves (+1, -1), or 0
        (``choose.DIRECTION``)."""
        if self.directions is None or reading is None:
            return 0
        way, sure = self.directions.read(reading.masked)
        return way if sure else 0

    def _sign(self, spec: RelationSpec) -> int:
        """The direction of a relation: that of the graph relations it restates."""
        return self.directions.sign(spec.graph) if self.directions is not None else 0

    def _key(self, question: str, spec: RelationSpec) -> str | None:
        if spec.functional != "key":
            return None
        learned = self.vault.keys(spec.name)
        level = asked_level(question, learned)
        if level is not None:
            return level  # "tac level" of the tacrolimus level kept
        found = mentioned_keys(question, [*spec.keys, *learned], spec.synonyms)
        if found:
            return self.catalog.canonical_key(found[0])
        # a noun a relation of its own is asked by ("lead") stands for no key it ends
        # ("chem lead" is not what "current lead?" asks for)
        headed = headed_key(
            question, [k for k in learned if not self._cue_of_another(k.split()[-1], spec)]
        )
        if headed is not None:
            return headed  # "pcr" of the "urine pcr" kept
        # a name written another way than it was stored ("parasitaemia", "potasium")
        canon = self.catalog.canonical_key
        known = {canon(k) for k in [*spec.keys, *learned]}
        for word in re.findall(r"[A-Za-z][\w-]{4,}", question):
            if canon(word) in known and canon(word) != alias_key(word):
                return canon(word)
        return None

    def _unheld_label(self, question: str, subject: SubjectRef) -> str | None:
        """The noun a question about a project asks by ("the cro on finch", "finch cro?"),
        when none of its words is a word of grammar or of when, or names a relation
        (``notes.asked_label``)."""
        label = asked_label(question, subject.mention or subject.name or "")
        if label is None:
            return None
        specs = self.catalog.relations.values()
        if any(
            w in FUNCTION_WORDS or any(s.score(w, ask=True) > 0 for s in specs)
            for w in [*label.split(), label]
        ):
            return None
        return label

    def _cue_of_another(self, word: str, spec: RelationSpec) -> bool:
        return any(
            s.name != spec.name and not s.verbatim and s.score(word, ask=True) > 0
            for s in self.catalog.relations.values()
        )

    def _select(self, rows: list[Fact], parsed: Parsed) -> list[Fact]:
        t = parsed.temporal
        is_anchor = _anchor_test(parsed.anchors, t)
        if parsed.reverse:
            rows = [swap(f) for f in rows]
        return timeline.select(rows, t.kind, anchor=is_anchor, fallback=t.fallback, instant=t.as_of)

    def _not_answered(self, question: str, subject: SubjectRef, why: str) -> Result:
        return not_answered(question, f"I have nothing in your memory for {who(subject)} ({why}).")


_WORD_AND_NEXT = re.compile(r"\b([A-Za-z]+)\b(?=(-[A-Za-z]|\s+([A-Za-z]+)\b)?)")


_KIND_OF_RESULT = re.compile(
    r"\b([A-Za-z][\w-]+) (?:findings?|results?|readouts?|signals?)\b", re.IGNORECASE
)
"""A result asked for by its kind ("tox finding", "safety signal")."""
_ANY_RESULT = frozenset(
    {
        "key",
        "main",
        "latest",
        "last",
        "first",
        "top",
        "headline",
        "new",
        "any",
        "the",
        "our",
        "its",
        "their",
        "recent",
        "most",
        "big",
        "best",
        "previous",
        "earlier",
        "current",
        "that",
        "this",
        "what",
        "which",
        "a",
        "an",
        "lab",
        "study",
        "assay",
        "screen",
        "project",
    }
)
"""Words before "result" that name no kind of result."""
_CIRCUMSTANCE_CUE = 2.0
"""Cue units for a side effect when the question ends on a drug as its circumstance
(``memory.circumstance``)."""
_KEY_NAMED = 5.0
"""Cue units for a keyed relation whose measurement the question names: "the kestrel lead's
IC50" asks for the IC50, the lead only says whose."""
_PAST_ASKED = re.compile(r"\b(?:did|was|were|had)\b", re.IGNORECASE)
"""Words that put a question in the past."""
_FOR_A_TEST = re.compile(
    r"\b[A-Za-z0-9]+ (?:tablets?|pills?|meds?|medications?|medicines?|drugs?|inhalers?)\b",
    re.IGNORECASE,
)


def without_modifiers(text: str) -> str:
    """``text`` with each kind word that modifies the noun after it blanked (offsets kept): a
    kind word joined to the next word by a hyphen ("drug-related problems") or written before
    a kind word of another kind ("drug reactions") says what the thing is about, not what is
    asked for."""
    out = list(text)
    for m in _WORD_AND_NEXT.finditer(text):
        kind = KIND_WORDS.get(m.group(1).lower())
        if kind is None or m.group(2) is None:
            continue
        after = KIND_WORDS.get((m.group(3) or "").lower())
        if m.group(2).startswith("-") or (after is not None and after != kind):
            out[m.start(1) : m.end(1)] = " " * len(m.group(1))
    return "".join(out)


_FUNCTION_WORDS = frozenset(
    "the a an for of on in to is was are were what whats what's which and with at by her his "
    "their him she he they it its this that my our your me".split()
)


def _few_words(masked: str) -> bool:
    """Whether a masked question says at most one word besides its names and function words
    ("[Compound] for [Patient]?", "[Patient] [Compound] dose"). Pure."""
    words = re.findall(r"[a-z']+", re.sub(r"\[[A-Za-z]+\]", " ", masked).lower())
    return len([w for w in words if w not in _FUNCTION_WORDS]) <= 1


def _only_names(masked: str) -> bool:
    """Whether a masked question holds nothing but its names ("[Patient] [Compound]?")."""
    return not re.search(r"[A-Za-z]{3,}", re.sub(r"\[[A-Za-z]+\]", " ", masked))


_OWNER = re.compile(
    r"\s(?:of|on|with|for|from|in)\s+(?:the\s+|our\s+)?(?:[\w-]+(?:'s|’s)?\s+){0,2}?"
    r"(?:lead|backup)(?:\s+(?:compound|candidate))?\s*\??\s*$",
    re.IGNORECASE,
)
"""A project's role said last, after a preposition ("... on the tau lead?", "... with orion's
lead"): whose the thing asked before it is."""
_ASKS_STOPPED = re.compile(
    r"\b(?:stop(?:ped)?|held|hold|discontinued|came off|taken off|withdrawn|ceased)\b",
    re.IGNORECASE,
)
"""A question about a medication that was stopped ("what did we stop on 7310?")."""
_ROLES = ("lead", "backup")
"""The roles a project's compounds hold, said in ``_OWNER``."""
_ASKED_WORD = re.compile(
    r"\b(?!(?:what|whats|which|who|whose|is|was|are|were|the|a|an|any|our|current|now|"
    r"currently|s)\b)[a-z][a-z0-9-]+",
    re.IGNORECASE,
)
"""A word that names what is asked, not a question's frame ("what's the", "any")."""
_PURPOSE = re.compile(
    r"\b(?:on|taking|take|takes|given|getting|using|prescribed|started)\b[^?]*?"
    r"(?P<tail>\bfor\b[^?]*)\??\s*$",
    re.IGNORECASE,
)
"""A question of a drug's purpose: "what is she on / taking / given ... for <what>"."""
_WHO = re.compile(r"\s*(?:who|whom|which (?:patients?|of my)|any(?:one| patients?))\b", re.I)
"""A question that asks which patient: the drug it names is what it asks by."""
_FIRST_PERSON = re.compile(r"\b(?:we|our|ours|us|my)\b|\bI\b", re.IGNORECASE)


def _anchor_test(anchors: tuple[LinkedEntity, ...], t: TemporalIntent) -> Callable[[Fact], bool]:
    """Whether a fact's value is one the question names: a linked entity or the anchor text."""
    anchor_keys = {alias_key(e.mention) for e in anchors}
    anchor_ids = {e.id for e in anchors}
    text_key = alias_key(t.anchor or "")

    def is_anchor(f: Fact) -> bool:
        if f.obj in anchor_ids:
            return True
        names = {alias_key(f.obj), alias_key(f.obj_name or "")} - {""}
        return bool(names & (anchor_keys | {text_key}))

    return is_anchor


def _ties(fact: Fact, drug: LinkedEntity) -> bool:
    """Whether the statement of ``fact`` names ``drug``, whole or clipped ("the atorva")."""
    said = f"{fact.detail or ''} {fact.evidence or ''}".lower()
    names = {n.lower() for n in (drug.name, drug.mention) if n}
    if any(n in said for n in names):
        return True
    return any(
        len(w) >= 4 and any(n.startswith(w) for n in names)
        for w in re.findall(r"[a-z][\w-]*", said)
    )


def _all_held(entities: list[LinkedEntity], history: list[Fact]) -> bool:
    """Whether each thing a question names is, under one of its readings, a value of
    ``history``. Pure."""
    held = {f.obj for f in history}
    spans = {(e.start, e.end) for e in entities}
    return bool(spans) and all(
        any(e.id in held for e in entities if (e.start, e.end) == span) for span in spans
    )


def _brought_on(history: list[Fact]) -> dict[int, set[str]]:
    """What the patient felt (symptoms, side effects) that its statement says one of their
    drugs brought on, with those drugs: the statement names the drug in the clause with a
    word of cause ("arthralgia from letrozole", "nausea++ after first dose of semaglutide"),
    or refers back to the drugs started before it ("confusion after the first dose", "a rash
    from it"). Fact id -> drug ids. Pure."""
    drugs = [f for f in history if f.rel == "takes"]
    out: dict[int, set[str]] = {}
    for f in history:
        if f.rel in ("takes", "lab_value") or f.rel.endswith("_remark"):
            continue
        cause = _cause_clause(f)
        if cause is None:
            continue
        named = {
            d.obj
            for d in drugs
            if _ties(
                f,
                LinkedEntity(
                    mention=d.obj_name or d.obj,
                    id=d.obj,
                    name=d.obj_name or d.obj,
                    kind="Compound",
                    score=1.0,
                    method="exact",
                ),
            )
        }
        if not named and _BACK.search(cause):
            named = {d.obj for d in drugs if d.t_start <= f.t_start}
        if named:
            out[f.id] = named
    return out


_BACK = re.compile(
    r"\b(?:it|them|this|that|the (?:first |last |new |second )?(?:dose|drug|med\w*|"
    r"tablets?|pills?|treatment|infusion))\b",
    re.IGNORECASE,
)


_CAUSE = re.compile(
    r"\b(?:from|after|since|due to|caused|because of|secondary to|gave|giving|with|on)\b",
    re.IGNORECASE,
)


_AS_AN_EFFECT = re.compile(
    r"\b(?:attributed|induced|brought on|caused|due to|because of|secondary to|side[- ]effects?|"
    r"adverse|reaction)\b",
    re.IGNORECASE,
)


def _complained(fact: Fact, brought: dict[int, set[str]]) -> bool:
    """Whether what the patient felt was said as a complaint of theirs: no statement put it
    down to a drug or called it a drug's effect ("she's been having palpitations"). Pure."""
    said = fact.evidence or ""
    return fact.id not in brought and not _CAUSE.search(said) and not _AS_AN_EFFECT.search(said)


def _cause_clause(fact: Fact) -> str | None:
    """The clause of the statement of ``fact`` that names its value with a word of what
    brought it on ("arthralgia from it", "nausea++ after first dose"), or None. Pure."""
    said = fact.evidence or ""
    name = (fact.obj_name or fact.obj or "").lower().split()
    if not name:
        return None
    for part in re.split(r"[.;]\s+", said):
        for clause in clauses(part):
            if name[0] in clause.lower() and _CAUSE.search(clause):
                return clause
    return None


_REASON = re.compile(r"^\W*(?:and\s+|so\s+)?(?:why|how come|for what reason)\b", re.IGNORECASE)
_CODE = re.compile(r"(?<![\w-])[A-Z]{1,6}-?\d+[A-Za-z]?(?![\w-])")


def _asks_remark(question: str, rows: list[Fact]) -> bool:
    """Whether a question about a project asks for what the user said rather than a value of
    the relation read: a reason ("why ...?"), or a compound code none of ``rows`` holds.
    Pure."""
    if _REASON.search(question):
        return True
    held = {alias_key(n) for f in rows for n in (f.obj, f.obj_name or "")}
    codes = [alias_key(m.group()) for m in _CODE.finditer(question)]
    return bool(codes) and not any(c in held for c in codes)


def _has_value(question: str) -> bool:
    return bool(_measurements(question))


def _measurements(question: str) -> list[Measurement]:
    """Measurements named in ``question``, dates left out ("March 3" is no value)."""
    dates = date_spans(question)
    found = find_measurements(question)
    return [m for m in found if not any(m.start < b and a < m.end for a, b in dates)]
