"""Who or what a text is about, resolved against ONE user's alias index.

Patients come from MRNs and from names/titles the user introduced earlier; notes from project
phrases (matched to the user's known note slugs and learned phrases); KG entities from the
engine's linker. Aliases are per user: the same name or MRN may be someone else elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

from engine.result import LinkedEntity
from engine.understand.lexicon import FUNCTION_WORDS
from engine.understand.spans import outermost
from engine.util.ids import kind_of as graph_kind
from engine.util.text import alias_key
from memory.literals import find_measurements
from memory.notes import HEADS, find_notes, match_slug, phrase_key
from memory.patients import (
    BED,
    bed_key,
    find_intros,
    find_mrns,
    find_names,
    find_placed,
    said_as_year,
    surname,
)
from memory.vault import Vault

_BARE_NUMBER = re.compile(r"(?<![\w#.,/\-^])(?P<n>\d{3,10})(?![\w%/^]|[.,]\d|\s*[%/])")
"""A whole number long enough to be a record number, no unit or decimals after it (three
digits only when this user already named that patient and no measurement holds it)."""
_CODE = re.compile(r"(?<![\w-])[A-Z]{1,6}-\d+[A-Za-z]?(?![\w-])")
"""An in-house compound code ("KX-3", "ORC-22")."""


def _CODE_WORD(code: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(code)}(?![\w-])", re.IGNORECASE)


_PARTICIPLE = re.compile(r"[a-z]{3,}ing", re.IGNORECASE)
"""A verb's -ing form after a stem of three letters or more ("bothering", "treating")."""
_SURNAME = re.compile(r"(?<![\w'-])[A-Za-z][a-z]{2,}(?:-[A-Za-z][a-z]+)?(?![\w-])")
"""A word as a surname is written, capitalised or, as typed on a ward, not ("okafor")."""


class Linker(Protocol):
    """Links the KG entities a text mentions, of ``kinds`` only when given
    (``memory.linking.StatementLinker``)."""

    def __call__(self, text: str, kinds: set[str] | None = None) -> list[LinkedEntity]: ...


PATIENT = "patient"
NOTE = "note"


@dataclass(frozen=True)
class SubjectRef:
    id: str
    kind: str
    mention: str
    start: int
    end: int
    known: bool
    via: str
    """mrn | bare | intro | name | title | note | entity | unknown-name"""
    name: str | None = None


def patient_id(mrn: str) -> str:
    return f"patient:{mrn}"


def subject_kind(node_id: str) -> str:
    """'patient', 'note' or the KG kind of a node id ("Compound::DB00331" -> "Compound")."""
    if node_id.startswith("patient:"):
        return PATIENT
    if node_id.startswith("note:"):
        return NOTE
    return graph_kind(node_id) or "literal"


def link(linker: Linker | None, text: str, kinds: set[str] | None = None) -> list[LinkedEntity]:
    """``linker``'s entities in ``text``, of ``kinds`` only when given."""
    if linker is None or not text.strip():
        return []
    found = linker(text, kinds=kinds or None)
    return [e for e in found if not kinds or e.kind in kinds]


class Resolver:
    """Resolves mentions in a text to this user's subjects (through ``Vault`` aliases)."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault
        self._seen: dict[tuple[str, str], list[SubjectRef]] | None = None

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Within the block (one question, the vault not written), ``patients`` and ``notes``
        read each text once."""
        self._seen = {}
        try:
            yield
        finally:
            self._seen = None

    def _once(
        self, what: str, text: str, find: Callable[[str], list[SubjectRef]]
    ) -> list[SubjectRef]:
        """``find(text)``, worked out once per ``what`` and text while a hold lasts."""
        if self._seen is None:
            return find(text)
        if (what, text) not in self._seen:
            self._seen[(what, text)] = find(text)
        return list(self._seen[(what, text)])

    def patients(self, text: str) -> list[SubjectRef]:
        """Patient references, best first: prefixed MRNs and intros, names, titles, bare MRNs."""
        return self._once("patients", text, self._patients)

    def _patients(self, text: str) -> list[SubjectRef]:
        refs: list[SubjectRef] = []
        intro_names = {name: mrn for name, mrn in find_intros(text)}
        for m in find_mrns(text):
            pid = patient_id(m.mrn)
            if not m.strong and not self._known(pid) and self._code_of(m.mrn) is not None:
                continue  # "311 tanks in rat pk": the compound HLX-311, no patient
            if not self._known(pid) and said_as_year(text, m):
                continue  # "renal tx 2019": a year
            name = next((n for n, mrn in intro_names.items() if mrn == m.mrn), None)
            via = "mrn" if m.strong else ("intro" if name else "bare")
            refs.append(
                SubjectRef(
                    pid, PATIENT, text[m.start : m.end], m.start, m.end, self._known(pid), via, name
                )
            )
        # a value is a number after a test's name; "what does 503", "did 118" name none,
        # nor does a verb's participle ("what's bothering 318")
        short = [
            (m.start, m.end)
            for m in find_measurements(text)
            if m.key.split()[-1].lower() not in FUNCTION_WORDS
            and not _PARTICIPLE.fullmatch(m.key.split()[-1])
        ]
        for num in _BARE_NUMBER.finditer(text):
            # a number this user gave as a patient's, written after a test's name ("latest PEF
            # 27703"), is that patient rather than a value
            pid = patient_id(num.group("n"))
            if len(num.group("n")) < 4 and any(a <= num.start() < b for a, b in short):
                continue
            if not any(r.start <= num.start() < r.end for r in refs) and self._known(pid):
                refs.append(
                    SubjectRef(pid, PATIENT, num.group("n"), num.start(), num.end(), True, "bare")
                )
        for n in find_names(text):
            if n.name in intro_names or any(r.start <= n.start < r.end for r in refs):
                continue
            hits = (
                self.vault.resolve(surname(n.name), "surname")
                if n.title
                else self.vault.resolve(n.name, "name")
            )
            if hits:
                refs.append(
                    SubjectRef(
                        hits[0].subject,
                        PATIENT,
                        n.name,
                        n.start,
                        n.end,
                        True,
                        "title" if n.title else "name",
                        n.name,
                    )
                )
            else:
                refs.append(
                    SubjectRef("", PATIENT, n.name, n.start, n.end, False, "unknown-name", n.name)
                )
        refs += self._beds(text, refs)
        surnames = self.vault.alias_keys("surname")
        for word in _SURNAME.finditer(text):
            # a surname alone, of a patient this user introduced by name ("Okafor 3390",
            # "the first potassium for Okafor")
            if any(r.start < word.end() and word.start() < r.end for r in refs):
                continue
            if alias_key(word.group()) not in surnames:
                continue
            hits = self.vault.resolve(word.group(), "surname")
            if hits:
                refs.append(
                    SubjectRef(
                        hits[0].subject,
                        PATIENT,
                        word.group(),
                        word.start(),
                        word.end(),
                        True,
                        "name",
                        word.group(),
                    )
                )
        order = {"mrn": 0, "intro": 0, "name": 1, "title": 2, "bare": 3, "unknown-name": 4}
        return sorted(refs, key=lambda r: (order[r.via], r.start))

    def _beds(self, text: str, refs: list[SubjectRef]) -> list[SubjectRef]:
        """The patients this user placed in the beds ``text`` names ("bed 4"), the latest
        placed there first."""
        out: list[SubjectRef] = []
        for m in BED.finditer(text):
            if any(r.start < m.end() and m.start() < r.end for r in refs):
                continue
            hits = self.vault.resolve(bed_key(m.group("bed")), "bed")
            if hits:
                said = m.group()
                out.append(
                    SubjectRef(
                        hits[0].subject, PATIENT, said, m.start(), m.end(), True, "name", said
                    )
                )
        return out

    def notes(self, text: str) -> list[SubjectRef]:
        return self._once("notes", text, self._notes)

    def _notes(self, text: str) -> list[SubjectRef]:
        refs: list[SubjectRef] = []
        known: list[str] | None = None
        mentions = find_notes(text)
        if not mentions:
            return self._bare_notes(text) or self._coded_notes(text)
        for n in mentions:
            hits = self.vault.resolve(phrase_key(n.phrase), NOTE)
            if hits:
                refs.append(
                    SubjectRef(
                        hits[0].subject, NOTE, n.phrase, n.start, n.end, True, NOTE, n.phrase
                    )
                )
                continue
            if known is None:
                known = [s.removeprefix("note:") for s in self.vault.subjects("note:")]
            slug = match_slug(n.slug, known)
            sid = f"note:{slug or n.slug}"
            refs.append(
                SubjectRef(sid, NOTE, n.phrase, n.start, n.end, slug is not None, NOTE, n.phrase)
            )
        if not any(r.known for r in refs):
            # a project this user knows, named by its own name, is what the message is about
            # rather than a new one its other words seem to name ("osprey next milestone is
            # the dog pk study", "weekend thought - osprey backup ...")
            bare = [r for r in self._bare_notes(text) if r.known]
            if bare:
                return bare
        return refs

    def _bare_notes(self, text: str) -> list[SubjectRef]:
        """Known notes named without a determiner ("Zebrafish model rerun: ..."), where they
        stand in ``text``; a note named inside a longer one's name ("organoid" in "glioma
        organoid screen") is that one's word, not a second subject."""
        key = f" {alias_key(text)} "
        refs: list[SubjectRef] = []
        for subject in self.vault.subjects("note:"):
            words = [w for w in subject.removeprefix("note:").split("-") if w != "project"]
            phrase = next(
                (
                    p
                    for p in _named_by(words)
                    if key.find(f" {p} ") >= 0
                    and (p == " ".join(words) or _as_name(p, text) or _lead_word(p, words, text))
                ),
                "",
            )
            words = phrase.split()
            if words:
                at = re.search(
                    r"(?<!\w)" + r"\W+".join(map(re.escape, words)) + r"(?!\w)", text, re.I
                )
                start, end = at.span() if at else (-1, -1)
                refs.append(SubjectRef(subject, NOTE, phrase, start, end, True, NOTE, phrase))
        return outermost(refs)

    def _coded_notes(self, text: str) -> list[SubjectRef]:
        """The one project whose notes give a compound code ``text`` names ("why did we
        kill KX-3?": the kinase project's), when no project is named; a code in the notes of
        several projects names none of them."""
        refs: list[SubjectRef] = []
        said = [(m.group(), m.group(), m.start(), m.end()) for m in _CODE.finditer(text)]
        for m in _BARE_NUMBER.finditer(text):
            # a compound by its number alone ("901 ec50?" of HLX-901), when no patient has it
            code = None if self._known(patient_id(m.group("n"))) else self._code_of(m.group("n"))
            if code is not None:
                said.append((code, m.group("n"), m.start(), m.end()))
        for code, mention, start, end in said:
            facts = [
                f
                for f in self.vault.search([code], limit=20)
                if f.subj.startswith("note:") and _CODE_WORD(code).search(f.evidence or "")
            ]
            subjects = {f.subj for f in facts}
            if len(subjects) > 1:
                # a code several notes give is the one of the project it is a value of
                subjects = {f.subj for f in facts if f.obj.lower() == code.lower()} or subjects
            if len(subjects) == 1:
                subject = subjects.pop()
                phrase = " ".join(w for w in subject.removeprefix("note:").split("-"))
                refs.append(SubjectRef(subject, NOTE, mention, start, end, True, NOTE, phrase))
                break
        return refs

    def code_of(self, number: str) -> str | None:
        """The compound code this user wrote that ``number`` is the number of ("HLX-311" of
        "311"), or None when it is none or a known patient's number."""
        if self._known(patient_id(number)):
            return None
        return self._code_of(number)

    def _code_of(self, number: str) -> str | None:
        """The compound code this user wrote that ``number`` is the number of ("HLX-311" of
        "311"), or None."""
        pattern = re.compile(rf"(?<![\w-])[A-Z]{{1,6}}-{re.escape(number)}(?![\w-])")
        for f in self.vault.search([f"-{number}"], limit=20):
            for said in (f.obj, f.evidence or ""):
                m = pattern.search(said)
                if m is not None:
                    return m.group()
        return None

    def entities(self, linked: list[LinkedEntity]) -> list[SubjectRef]:
        return [
            SubjectRef(e.id, e.kind, e.mention, e.start, e.end, True, "entity", e.name)
            for e in linked
        ]

    def mentioned(self, text: str) -> list[str]:
        """Ids of this user's known patients/notes named in ``text`` (for the router)."""
        refs = [r for r in self.patients(text) + self.notes(text) if r.known and r.id]
        return list(dict.fromkeys(r.id for r in refs))

    def _known(self, subject: str) -> bool:
        return self.vault.exists(subject)

    def introductions(self, text: str) -> list[tuple[str, str, str]]:
        """Name aliases introduced with an MRN ("Ada Moreno (MRN 4471)"), whatever is said."""
        out: list[tuple[str, str, str]] = []
        for name, mrn in find_intros(text):
            out += [(name, "name", patient_id(mrn)), (surname(name), "surname", patient_id(mrn))]
        out += [(alias, kind, patient_id(mrn)) for alias, kind, mrn in find_placed(text)]
        return list(dict.fromkeys(out))

    def learn(self, text: str, subject: str) -> list[tuple[str, str, str]]:
        """Note phrases of ``subject`` that ``text`` teaches: (alias, kind, subject) triples.

        Patient names are learned from every statement by ``introductions``."""
        out: list[tuple[str, str, str]] = []
        if subject.startswith("note:"):
            for n in find_notes(text):
                if n.slug == subject.removeprefix("note:") or not out:
                    out.append((phrase_key(n.phrase), NOTE, subject))
                    break
        return out


def _as_name(phrase: str, text: str) -> bool:
    """Whether ``text`` writes ``phrase``, a part of a note's name, as a name: words of
    several, one capitalised ("Kestrel" of "Kestrel screen"; "repurposing" of "repurposing
    shortlist" describes, it names no project) or one coded ("g12d" of "kras g12d"). Pure."""
    if " " in phrase or _CODED_WORD.fullmatch(phrase):
        return True
    return bool(re.search(rf"(?<!\w)(?-i:[A-Z])(?i:{re.escape(phrase[1:])})(?!\w)", text))


def _lead_word(phrase: str, words: list[str], text: str) -> bool:
    """Whether ``text`` names a note by ``phrase``, the first word of its name of several
    ("tau" of "tau degrader"), where a name stands: opening the text ("tau lead?", "tau: ..."),
    or after "the", "for", "on" or "of" ("the tau lead", "primary assay for tau?"). A word
    said anywhere else describes ("any repurposing news?"). Pure."""
    if len(words) < 2 or phrase != words[0] or len(phrase) < 3:
        return False
    at = rf"(?<!\w){re.escape(phrase)}(?!\w)"
    return bool(re.search(rf"^\W*{at}|\b(?:the|for|on|of)\s+{at}", text, re.IGNORECASE))


_CODED_WORD = re.compile(r"(?=.*\d)[a-z][a-z0-9]+", re.IGNORECASE)
"""A word of letters and digits, beginning with a letter ("g12d", "nlrp3"): a code names
what it names in any case, as a capitalised word does."""


def _named_by(words: list[str]) -> list[str]:
    """The phrases a note of ``words`` is named by without a determiner, longest first: all
    its words, or a run of them that holds one of its own (not a head such as "screen") of
    four letters or more, or two words ("Kestrel" of "kestrel screen", "cohort b" of "mouse
    cohort b"). Pure."""
    out = []
    for size in range(len(words), 0, -1):
        for at in range(len(words) - size + 1):
            run = words[at : at + size]
            own = [w for w in run if w not in HEADS]
            if size == len(words) or (own and (size >= 2 or len(own[0]) >= 4)):
                out.append(" ".join(run))
            elif size == 1 and at == 0 and own and len(own[0]) >= 3:
                # the first word of a name of several ("tau" of "tau degrader"), read as the
                # name only where a name stands (``_lead_word``)
                out.append(" ".join(run))
    return out
