"""Fact capture from chat statements, by local rules (no LLM).

"Switched MRN 4471 from metformin to sitagliptin" -> (patient:4471, takes, Compound::DB01261)
superseding metformin. The relation is the best-scoring one (cue lexicons of
``relations.yaml``) whose subject and object kinds are present in the statement; roles follow
from kinds, not word order ("EPHB3 is inhibited by nilotinib" works). Values marked as old
("from A", "A ->", "(was X)", "previously X") become what the new fact supersedes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engine.result import LinkedEntity, Triple
from engine.understand.lexicon import FUNCTION_WORDS
from engine.util.text import alias_key
from memory.conditions import as_conditions
from memory.dosing import DOSE_UNIT, Dose, amount_spans, dose_after, dose_of
from memory.druglevels import Drug, named_levels
from memory.literals import (
    Measurement,
    allergen_named,
    bare_potencies,
    continued_value,
    find_allergen,
    find_measurements,
)
from memory.notes import labelled_note, with_codes
from memory.origin import STATED
from memory.patients import person_reference
from memory.relations import RelationCatalog, RelationSpec
from memory.saidnames import drug_it, names_of, said_drugs
from memory.subjects import NOTE, PATIENT, Linker, Resolver, SubjectRef, link

_SOURCE = re.compile(
    r"\b(?:the|a|an|our|my|this|[A-Z]?[a-z]+day's|[A-Z][\w.]*(?: et al\.?)?'s)\s+"
    r"(?:[\w.'-]+\s+){0,3}?(?:study|paper|preprint|meeting|seminar|dataset|data|report|journal|"
    r"abstract|review|poster|talk)\b",
    re.IGNORECASE,
)
"""Where a finding comes from ("the new JAMA study"): not an entity of the fact."""
_MARGIN = 1.0
"""A feasible relation may win only if its cue score is within this of the best score."""


@dataclass(frozen=True)
class Extracted:
    subj: str
    rel: str
    obj: str
    subj_name: str | None = None
    obj_name: str | None = None
    supersedes: Triple | None = None
    supersede_current: bool = False
    score: float = 0.0
    detail: str | None = None
    """The value's dose, route and frequency as written ("5 mg twice daily")."""
    ends: bool = False
    """The statement stops this value and names nothing in its place ("stopped metformin")."""
    said: str | None = None
    """The value as the statement wrote it ("lantus" for insulin glargine)."""

    @property
    def triple(self) -> Triple:
        return (self.subj, self.rel, self.obj)


@dataclass(frozen=True)
class _Value:
    id: str
    name: str | None
    start: int
    end: int


class Extractor:
    def __init__(
        self, catalog: RelationCatalog, resolver: Resolver, linker: Linker | None = None
    ) -> None:
        self.catalog = catalog
        self.resolver = resolver
        self.linker = linker
        self._known_keys = frozenset(catalog.measurement_keys)

    def extract(
        self, text: str, conversation: str | None = None, *, carried: str | None = None
    ) -> Extracted | None:
        """The fact a statement states (``_extract``), else a project's note given by the
        noun it is about (``notes.labelled_note``), kept as a result keyed by that noun."""
        coded = with_codes(text, self._code_of)
        found = self._extract(coded, conversation, carried=carried)
        if found is not None or self.resolver.patients(text):
            return found
        for note in self.resolver.notes(text):
            said = labelled_note(text, note.start, note.end) if note.known else None
            if said is not None and note.start >= 0:
                noun, value = said
                return Extracted(note.id, "key_result", f"{noun}: {value}", note.name, value)
        return None

    def _code_of(self, number: str) -> str | None:
        """The code of a compound this user named that ``number`` is, unless it is a
        patient's number (``Resolver.code_of``)."""
        return self.resolver.code_of(number)

    def _extract(
        self, text: str, conversation: str | None = None, *, carried: str | None = None
    ) -> Extracted | None:
        """The fact a statement states, or None when it states none we can store.

        ``conversation`` is the patient the conversation is about (the last one named): a
        statement that names no patient but says "her", "his" or "my patient" is about it.
        With ``carried`` it is about it without saying so, when the statement's clearest
        relation is a patient's and it names no note: "clause" for a clause of a sentence that
        named the patient before it ("MRN 5170 — T2DM + CKD 3b"), "conversation" for a
        clinician's shorthand after naming one ("eGFR 38, BP 142/84"); only a clause's patient
        makes a lone diagnosis a diagnosis (``_kind_bonus``)."""
        patients = [r for r in self.resolver.patients(text) if r.id]
        notes = self.resolver.notes(text)
        if (
            not any(n.known for n in notes)
            and not patients
            and carried == "clause"
            and (conversation or "").startswith("note:")
        ):
            # a clause of a sentence that named the project ("HLX-204 is our lead now,
            # HLX-188 drops to backup") is about it too
            notes = [SubjectRef(conversation or "", NOTE, "", -1, -1, True, carried)]
        implied = False
        if not patients and conversation is not None and conversation.startswith("patient:"):
            said = person_reference(text)
            if said is not None:
                start, end = said
                patients = [
                    SubjectRef(conversation, PATIENT, text[start:end], start, end, True, "said")
                ]
            elif carried and not notes:
                patients = [SubjectRef(conversation, PATIENT, "", -1, -1, True, carried)]
                implied = True
        known = self._known_keys | {
            *self.resolver.vault.keys("lab_value"),
            *self.resolver.vault.keys("key_result"),
        }
        linked = _whole_codes(text, link(self.linker, text))
        linked += self._on_record(text, linked, patients, conversation)
        doses = _doses(text, linked, self._known_keys)
        # a patient's number is no value of a test ("latest PEF 27703" names the patient)
        named = [(r.start, r.end) for r in patients if r.start >= 0]
        measurements = [
            m
            for m in _past_names(find_measurements(text, known), named)
            if not _is_dose(text, m, doses, self._known_keys)
            and not any(m.start < b and a < m.end for a, b in named)
            and not _dated_heading(m, known)
        ]
        measurements = self._levels(text, measurements, linked, patients)
        if not measurements and patients and not doses:
            # "down to 48 mg/l this am": the series of the patient's value said last in
            # that unit goes on
            went = continued_value(text, self._said_values(patients[0].id))
            measurements = [went] if went is not None else []
        if not measurements and not patients and any(n.known for n in notes):
            # a project's compound said at a concentration, no test named: its potency
            measurements = bare_potencies(text)
        taken = [(r.start, r.end) for r in patients if r.start >= 0]
        taken += [(m.start, m.end) for m in measurements]
        # a dose's words are no entity ("mg" is no myasthenia gravis)
        taken += [(d.start, d.end) for d in doses] + amount_spans(text)
        taken += [(m.start(), m.end()) for m in _SOURCE.finditer(text)]
        # a test's name ("PSA", "K") is no disease or drug unless a dose follows it
        taken += [
            (e.start, e.end)
            for e in linked
            if e.start >= 0
            and alias_key(e.mention) in known
            and not any(d.start >= e.end and d.start - e.end <= 3 for d in doses)
        ]
        entities = _non_overlapping(linked, taken)
        if patients:
            # a state the graph names only as a side effect, tied to no drug, is the
            # patient's condition ("septic shock", "gout flare")
            entities = as_conditions(
                text, entities, lambda e: _tied(text, e, entities), self._link_kinds
            )
        # what a statement names says its relation only when no word of its own says one
        # (a cue of a relation none of whose kinds of value is named says nothing: "has a
        # tremor" names no disease)
        kinds = {e.kind for e in entities}
        cued = any(
            spec.score(text, ask=False) > 0
            and (spec.literal_object or not spec.object_kinds or bool(kinds & spec.object_kinds))
            for spec in self.catalog.relations.values()
        )
        strong = [p for p in patients if p.via != "conversation"]
        scored = sorted(
            (
                (
                    spec.score(text, ask=False)
                    + _value_bonus(spec, measurements)
                    + _dose_bonus(spec, doses)
                    + _harm_bonus(spec, text, entities)
                    + (0.0 if cued else _kind_bonus(spec, entities, strong)),
                    spec,
                )
                for spec in self.catalog.relations.values()
                if not spec.verbatim
            ),
            key=lambda t: -t[0],
        )
        top = scored[0][0] if scored else 0.0
        if implied and (not scored or scored[0][1].subject != PATIENT):
            patients = []  # a patient is carried only into a statement about a patient
        for score, spec in scored:
            if score <= 0 or score < top - _MARGIN:
                return None  # the statement's clearest relation could not be built
            fact = self._build(spec, text, patients, notes, entities, measurements, doses)
            if fact is not None:
                return replace(fact, score=score)
        return None

    def _on_record(
        self,
        text: str,
        linked: list[LinkedEntity],
        patients: list[SubjectRef],
        conversation: str | None,
    ) -> list[LinkedEntity]:
        """The patient's medications kept as written that ``text`` names by a word the linker
        did not read ("the patiromer is making him constipated", "since the atorva"), as
        drugs of the statement (``memory.saidnames``)."""
        patient = patients[0].id if patients else conversation
        if patient is None or not patient.startswith("patient:"):
            return []
        drugs = [f for f in self.resolver.vault.history(patient, "takes") if f.source == STATED]
        taken = [(e.start, e.end) for e in linked if e.start >= 0]
        taken += [(r.start, r.end) for r in patients if r.start >= 0]
        specs = self.catalog.relations.values()
        said = said_drugs(
            text, drugs, taken, lambda w: any(s.score(w, ask=True) > 0 for s in specs)
        )
        return said + drug_it(text, drugs)

    def _levels(
        self,
        text: str,
        found: list[Measurement],
        linked: list[LinkedEntity],
        patients: list[SubjectRef],
    ) -> list[Measurement]:
        """``found`` with drugs' levels under the drug's name (``memory.druglevels``)."""
        named = [
            Drug(e.start, e.end, alias_key(e.name or e.mention))
            for e in linked
            if e.kind == "Compound" and e.start >= 0
        ]
        drugs = self.resolver.vault.history(patients[0].id, "takes") if patients else []
        return named_levels(text, found, named, {n for f in drugs for n in names_of(f)})

    def _said_values(self, patient: str) -> list[str]:
        """The patient's values as stated, the latest said first."""
        facts = self.resolver.vault.history(patient, "lab_value")
        return [f.obj for f in sorted(facts, key=lambda f: (f.first_seen, f.id), reverse=True)]

    def _link_kinds(self, text: str, kinds: set[str]) -> list[LinkedEntity]:
        return link(self.linker, text, kinds)

    def values(self, text: str, subject: str, taken: Extracted) -> list[Extracted]:
        """The other values a patient's statement gives besides ``taken``: each test with its
        value ("K 3.2 so added 40 mmol KCl") and each drug with its dose ("Na 136 after
        fludro went up to 150 mcg"), so that no stated value is dropped because another fact
        of the same clause was read first."""
        if not subject.startswith("patient:") or taken.ends:
            return []
        patients = [r for r in self.resolver.patients(text) if r.start >= 0]
        linked = link(self.linker, text)
        doses = _doses(text, linked, self._known_keys)
        named = [(r.start, r.end) for r in patients]
        known = self._known_keys | {*self.resolver.vault.keys("lab_value")}
        tests = [
            m
            for m in _past_names(find_measurements(text, known), named)
            if not _is_dose(text, m, doses, self._known_keys)
            and not any(m.start < b and a < m.end for a, b in named)
        ]
        tests = self._levels(text, tests, linked, [r for r in patients if r.id == subject])
        sup = self.catalog.supersede
        keys = {self.catalog.canonical_key(m.key) for m in tests if m.literal == taken.obj}
        out: list[Extracted] = []
        for m in tests:
            key = self.catalog.canonical_key(m.key)
            # one value per test: another of the same test is the one it replaced
            # ("HbA1c 7.5%, previously HbA1c 6.9%")
            if key in keys or _is_old(
                text, _Value(m.literal, None, m.start, m.end), sup.old_before_re, sup.old_after_re
            ):
                continue
            keys.add(key)
            out.append(Extracted(subject, "lab_value", m.literal))
        taken_spans = named + [(m.start, m.end) for m in tests]
        entities = _non_overlapping(linked, taken_spans + amount_spans(text))
        drugs = [_Value(e.id, e.name, e.start, e.end) for e in entities if e.kind == "Compound"]
        drugs += _unlinked_drugs(text, doses, entities, self._known_keys)
        for v in drugs:
            dose = dose_of(text, v.start, _name_end(text, v.start, v.end))
            if (
                dose is None
                or dose.amount is None
                or _is_old(text, v, sup.old_before_re, sup.old_after_re)
            ):
                continue
            said = text[v.start : v.end]
            out.append(Extracted(subject, "takes", v.id, None, v.name, detail=dose.text, said=said))
        return [f for f in out if (f.rel, f.obj) != (taken.rel, taken.obj)]

    def _build(
        self,
        spec: RelationSpec,
        text: str,
        patients: list[SubjectRef],
        notes: list[SubjectRef],
        entities: list[LinkedEntity],
        measurements: list[Measurement],
        doses: list[Dose],
    ) -> Extracted | None:
        subject = self._subject(spec, patients, notes, entities)
        if subject is None:
            return None
        values = self._values(spec, text, entities, measurements, subject)
        if not values and _gives_drug(spec):
            values = _unlinked_drugs(text, doses, entities, self._known_keys)
        if not values and _harm_bonus(spec, text, entities):
            # a symptom tied to a drug is the side effect it had ("hallucinations with X")
            values = [_Value(h.id, h.name, h.start, h.end) for h, _ in _harms(text, entities)]
        if not values:
            return None
        sup = self.catalog.supersede
        if spec.literal_object and spec.phrase_patterns and spec.functional == "subject":
            # "lead is LK-12; we dropped LK-4": a value kept as written may end one named as
            # dropped beside it, which then answers "the one we set aside"
            values += _dropped_words(text, values, entities, sup.old_before_re, sup.old_after_re)
        old = [v for v in values if _is_old(text, v, sup.old_before_re, sup.old_after_re)]
        new = [v for v in values if v not in old]
        if not new and old and _gives_drug(spec):
            # "moving to dabigatran 150mg bd instead of warfarin": a drug the graph does not
            # know, given with its dose, is what replaces the one named as old
            new = _unlinked_drugs(text, doses, entities, self._known_keys)
        if not new and old and spec.functional in ("explicit", "subject"):
            new = _unlinked_new(text, old[0])  # "from calcitriol to dex": keep "dex" verbatim
        if not new and old and spec.functional == "explicit":
            gone = old[0]  # "stopped metformin": the value ends, nothing replaces it
            return Extracted(subject.id, spec.name, gone.id, subject.name, gone.name, ends=True)
        if not new:
            return None
        value = new[0]
        subject = _nearest(subject, patients, value) if spec.subject == PATIENT else subject
        switched = bool(sup.switch_re.search(text))
        supersedes = (subject.id, spec.name, old[0].id) if old else None
        dose = dose_of(text, value.start, _name_end(text, value.start, value.end))
        dose = dose if _gives_drug(spec) else None
        return Extracted(
            subject.id,
            spec.name,
            value.id,
            subject.name,
            value.name,
            supersedes,
            switched and not old and spec.functional == "explicit",
            said=text[value.start : value.end] if value.start >= 0 else None,
            detail=(
                dose.text
                if dose is not None and value.start >= 0
                else _harm_cause(spec, text, value, entities) or _aside(spec, text, value)
            ),
        )

    def _subject(
        self,
        spec: RelationSpec,
        patients: list[SubjectRef],
        notes: list[SubjectRef],
        entities: list[LinkedEntity],
    ) -> SubjectRef | None:
        if spec.subject == PATIENT:
            return patients[0] if patients else None
        if spec.subject == NOTE:
            return notes[0] if notes else None
        ents = [e for e in entities if e.kind == spec.subject]
        if not ents:
            return None
        e = ents[0]
        return SubjectRef(e.id, e.kind, e.mention, e.start, e.end, True, "entity", e.name)

    def _values(
        self,
        spec: RelationSpec,
        text: str,
        entities: list[LinkedEntity],
        measurements: list[Measurement],
        subject: SubjectRef,
    ) -> list[_Value]:
        if spec.functional == "key" and spec.literal_object:
            return [_Value(m.literal, None, m.start, m.end) for m in measurements]
        kinds = spec.object_kinds
        values = [
            _Value(e.id, e.name, e.start, e.end)
            for e in entities
            if e.kind in kinds and e.id != subject.id
        ]
        if subject.kind == NOTE:
            # a name the project is called by ("nlrp3" of the nlrp3 programme) is its value
            # only when the statement names no other ("parking nek7 as a target")
            own = set(subject.id.removeprefix("note:").split("-"))
            values.sort(key=lambda v: alias_key(text[v.start : v.end]) in own)
        if spec.subject == NOTE and spec.phrase_patterns:
            # a project's value is where its grammar places it ("WRN-7 is the lead now, much
            # better sol"): a code written there, not a drug linked elsewhere in the sentence
            placed = _phrase_values(spec, text, [])
            if placed and _CODE.fullmatch(placed[0].id):
                inside = [v for v in values if v.start == placed[0].start]
                return inside or placed
        if spec.literal_object:
            allergen = find_allergen(text)
            # "a rash with the fluclox, we're documenting it as an allergy": words that point
            # back at the allergen name none; the drug the sentence names is it
            if allergen is not None and allergen_named(allergen[0]):
                phrase, start, end = allergen
                inside = [v for v in values if start <= v.start < end or v.start <= start < v.end]
                return inside[:1] or [_Value(phrase, phrase, start, end)]
        if not values and kinds:
            values = self._relink(text, kinds, subject, entities)
        if not values:
            values = _phrase_values(spec, text, entities)
        return values

    def _relink(
        self, text: str, kinds: set[str], subject: SubjectRef, entities: list[LinkedEntity]
    ) -> list[_Value]:
        """Ask the linker again restricted to ``kinds`` (a symptom may also be a side effect)."""
        found = link(self.linker, text, kinds)
        return [_Value(e.id, e.name, e.start, e.end) for e in found if e.id != subject.id]


_WORDS = r"[A-Za-z0-9][\w-]*(?:\s+[A-Za-z0-9][\w-]*){0,2}?"
_STOP_AFTER = r"(?=\s*(?:[.,;:!?)]|$|\s+(?:instead|for|as|today|now|is|in|on)\b))"
_NEW_AFTER_OLD = re.compile(
    rf"^\W{{0,2}}\s*(?:->|→|to|onto|with)\s+(?P<x>{_WORDS}){_STOP_AFTER}", re.IGNORECASE
)
_NEW_CUED = re.compile(
    rf"\b(?:now|starting|changed to|switched to|moved to)\s+(?P<x>{_WORDS})"
    rf"{_STOP_AFTER}",
    re.IGNORECASE,
)


_NEW_BEFORE_OLD = re.compile(
    r"(?<![\w-])(?P<x>[A-Z]{1,6}-?\d[\w-]*|[A-Za-z][a-z-]{3,})\s+"
    r"(?:replaces|replaced|supersedes|superseded|takes over from|took over from)\s+"
    r"(?:the\s+|our\s+)?$"
)
_WORD_VALUE = re.compile(r"\b(?:[A-Z]{1,6}-?\d[\w-]*|[A-Za-z][a-z-]{3,})(?![\w-])")
"""A value written as one word: an in-house code ("KX-7") or a name ("nintedanib")."""


def _dropped_words(
    text: str,
    values: list[_Value],
    entities: list[LinkedEntity],
    before: re.Pattern[str],
    after: re.Pattern[str],
) -> list[_Value]:
    """One-word values the statement marks as old ("dropped LK-4", "KX-7 out") besides
    ``values``, none of them another entity's words."""
    out: list[_Value] = []
    for m in _WORD_VALUE.finditer(text):
        start, end = m.span()
        if any(v.start < end and start < v.end for v in values) or any(
            _covers(e, start, end, m.group()) for e in entities
        ):
            continue
        word = _Value(m.group(), m.group(), start, end)
        code = any(c.isdigit() for c in m.group())
        # a code may be marked after it too ("KX-7 out"); a plain word only by what precedes
        # it ("dropping nintedanib"), as "figured out" says nothing of "figured"
        if _is_old(text, word, before, after if code else re.compile(r"(?!)")):
            out.append(word)
    return out


def _unlinked_new(text: str, old: _Value) -> list[_Value]:
    """The replacing value of a switch when the linker did not recognise it: after the old
    one ("from KX-3 to KX-7") or before the verb that replaces it ("FN-40 replaces FN-31")."""
    m = _NEW_BEFORE_OLD.search(text[: old.start])
    if m:
        return [_Value(m.group("x"), m.group("x"), m.start("x"), m.end("x"))]
    m = _NEW_AFTER_OLD.search(text[old.end :])
    if m:
        start = old.end + m.start("x")
        return [_Value(m.group("x"), m.group("x"), start, start + len(m.group("x")))]
    m = _NEW_CUED.search(text, old.end)
    if m and m.start("x") > old.end:
        return [_Value(m.group("x"), m.group("x"), m.start("x"), m.end("x"))]
    return []


def _phrase_values(spec: RelationSpec, text: str, entities: list[LinkedEntity]) -> list[_Value]:
    """The object as written ("shortness of breath") when no entity of its kind was linked;
    never a span that is some other entity (a drug named where a symptom should be)."""
    for pattern in spec.phrase_patterns:
        m = pattern.search(text)
        if m is None:
            continue
        start, end = m.start("x"), m.end("x")
        phrase = m.group("x").strip()
        # a value that is only ever words ("mouse peritonitis model") may hold a name
        words_only = not spec.object_kinds
        if phrase and (words_only or not any(_covers(e, start, end, phrase) for e in entities)):
            return [_Value(phrase, phrase, start, start + len(phrase))]
    return []


_CODE = re.compile(r"[A-Za-z]+-?\d[\w-]*")
"""An in-house code ("WR-5", "KX7"): letters glued to a number."""


def _whole_codes(text: str, linked: list[LinkedEntity]) -> list[LinkedEntity]:
    """``linked`` without a mention that is only the letters of an in-house code ("KX" of
    "KX-7" is no gene); a name the code is as a whole ("IL-6") stays."""
    codes = [m.span() for m in _CODE.finditer(text) if "-" in m.group()]
    return [e for e in linked if not any(a <= e.start and e.end < b for a, b in codes)]


def _covers(e: LinkedEntity, start: int, end: int, phrase: str) -> bool:
    """Whether entity ``e`` takes the span of ``phrase`` (``start``..``end``): it overlaps it,
    unless the phrase is a code and the entity only a part of it ("WR" of "WR-5" is no gene)."""
    if not (e.start < end and start < e.end):
        return False
    inside = start <= e.start and e.end <= end and e.end - e.start < end - start
    return not (inside and _CODE.fullmatch(phrase))


_DAY_MONTH = re.compile(r"(?P<d>\d{1,2})/(?P<m>\d{1,2})(?:/\d{2,4})?")


def _dated_heading(m: Measurement, known: frozenset[str] | set[str]) -> bool:
    """A word no test is named by, with a day and month after it ("bloods 18/11", "results
    17/11"): when the results were taken, no value of a test (a known test's "120/80" is)."""
    if alias_key(m.key) in known:
        return False
    value = _DAY_MONTH.fullmatch(m.literal[len(m.key) :].strip())
    return value is not None and 1 <= int(value["d"]) <= 31 and 1 <= int(value["m"]) <= 12


def _value_bonus(spec: RelationSpec, measurements: list[Measurement]) -> float:
    """A measurement in the statement is itself a cue for measurement relations."""
    return 1.0 if measurements and spec.functional == "key" and spec.literal_object else 0.0


def _gives_drug(spec: RelationSpec) -> bool:
    """A relation that gives a patient a drug (``takes``): its value may carry a dose."""
    return spec.subject == PATIENT and spec.object_kinds == {"Compound"}


def _doses(
    text: str, entities: list[LinkedEntity], tests: frozenset[str] = frozenset()
) -> list[Dose]:
    """The dose written after each drug the statement names ("apixaban 5 mg twice daily"),
    and after each word the linker did not know that a dose follows ("empagliflozin 10 mg
    od", "lantus 18 units at night": a drug the graph lacks, ``_unlinked_drugs``)."""
    found = [
        dose_of(text, e.start, _name_end(text, e.start, e.end))
        for e in entities
        if e.kind == "Compound" and e.start >= 0
    ]
    found += [d for _, d in _dosed_words(text, entities, tests)]
    kept: list[Dose] = []
    for d in sorted((d for d in found if d is not None), key=lambda d: d.start):
        if not any(d.start < k.end and k.start < d.end for k in kept):
            kept.append(d)
    return kept


_NAME_END = re.compile(r"[\s\d.,]+$")
_DOSED_WORD = re.compile(
    r"(?<![\w-])(?P<w>[A-Za-z][A-Za-z-]{3,})"
    r"(?=\s*(?:(?:up |down )?to\s+|(?:[a-z]+\s+){1,2}?(?:to|now|at)\s+)?\d)"
    rf"|(?<![\w-])(?P<short>[A-Za-z]{{3}})(?=\s+(?:to\s+)?\d+(?:\.\d+)?\s*{DOSE_UNIT}(?!\w))"
)
"""A word before a dose's amount: four letters or more, or three right before an amount with
its unit ("tac 3mg bd", "tac to 2mg bd": a drug's clipped name)."""
_NOT_A_DRUG = frozenset(
    {
        "dose",
        "doses",
        "dosing",
        "level",
        "levels",
        "rate",
        "total",
        "than",
        "over",
        "under",
        "about",
        "around",
        "from",
        "down",
        "up",
        "at",
        "with",
        "increasing",
        "reducing",
        "increased",
        "reduced",
        "decreased",
        "titrating",
        "weight",
        "given",
        "going",
        "went",
        "gone",
        "dropped",
        "dropping",
        "increase",
        "reduce",
        "bumped",
        "titrated",
        "weaned",
        "changed",
        "raised",
        "lowered",
        "cut",
        "back",
        "only",
        "then",
        "still",
        "now",
        "keep",
        "keeping",
        "continue",
        "stay",
        "stays",
        "remain",
        "remains",
        # three letters before an amount that are no drug's clipped name
        "got",
        "gave",
        "took",
        "put",
        "add",
        "max",
        "min",
        "tot",
        "inc",
        "dec",
        "rpt",
        "due",
        "amp",
        "new",
        "old",
        "bed",
        "day",
        "aim",
        "aged",
        "him",
        "six",
        "ten",
    }
)


def _name_end(text: str, start: int, end: int) -> int:
    """Where a drug mention's name ends: a mention the linker stretched over the number after
    it ("amlodipine 5" of "amlodipine 5 mg") ends before that number."""
    trimmed = _NAME_END.sub("", text[start:end])
    return start + len(trimmed) if trimmed else end


def _dosed_words(
    text: str, entities: list[LinkedEntity], tests: frozenset[str] = frozenset()
) -> list[tuple[tuple[int, int], Dose]]:
    """Words no entity covers that a dose with an amount follows: (word span, dose); a word
    that names a test (``tests``: "egfr 58 ml/min") or reads as a verb ("adding 40 mmol kcl",
    "transfusing 1 unit") is no drug."""
    out = []
    for m in _DOSED_WORD.finditer(text):
        group = "w" if m.group("w") else "short"
        start, end = m.span(group)
        word = m.group(group).lower()
        # a word of change before the amount ("levo went up to 88 mcg") is no drug
        if (
            word in _NOT_A_DRUG
            or word in FUNCTION_WORDS  # "hb 104 after 1 unit": a word of grammar
            or alias_key(word) in tests
            or _verb_like(word)
            or any(e.start < end and start < e.end for e in entities if e.start >= 0)
        ):
            continue
        dose = dose_after(text, end)
        # a drug named between the word and the amount is the one dosed ("start bisoprolol
        # at 2.5 mg")
        if (
            dose is not None
            and dose.amount is not None
            and not _named_between(entities, end, dose.start)
        ):
            out.append(((start, end), dose))
    return out


def _verb_like(word: str) -> bool:
    """Whether a word reads as a verb or an adverb by its ending ("adding", "transfused",
    "weekly"), what is left before the ending being a word's stem of three letters or more
    ("pred" is a drug's short name, not a verb)."""
    return any(word.endswith(end) and len(word) - len(end) >= 3 for end in ("ing", "ed", "ly"))


def _nearest(subject: SubjectRef, patients: list[SubjectRef], value: _Value) -> SubjectRef:
    """Of several patients a clause names ("bed 2 and bed 7 bloods: petrov hb 79 g/l"), the
    one named last before the value is whose it is; ``subject`` when none is before it."""
    before = [p for p in patients if 0 <= p.end <= value.start and p.id]
    if len({p.id for p in patients if p.id}) < 2 or not before:
        return subject
    return max(before, key=lambda p: p.end)


def _past_names(measurements: list[Measurement], named: list[tuple[int, int]]) -> list[Measurement]:
    """Each measurement with a patient's name read into its test's name taken out ("lee tsh
    0.9 mu/l" is Lee's "tsh 0.9 mu/l"); a measurement that is all name is left as found."""
    out: list[Measurement] = []
    for m in measurements:
        key_end = m.start + len(m.key)
        ends = [b for a, b in named if m.start <= a and b < key_end]
        if not ends:
            out.append(m)
            continue
        cut = max(ends) - m.start
        key = re.sub(r"^(?:'s|’s)?[\s:,-]*", "", m.key[cut:])
        if not key:
            out.append(m)
            continue
        start = key_end - len(key)
        out.append(Measurement(key + m.literal[len(m.key) :], key, start, m.end))
    return out


def _named_between(entities: list[LinkedEntity], start: int, end: int) -> bool:
    """Whether a linked drug lies within ``start``..``end`` of the text."""
    return any(
        e.kind == "Compound" and e.start >= 0 and start <= e.start and e.end <= end
        for e in entities
    )


def _unlinked_drugs(
    text: str,
    doses: list[Dose],
    entities: list[LinkedEntity],
    tests: frozenset[str] = frozenset(),
) -> list[_Value]:
    """A drug the graph does not know, kept as written when a dose follows it
    ("empagliflozin 10 mg od"): a word no entity covers, right before a dose's amount."""
    return [
        _Value(text[a:b].lower(), text[a:b], a, b)
        for (a, b), dose in _dosed_words(text, entities, tests)
        if any(d.start == dose.start for d in doses)
    ]


def _is_dose(
    text: str, m: Measurement, doses: list[Dose], tests: frozenset[str] = frozenset()
) -> bool:
    """A measurement that is a drug's dose, never a lab value: it overlaps a dose of a named
    drug, or its value reads as a dose with an amount ("glargine 20 units") and its name is
    no test's (``tests``: "egfr 58 ml/min" is a value)."""
    if any(m.start < d.end and d.start < m.end for d in doses):
        return True
    if alias_key(m.key) in tests:
        return False
    key_end = m.start + len(m.key)
    dose = dose_after(text, key_end)
    return dose is not None and dose.amount is not None and dose.end >= m.end


def _kind_bonus(
    spec: RelationSpec, entities: list[LinkedEntity], patients: list[SubjectRef]
) -> float:
    """A statement about a patient that names only things of one relation's object kind is
    itself a cue for that relation when its values accumulate ("MRN 5170: T2DM + CKD 3b"
    states diagnoses); a drug needs its own cue or a dose ("had a rough week on metformin"
    says no more than that)."""
    spans: dict[tuple[int, int], set[str]] = {}
    for e in entities:
        spans.setdefault((e.start, e.end), set()).add(e.kind)
    # a part of the body is where a condition is ("cellulitis of the L leg"), no thing named
    spans = {s: k for s, k in spans.items() if k != _SITE} or spans
    if not patients or not spans or spec.subject != PATIENT or spec.literal_object:
        return 0.0
    if spec.functional != "none":
        return 0.0
    # each thing named may be of this relation's kind ("tremor": a symptom, a side effect)
    return 1.0 if all(kinds & spec.object_kinds for kinds in spans.values()) else 0.0


_SITE = {"Anatomy"}
_HARM_KINDS = frozenset({"Side Effect", "Symptom"})
_CAUSED_BY = re.compile(
    r"^[\s,]+(?:\w+\s+){0,3}?(?:on|with|from|after|since(?: starting)?|due to|caused by|"
    r"attributed to|secondary to|(?:probably|likely|possibly|prob|\?)(?:\s+(?:from|due to))?)"
    r"\s*(?:the\s+|his\s+|her\s+|their\s+)?$",
    re.IGNORECASE,
)
"""What stands between a harm and the drug that caused it ("irritability on keppra",
"hallucinations with ropinirole", "rash after starting amoxicillin")."""


_GAVE = re.compile(
    r"^[\s,]+(?:[\w./]+\s+){0,3}?(?:gave|gives|giving|caused|causes|causing|induced|"
    r"brought on|makes|made|making)\s+(?:her|him|them|the patient)?\s*(?:feel\s+)?"
    r"(?:an?\s+|some\s+)?(?:[a-z]+\s+)?$",
    re.IGNORECASE,
)
"""What stands between a drug and the harm it did ("lisinopril 10 mg gave her a dry cough",
"the bisoprolol makes him dizzy")."""


_DETERMINERS = frozenset({"the", "his", "her", "their", "a", "an"})
_LIKELY = frozenset({"probably", "likely", "possibly", "prob", "?"})
"""Words that put a harm down to a drug without a preposition ("tremor, probably the tac")."""


def _harms(text: str, entities: list[LinkedEntity]) -> list[tuple[LinkedEntity, LinkedEntity]]:
    """(harm, drug) pairs: a side effect or symptom the statement ties to a drug named after
    it."""
    harms = [e for e in entities if e.kind in _HARM_KINDS and e.start >= 0]
    drugs = [e for e in entities if e.kind == "Compound" and e.start >= 0]
    return [
        (h, d)
        for h in harms
        for d in drugs
        if (d.start >= h.end and _CAUSED_BY.match(text[h.end : d.start]))
        or (h.start >= d.end and _GAVE.match(text[d.end : h.start]))
    ]


def _tied(text: str, harm: LinkedEntity, entities: list[LinkedEntity]) -> bool:
    """Whether the statement ties ``harm`` to a drug it names."""
    return any(h.start == harm.start and h.end == harm.end for h, _ in _harms(text, entities))


def _harm_bonus(spec: RelationSpec, text: str, entities: list[LinkedEntity]) -> float:
    """A harm tied to a drug ("irritability on keppra") is itself a cue that the patient had
    that side effect, not that they take the drug."""
    if "Side Effect" not in spec.object_kinds or spec.subject != PATIENT:
        return 0.0
    return 2.0 if _harms(text, entities) or _phrased_harm(spec, text, entities) else 0.0


def _phrased_harm(spec: RelationSpec, text: str, entities: list[LinkedEntity]) -> bool:
    """A harm the relation's grammar places, which the linker does not know, said with the drug
    it came with ("getting awful hot flushes with it"): a drug named right after it."""
    for value in _phrase_values(spec, text, entities):
        for e in entities:
            if (
                e.kind == "Compound"
                and e.start >= value.end
                and _CAUSED_BY.match(text[value.end : e.start])
            ):
                return True
    return False


def _harm_cause(
    spec: RelationSpec, text: str, value: _Value, entities: list[LinkedEntity]
) -> str | None:
    """The drug a side effect is tied to, kept with it ("with Ropinirole")."""
    if "Side Effect" not in spec.object_kinds:
        return None
    for harm, drug in _harms(text, entities):
        if harm.start < value.end and value.start < harm.end:
            if drug.start < harm.start:
                return f"from {drug.name}"  # "lisinopril gave her a cough"
            words = text[harm.end : drug.start].strip(" ,").split()
            link = next((w for w in reversed(words) if w.lower() not in _DETERMINERS), words[-1])
            if link.lower() in _LIKELY:
                link = "from"  # "nausea, probably the sertraline"
            return f"{link} {drug.name}"
    return None


_ASIDE = re.compile(
    r"^\s*(?:[a-z]+\s+){0,1}\((?P<x>[^()]{2,40})\)"
    r"|^\s+[-–—]\s+(?P<y>[a-z][a-z ]{1,40}?)\s*(?:[.,;]|$)"
)
"""What a clinician adds in brackets right after a value: a reaction to an allergen
("morphine (bronchospasm)", "egg allergy (anaphylaxis)")."""


def _aside(spec: RelationSpec, text: str, value: _Value) -> str | None:
    """The bracketed words right after a value of a relation whose values accumulate
    (allergies, diagnoses), or those after a dash ("penicillin - rash"), kept as said."""
    if spec.functional != "none" or value.start < 0:
        return None
    m = _ASIDE.match(text[value.end :])
    return f"({(m.group('x') or m.group('y')).strip()})" if m else None


def _dose_bonus(spec: RelationSpec, doses: list[Dose]) -> float:
    """A drug with its dose is itself a cue for relations that give a patient a drug."""
    return 1.0 if doses and _gives_drug(spec) else 0.0


def _non_overlapping(
    entities: list[LinkedEntity], taken: list[tuple[int, int]]
) -> list[LinkedEntity]:
    """Entities outside patient/measurement spans; the longest wins among overlapping spans
    (all candidate kinds of that span are kept), in text order."""
    ranked = sorted(entities, key=lambda e: (-(e.end - e.start), -e.score))
    kept: list[LinkedEntity] = []
    spans: list[tuple[int, int]] = []
    for e in ranked:
        if e.start < 0:
            kept.append(e)
            continue
        if any(e.start < b and a < e.end for a, b in taken):
            continue
        if (e.start, e.end) not in spans and any(e.start < b and a < e.end for a, b in spans):
            continue  # overlaps a longer mention; the same span with another kind is kept
        kept.append(e)
        spans.append((e.start, e.end))
    return sorted(kept, key=lambda e: e.start)


def _is_old(text: str, value: _Value, before: re.Pattern[str], after: re.Pattern[str]) -> bool:
    """A value right after "from/off/replacing/(was" or right before "->/discontinued"."""
    if value.start < 0:
        return False
    head = text[max(0, value.start - 40) : value.start]
    tail = text[value.end : value.end + 30]
    if _TO_DOSE.match(tail):
        return False  # "dropped the lantus to 16 units": a new dose, not a drug stopped
    dose = dose_after(text, value.end)
    if dose is not None and dose.start - value.end <= 2 and after.search(text[dose.end :]):
        return True  # "hydroxychloroquine 200 mg bd stopped": the word after its dose marks it
    return bool(before.search(head) or after.search(tail))


_TO_DOSE = re.compile(r"\s+(?:(?:up|down|back)(?: down| up)? )?to\s+\d", re.IGNORECASE)
"""A change of the value's amount said right after it ("... to 16 units", "... back to 26
units", "... back down to 5mg"): the drug goes on at a new dose."""
