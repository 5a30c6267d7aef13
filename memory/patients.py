"""Patient references in free text: MRNs, "Name (MRN n)" introductions, names and titles.

Patients are stored as ``patient:<MRN>``. Names are per-user aliases learned from statements
that give both a name and an MRN; a later "Victor Costa" or "Mr. Costa" resolves through the
user's alias table (see ``memory.vault``), never through anyone else's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.understand.lexicon import FUNCTION_WORDS
from memory.dosing import DOSE_UNIT
from memory.literals import find_measurements

_UP = "A-ZÀ-ÖØ-Þ"
_LOW = "a-zß-öø-ÿ"
_WORD = rf"[{_UP}](?:'[{_UP}])?[{_LOW}]+(?:[{_UP}][{_LOW}]+)?(?:-[{_UP}]?[{_LOW}]+)?(?![{_LOW}])"
_INITIALS = rf"(?<![\w.])[{_UP}]\.\s?[{_UP}]\.(?:\s?[{_UP}]\.)?(?!\w)"
"""A patient named by initials, as clinicians write them ("J.M.", "A. R.")."""
NAME = rf"(?P<name>{_WORD} (?:[{_UP}]\. )?{_WORD}|{_INITIALS})"
_INITIAL = re.compile(rf" [{_UP}]\. ")
TITLE = rf"\b(?P<title>Mr|Mrs|Ms|Miss|Mx)\.? (?P<surname>{_WORD})"
_PREFIX = r"(?:MRN[:#]?\s*|pt\.?\s+|patient\s+|#)"
_MRN_DIGITS = r"(?P<mrn>\d{3,10})"

_STRONG = re.compile(
    rf"(?<![\w#])(?:(?i:MRN)\s*[:#]?\s*|(?i:pt)\.?\s*#?\s*|(?i:patient)\s*#?\s*|#"
    rf"|(?i:medical record (?:number|no\.?))\s*:?\s*|(?i:patient id)\s*:?\s*)"
    rf"{_MRN_DIGITS}(?:\b|(?=s\b))"  # "MRN 2179s med": a possessive typed without "'"
)
_BARE = re.compile(r"(?<![\w#.,/\-^])(?P<mrn>\d{4,10})(?![\w%/^]|[.,]\d)")
_MEASURE = (
    r"(?:am|pm|hrs?|h|bpm|mmhg|kg|lbs?|cm|mm|[munpµ]?mol\S*|[munpµ]?g/\S+|iu|u/l|secs?|ms|breaths)"
)
"""Units of a measured value a short number may open a sentence with ("150 bpm")."""
_LEADING = re.compile(
    r"(?:^|(?<=[.;:!?])\s+|(?<=[.;:!?])|(?<=\bfor ))\s*(?P<mrn>\d{3})"
    r"(?=(?:'s|’s)?\s*[:\-–]?\s*[A-Za-z]|\s*[?.!]?\s*$)"
    rf"(?!\s*(?:{DOSE_UNIT}|{_MEASURE}|days?|weeks?|months?|years?|hours?|mins?|times|x)\b)"
)
"""A short number as the subject a sentence opens with ("615 ckd stage 4, ...", "615's K"),
or as whom something is for ("bloods for 882 - hb 84"): what follows is words or nothing, not
a unit (a measurement's number is taken out before)."""
_INTROS = [
    re.compile(rf"{NAME},? \({_PREFIX}?{_MRN_DIGITS}\)", re.UNICODE),
    re.compile(rf"{NAME}, {_PREFIX}?{_MRN_DIGITS}\b", re.UNICODE),
    re.compile(rf"{_PREFIX}?{_MRN_DIGITS} \({NAME}\)", re.UNICODE),
    re.compile(rf"{NAME}\s+{_PREFIX}{_MRN_DIGITS}\b", re.UNICODE),  # "A.R. MRN 47119"
]
_NAME_RE = re.compile(NAME)
_TITLE_RE = re.compile(TITLE)
# Capitalised words that start sentences or name things other than people.
_NOT_FIRST_NAMES = frozenset(
    {
        "Started",
        "Put",
        "Switched",
        "Prescribed",
        "Initiated",
        "Replacing",
        "Stopping",
        "Seeing",
        "Picked",
        "Referral",
        "New",
        "Patient",
        "Record",
        "Note",
        "Add",
        "Please",
        "Allergy",
        "Side",
        "Adverse",
        "Med",
        "Latest",
        "Updated",
        "Repeat",
        "Results",
        "Got",
        "Recording",
        "Changed",
        "Admitted",
        "Lead",
        "Our",
        "The",
        "My",
        "What",
        "Which",
        "Who",
        "Remind",
        "Current",
        "Before",
        "Initially",
        "Most",
        "Where",
        "Is",
        "Was",
        "Did",
        "Per",
        "In",
        "For",
        "Top",
        "Target",
        "Primary",
        "Set",
        "Dropping",
        "Logging",
        "Revised",
        "Result",
        "Comorbidity",
        "Turns",
        "Interesting",
        "Yesterday",
        "Transcriptomics",
        "Elevated",
        "Worth",
        "Adding",
    }
)


@dataclass(frozen=True)
class MrnMention:
    mrn: str
    start: int
    end: int
    strong: bool


@dataclass(frozen=True)
class NameMention:
    name: str
    start: int
    end: int
    title: bool = False


def find_mrns(text: str) -> list[MrnMention]:
    """MRN mentions: prefixed ("MRN 4471", "pt 5170", "#6328") first, then bare numbers that
    are not part of a measurement ("CA 19-9 2091 U/mL")."""
    found = [MrnMention(m.group("mrn"), m.start(), m.end(), True) for m in _STRONG.finditer(text)]
    taken = [(f.start, f.end) for f in found]
    taken += [(m.start, m.end) for m in find_measurements(text)]
    bare = [*_BARE.finditer(text), *_LEADING.finditer(text)]
    for m in sorted(bare, key=lambda m: m.start("mrn")):
        if any(a <= m.start("mrn") < b for a, b in taken):
            continue
        # a number with a possessive is someone's ("55210's lithium level")
        owned = text[m.end("mrn") : m.end("mrn") + 2] in ("'s", "’s")
        found.append(MrnMention(m.group("mrn"), m.start("mrn"), m.end("mrn"), owned))
        taken.append((m.start("mrn"), m.end("mrn")))
    return sorted(found, key=lambda f: (not f.strong, f.start))


_YEAR = re.compile(r"(?:19[5-9]\d|20[0-3]\d)")
_WORD_BEFORE = re.compile(r"([A-Za-z]+)\W{0,2}$")
_TIME_WORDS = frozenset(
    {"in", "since", "from", "until", "till", "by", "during", "circa", "early", "late"}
)


def said_as_year(text: str, mention: MrnMention) -> bool:
    """A bare four-digit number of the years around now, said after a word of its own that is
    no function word ("renal tx 2019", "anaphylaxis 2021", "gi bleed 2022") or after a word of
    time ("since 2019"): when something happened, not who it happened to. A number after "for",
    "is", "of" ("inr for 2045", "why is 2045 ...") or opening its sentence stays a patient."""
    if mention.strong or not _YEAR.fullmatch(mention.mrn):
        return False
    before = _WORD_BEFORE.search(text[max(0, mention.start - 40) : mention.start])
    if before is None:
        return False
    word = before.group(1).lower()
    return word in _TIME_WORDS or (word not in FUNCTION_WORDS and len(word) > 1)


def find_intros(text: str) -> list[tuple[str, str]]:
    """(name, MRN) pairs introduced together: "Ada Moreno (MRN 4471)", "MRN 9280 (Ivan
    Fischer)", "Ravi Murphy, MRN 5507"."""
    pairs: list[tuple[str, str]] = []
    for pattern in _INTROS:
        for m in pattern.finditer(text):
            name = _strip_leading_verb(_INITIAL.sub(" ", m.group("name")))
            if name and (name, m.group("mrn")) not in pairs:
                pairs.append((name, m.group("mrn")))
    return pairs


_ANY_TITLE = re.compile(
    rf"(?<![\w.])(?i:mr|mrs|ms|miss|mx)\.?\s+(?P<surname>[{_UP}{_LOW}][{_LOW}]+(?:-[{_UP}{_LOW}][{_LOW}]+)?)"
    rf"(?![\w-])"
)
"""A patient's title and surname in any case, as clinicians type on a ward ("mrs lee")."""
BED = re.compile(
    r"(?<![\w-])(?i:bed|bay|side room|cubicle)\s*#?\s*(?P<bed>\d{1,3}[a-zA-Z]?)(?![\w.-])"
)
"""Where a patient lies ("bed 4", "bay 3"): what a ward calls them by."""
_PLACE_REACH = 48
"""How far (characters) a title or a bed may stand from the record number it goes with."""


def bed_key(number: str) -> str:
    """The alias under which a bed is kept ("bed 4")."""
    return f"bed {number.lower()}"


_THEN_SURNAME = re.compile(
    r"^\s+(?P<surname>[A-Za-z][a-z'-]{2,})(?=\s*[,(]|\s+(?i:mrn|pt)\b|\s+#?\d)"
)
"""After a title and a first name, the surname the record number or a comma follows ("mrs ada
moreno, mrn 4471")."""
_NOT_SURNAMES = frozenset(
    {"bed", "bay", "room", "cubicle", "ward", "side", "mrn", "pt", "patient", "nhs", "hospital"}
    | {"today", "yesterday", "tonight", "now", "again", "also", "still", "admitted", "seen", "saw"}
)
"""Words after a title's surname that are no second name: where or when, a record's word."""


def _full_surname(text: str, m: re.Match[str]) -> tuple[str, str, int, int]:
    """The surname of a title's mention: the word after it, or, when a first name comes
    between, the word after that one. Pure."""
    after = _THEN_SURNAME.match(text[m.end() :])
    word = after.group("surname").lower() if after is not None else ""
    if after is not None and word not in _NOT_SURNAMES and word not in FUNCTION_WORDS:
        return after.group("surname"), "surname", m.start(), m.end() + after.end()
    return m.group("surname"), "surname", m.start(), m.end()


def find_placed(text: str) -> list[tuple[str, str, str]]:
    """(alias, kind, MRN) for each title-and-surname ("mrs lee", kind ``surname``) and each bed
    ("bed 4", kind ``bed``) written beside a record number in ``text`` ("bed 4 is mrs lee, mrn
    2231", "mr byrne, 9071"): the number nearest it within ``_PLACE_REACH`` characters, the
    patient that surname or bed stands for from then on. Pure."""
    mrns = find_mrns(text)
    out: list[tuple[str, str, str]] = []
    mentions = [_full_surname(text, m) for m in _ANY_TITLE.finditer(text)]
    mentions += [(bed_key(m.group("bed")), "bed", m.start(), m.end()) for m in BED.finditer(text)]
    for alias, kind, start, end in mentions:
        near = [
            (max(m.start - end, start - m.end), m.mrn)
            for m in mrns
            if not (m.start < end and start < m.end)
        ]
        near = [(d, mrn) for d, mrn in near if d <= _PLACE_REACH]
        if near:
            out.append((alias.lower(), kind, min(near)[1]))
    return out


def find_names(text: str) -> list[NameMention]:
    """Person-like mentions: "First Last" pairs and "Mr./Ms. Surname" titles."""
    out: list[NameMention] = []
    for m in _TITLE_RE.finditer(text):
        out.append(
            NameMention(f"{m.group('title')}. {m.group('surname')}", m.start(), m.end(), title=True)
        )
    for m in re.finditer(rf"(?=({NAME}))", text):
        raw = m.group("name")
        name = _INITIAL.sub(" ", raw)
        start = m.start()
        first = name.split(" ", 1)[0]
        end = start + len(raw)
        if first in _NOT_FIRST_NAMES or any(start < o.end and o.start < end for o in out):
            continue
        out.append(NameMention(name, start, end))
    return sorted(out, key=lambda n: n.start)


def surname(name: str) -> str:
    return name.rsplit(" ", 1)[-1]


def _strip_leading_verb(name: str) -> str | None:
    first = name.split(" ", 1)[0]
    return None if first in _NOT_FIRST_NAMES else name


PERSON = re.compile(
    r"\b(?:she|he|her|him|his|hers|(?:my|our|the|this|that) (?:patient|pt))\b", re.IGNORECASE
)
"""Words that stand for the patient of the conversation when a text names none ("her
potassium", "my patient")."""


def person_reference(text: str) -> tuple[int, int] | None:
    """The span of the first word in ``text`` that stands for a person, or None."""
    m = PERSON.search(text)
    return m.span() if m else None
