"""Literal values kept as strings: measurements ("HbA1c 7.5%", "IC50 18 nM") and allergens.

A measurement literal is copied verbatim from the text; its *key* (the measurement name,
"HbA1c", "CA 19-9") decides which older value it supersedes for key-functional relations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from functools import lru_cache

from engine.util.text import alias_key

_NUMBER = r"[-+<>≤≥~]?\d+(?:[.,]\d+)?(?:/\d+(?:[.,]\d+)?)?"
_UNIT = (
    r"(?:\s*%(?:\s+predicted)?"
    r"|\s?(?:x\s?10\^\d+/[A-Za-zµμ]+|cells/[A-Za-zµμ]+|[A-Za-zµμ]+/[A-Za-zµμ0-9^]+"
    r"|mmHg|kg|lbs?|[nuµμmp]M|mg|ng|pg|g|cm|mm|bpm|IU|U|mEq|ms|sec|h)(?![A-Za-z]))?"
)
_VALUE = re.compile(
    rf"(?<![\w#(/.\-])(?P<num>{_NUMBER})(?P<unit>{_UNIT})(?=[\s.,;:)!?]|$)"
    # a count of time ("3 days ago", "x3d"), a ratio ("1:10") or an age ("14yo") is no value
    r"(?!\s*(?:days?|weeks?|months?|years?|hours?|hrs?|mins?|minutes?|times|yo|y/o)\b|:\d)"
)
_KEY_TOKEN = re.compile(r"^(?:[A-Za-z][A-Za-z0-9]*(?:[-'/][A-Za-z0-9]+)*|\d+-\d+)$")
_STOP = frozenset(
    {
        "a",
        "an",
        "and",
        "bed",
        "day",
        "week",
        "cycle",
        "home",
        "bay",
        "room",
        "ward",
        "cubicle",
        "are",
        "as",
        "at",
        "back",
        "be",
        "by",
        "came",
        "come",
        "de",
        "for",
        "from",
        "gives",
        "give",
        "got",
        "had",
        "has",
        "have",
        "her",
        "his",
        "in",
        "is",
        "it",
        "its",
        "latest",
        "logged",
        "logging",
        "measured",
        "mrn",
        "my",
        "new",
        "now",
        "of",
        "on",
        "our",
        "patient",
        "pt",
        "readout",
        "recorded",
        "recording",
        "result",
        "results",
        "run",
        "rechecked",
        "reached",
        "showed",
        "shows",
        "reads",
        "read",
        "the",
        "their",
        "to",
        "today",
        "was",
        "were",
        "with",
        "previously",
        "replacing",
        "labs",
        "lab",
        "value",
        "values",
        "level",
        "levels",
        "reading",
        "number",
        "numbers",
        "updated",
        "revised",
        "repeat",
        "check",
        "follow-up",
        "followup",
        "first",
        "last",
        "current",
        "baseline",
        "initial",
        "this",
        "that",
        "type",
        "known",
        # a time said between a test and its value ("K this am 3.2") is no part of its name
        "am",
        "pm",
        "morning",
        "evening",
        "night",
        "tonight",
        "overnight",
        "yesterday",
        "dx",
        "put",
        "started",
        "start",
        "giving",
        "turns",
        "out",
        "switched",
        "initiated",
        "prescribed",
        "seeing",
        "admitted",
        "moved",
        "changed",
        "stopping",
    }
)


LEVEL_WORDS = frozenset({"level", "levels", "trough", "troughs"})
"""Words for a drug's measured concentration, said after the drug ("tac level", "gent
trough"): the drug's level is a test of its own."""


def level_key(key: str) -> str | None:
    """The drug a level's key names ("tac level" -> "tac"), or None for any other key."""
    words = key.split()
    if len(words) < 2 or words[-1].lower() not in LEVEL_WORDS:
        return None
    return " ".join(words[:-1])


_BRIDGE = re.compile(
    r"(?<=\w)(?::| =| (?:is |was |has )?(?:now |back |currently )?(?:came back at|came back|at|"
    r"of|now|is|was|reached|measured(?: at)?|(?:(?:went|is|was) )?(?:up|down)(?: again)? to|"
    r"(?:rose|fell|dropped|increased|decreased|improved|worsened|climbed|jumped) to)) $"
)
_MRN_BEFORE = re.compile(r"(?:\bMRN|\bpt\.?|\bpatient|#)\s*$", re.IGNORECASE)
_TITLES = re.compile(r"\b(?:Mr|Mrs|Ms|Dr|Miss|Mx|St|vs|al)\.")
"""Words between a measurement name and its value ("HbA1c is down to 6.2%")."""


@dataclass(frozen=True)
class Measurement:
    literal: str
    key: str
    start: int
    end: int


def find_measurements(text: str, known: Iterable[str] = ()) -> list[Measurement]:
    """Every "<name> <number>[unit]" span in ``text``, left to right.

    The literal is the verbatim span. When words separate name and value ("FEV1 came back at
    48% predicted", "FEV1 for Ms. Holloway now 52% predicted") the literal is "<name> <value>";
    such a name must look like a test name or be one of ``known`` (normalized with
    ``alias_key``).
    """
    known_keys = known if isinstance(known, set | frozenset) else set(known)
    found: list[Measurement] = []
    for m in _VALUE.finditer(text):
        value = text[m.start() : m.end()].strip()
        unitless = not m.group("unit").strip()
        when = _KNOWN_WHEN.search(text[: m.start()])
        if when is not None and alias_key(when.group("key")) in known_keys:
            # "K on admission 5.9", "crp this morning 182": the test is the known name, the
            # words after it when it was taken
            key = when.group("key")
            found.append(Measurement(f"{key} {value}", key, when.start("key"), m.end()))
            continue
        key_start = _key_start(text, m.start())
        if key_start is not None:
            key = text[key_start : m.start()].strip()
            if not unitless or _plausible_unitless(key, m.group("num")):
                found.append(
                    Measurement(text[key_start : m.end()].strip(), key, key_start, m.end())
                )
            continue
        if _MRN_BEFORE.search(text[: m.start()]):
            continue
        span = _separated_key(
            text, m.start(), known_keys, unitless and not any(c in m.group("num") for c in "./,")
        )
        if span is not None:
            key = text[span[0] : span[1]]
            found.append(Measurement(f"{key} {value}", key, span[0], m.end()))
    return found


_MOLAR = re.compile(
    r"(?<![\w#(/.\-])(?P<num>[<>~]?\d+(?:[.,]\d+)?)\s?(?P<unit>[nuµμp]M)(?![A-Za-z])"
)
POTENCY = "IC50"
"""What a compound's concentration said with no test's name is: the potency a project measures
("HLX-188 comes in at 9 nM", "the new batch reads 4 nM")."""


def bare_potencies(text: str) -> list[Measurement]:
    """Each molar concentration (nM, µM, pM) in ``text`` as the potency it states, read as
    "IC50 <value>". For a project's statement that names no test (a chemist's shorthand);
    a patient's values in molar units do not arise (their concentrations are per litre)."""
    return [
        Measurement(f"{POTENCY} {m.group(0).strip()}", POTENCY, m.start(), m.end())
        for m in _MOLAR.finditer(text)
    ]


_CHANGED = re.compile(
    r"\b(?:(?:up|down|back)(?: again)?|(?:has |have )?(?:risen|fallen|dropped|come down|gone up))"
    r"\s+to\s+(?P<value>\d+(?:[.,]\d+)?\s?(?P<unit>[A-Za-zµμ%][A-Za-zµμ/0-9]*))",
    re.IGNORECASE,
)


def continued_value(text: str, said: Sequence[str]) -> Measurement | None:
    """The value a statement that names no test moves a series to ("down to 48 mg/l this am"
    after "crp was 190 mg/l"): the test of the value said last in ``said`` (literals, the
    latest first) in the same unit. None when the statement says no move to an amount or no
    value was said in its unit."""
    m = _CHANGED.search(text)
    if m is None:
        return None
    unit = alias_key(m.group("unit"))
    for literal in said:
        found = find_measurements(literal)
        if not found or found[0].start != 0:
            continue
        key = found[0].key
        tail = literal[len(key) :]
        units = [alias_key(u) for u in re.findall(r"[A-Za-zµμ%][A-Za-zµμ/0-9]*", tail)]
        if units[:1] == [unit]:
            value = m.group("value")
            return Measurement(f"{key} {value}", key, m.start("value"), m.end("value"))
    return None


_KNOWN_WHEN = re.compile(
    r"(?<![\w-])(?P<key>[A-Za-z][\w-]*)\s+(?:(?:on|at)\s+[a-z]+|this\s+(?:morning|am|afternoon|"
    r"evening|pm)|today|yesterday|overnight|tonight|last\s+night|still|again)\s+$",
    re.IGNORECASE,
)
"""A test's name, then when it was taken ("K on admission", "crp this morning", "hr still")."""


def _separated_key(
    text: str, value_start: int, known: Set[str], bare: bool
) -> tuple[int, int] | None:
    """A test name separated from its value by linking words or by the rest of the clause
    (the latter only for values with a unit or decimals, never a bare integer)."""
    bridge = _BRIDGE.search(text[:value_start])
    if bridge is not None:
        start = _key_start(text, bridge.start() + 1)
        if start is not None:
            key = text[start : bridge.start()].strip()
            if (
                any(_testlike(t) for t in key.split())
                or alias_key(key) in known
                or level_key(key) is not None
            ):
                return start, start + len(key)
            # "patel crp down to 95": the words before a known test name whose it is
            for word in re.finditer(r"\S+", key):
                tail = key[word.start() :]
                if word.start() and alias_key(tail) in known:
                    return start + word.start(), start + len(key)
    if bare:
        return None
    plain = _TITLES.sub(lambda t: t.group(0).replace(".", "_"), text)
    clause_start = max(plain.rfind(c, 0, value_start) for c in ".;!?") + 1
    clause = text[clause_start:value_start]
    best: tuple[int, int] | None = None
    for key in known:
        for hit in re.finditer(rf"(?<![\w-]){_loose(key)}(?![\w-])", clause, re.IGNORECASE):
            span = (clause_start + hit.start(), clause_start + hit.end())
            if best is None or span[0] > best[0]:
                best = span
    return best


def _loose(key: str) -> str:
    """A regex for a normalized key that tolerates the spaces, hyphens and slashes it folded
    ("t1/2")."""
    return r"[\s/-]*".join(re.escape(part) for part in key.split())


def _key_start(text: str, value_start: int) -> int | None:
    """Where the measurement name before ``value_start`` begins (None when there is none)."""
    head = text[:value_start]
    if not head.endswith(" "):
        return None
    start: int | None = None
    level = False
    for taken, m in enumerate(reversed(list(re.finditer(r"\S+", head)))):
        token = m.group(0)
        if taken == 0 and token.lower() in LEVEL_WORDS:
            level = True  # "tac level 11.8": the level of what the word before names
            continue
        if (
            taken >= 4
            or not _KEY_TOKEN.match(token)
            or token.lower() in _STOP
            or token.lower().endswith("'s")
        ):
            break
        start = m.start()
    if level and start is None:
        return None  # "level 6.1" names no drug of its own
    return start


def _plausible_unitless(key: str, number: str) -> bool:
    """A unitless value is a measurement when its name looks like a score/test name (EDSS,
    IC50, T-score) or the value is small/decimal; "patient 5948" or "treating 1812" is not."""
    if any(_testlike(tok) for tok in key.split()):
        return True
    digits = number.lstrip("-+<>≤≥~")
    return "." in digits or "," in digits or "/" in digits or len(digits) <= 3


def _testlike(token: str) -> bool:
    return (
        any(c.isdigit() for c in token)
        or sum(c.isupper() for c in token) >= 2
        or (token[:1].isupper() and "-" in token)
    )


def measurement_key(literal: str) -> str | None:
    """The normalized key of a measurement literal ("CA 19-9 449 U/mL" -> "ca 19 9")."""
    found = find_measurements(literal)
    if not found or found[0].start != 0:
        return None
    return alias_key(found[0].key)


def headed_key(text: str, keys: Iterable[str]) -> str | None:
    """The one key of ``keys`` whose last word a word of ``text`` is ("pcr" of "urine pcr",
    "ldl" of "fasting ldl"): a test asked by its head noun, its qualifiers left out."""
    words = {alias_key(w) for w in re.findall(r"[A-Za-z][\w-]*", text)} - _STOP
    hits = {k for k in keys if len(k.split()) > 1 and k.split()[-1] in words}
    return hits.pop() if len(hits) == 1 else None


def mentioned_keys(text: str, keys: Iterable[str], synonyms: Mapping[str, str]) -> list[str]:
    """Normalized keys (from ``keys`` or via ``synonyms``) that ``text`` names, longest first."""
    norm = f" {alias_key(text)} "
    out: list[str] = []
    candidates = _spoken(tuple(keys), tuple(synonyms.items()))
    for spoken in candidates:
        if spoken and f" {spoken} " in norm and candidates[spoken] not in out:
            if _modifies_a_medicine(norm, spoken):
                continue
            out.append(candidates[spoken])
            norm = norm.replace(f" {spoken} ", " | ")
    return out


MEDICINE_HEADS = frozenset(
    "blocker blockers binder binders inhibitor inhibitors supplement supplements "
    "antagonist antagonists agonist agonists replacement tablet tablets".split()
)
"""Head nouns of a medicine named by what it acts on ("calcium channel blocker", "phosphate
binder", "potassium supplement")."""
HEAD_REACH = 2
"""Words after a test's name within which such a head makes it a medicine's modifier."""


def _modifies_a_medicine(norm: str, spoken: str) -> bool:
    """Every place ``spoken`` (a test's name) stands in ``norm`` is the modifier of a
    medicine's head noun a word or two after it: "what calcium channel blocker is he on"
    names no calcium level."""
    after = [part.split()[:HEAD_REACH] for part in norm.split(f" {spoken} ")[1:]]
    return bool(after) and all(any(w in MEDICINE_HEADS for w in words) for words in after)


@lru_cache(maxsize=256)
def _spoken(keys: tuple[str, ...], synonyms: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """Spoken form -> normalized key, longest spoken form first (worked out once per list)."""
    candidates = {alias_key(k): alias_key(k) for k in keys}
    candidates.update({alias_key(s): alias_key(k) for s, k in synonyms})
    return {k: candidates[k] for k in sorted(candidates, key=len, reverse=True)}


_ALLERGEN = [
    r"\ballergic to (?P<x>[^.,;:!?()]+)",
    r"\ballerg(?:y|ies) to (?P<x>[^.,;:!?()]+)",
    r"\breaction to (?P<x>[^.,;:!?()]+)",
    r"\badd (?P<x>[^.,;:!?()]+?) to (?:[^.]*?)allerg",
    r"\bflag (?:an? )?(?P<x>[^.,;:!?()]+?) allerg",
    r"\ballerg(?:y|ies)(?: noted| recorded| documented)?(?: for [^:]+)?:\s*(?P<x>[^.,;!?()]+)",
    r"(?P<x>\b(?!"
    + "|".join(
        (
            "documented",
            "known",
            "noted",
            "recorded",
            "confirmed",
            "reported",
            "severe",
            "mild",
            "new",
            "possible",
            "suspected",
            "no",
            "any",
            "an",
            "the",
        )
    )
    + r")\b[a-z][a-z -]{1,40}?) allergy\b",
]
"""The last: "<allergen> allergy", where the word before "allergy" is no kind of allergy
record ("documented allergy" names no allergen)."""
_ALLERGEN_RE = [re.compile(p, re.IGNORECASE) for p in _ALLERGEN]
_TRAIL = re.compile(
    r"\s+(?:in the past|before|previously|documented|noted|recorded|today)\b.*$"
    # a dash between spaces begins what the allergen does ("pen - rash")
    r"|\s+[-–—]\s.*$",
    re.IGNORECASE,
)


def find_allergen(text: str) -> tuple[str, int, int] | None:
    """The allergen phrase of an allergy statement, verbatim, with its span."""
    for pattern in _ALLERGEN_RE:
        m = pattern.search(text)
        if not m:
            continue
        raw = m.group("x")
        cut = _TRAIL.search(raw)
        value = raw[: cut.start()] if cut else raw
        lead = re.match(r"\s*(?:(?:a|an|the|their|his|her|known)\s+)*", value, re.IGNORECASE)
        offset = lead.end() if lead else 0
        value = value[offset:].rstrip()
        if value:
            start = m.start("x") + offset
            return value, start, start + len(value)
    return None


_NOT_AN_ALLERGEN = re.compile(
    r"\b(?:it|this|that|them|documenting|documented|recording|recorded|noting|noted|as)\b", re.I
)


def allergen_named(phrase: str) -> bool:
    """Whether an allergen phrase names a thing rather than pointing back at one ("we're
    documenting it as an" names none)."""
    return _NOT_AN_ALLERGEN.search(phrase) is None
