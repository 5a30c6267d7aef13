"""Reading a clinician's clause against what is on record for the patient.

Clinicians clip the names of drugs they already gave ("carbi" for carbimazole, "spiro",
"vaso", "fludro"), stop a drug in a few words ("held his spironolactone", "vaso off",
"stopping PZA") and change a dose without naming the drug again ("cutting back to 400 mg").
What such a clause means depends on the patient's record, so it is read here, with the
patient's medications at hand; ``memory.service.UserMemory`` calls these when the statement
grammar (``memory.extract``) found no fact in a clause.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from engine.result import LinkedEntity
from memory.dosing import dose_changed_to
from memory.extract import Extracted
from memory.vault import Fact

TAKES = "takes"
_MIN_CLIP = 3
"""Letters a clipped name keeps at least ("vaso", "spiro"; not "me")."""
_WORD = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z-]*[A-Za-z](?![\w-])")
_INITIALS = re.compile(r"^[A-Z]{2,5}s?$")
"""A drug written by its initials or a class's ("PZA", "PPI", "NSAIDs")."""
_POINTS_BACK = re.compile(r"\b(?:it|that one|this one)\b", re.IGNORECASE)
"""Words of a clause that point back at the medication said before it."""
_OWNED = re.compile(r"\b(?:his|her|their|the|its)\s+$", re.IGNORECASE)


def clipped(word: str, drugs: Iterable[Fact]) -> Fact | None:
    """The patient's one medication whose name ``word`` is the beginning of ("carbi" of
    Carbimazole, "vaso" of Vasopressin); None when none or several are. Pure."""
    low = word.lower()
    if len(low) < _MIN_CLIP:
        return None
    hits: dict[str, Fact] = {}
    for f in drugs:
        written = (f.obj_name or "").replace(")", "").split(" (")  # "Insulin glargine (lantus)"
        names = {n.lower().strip() for n in (*written, f.obj) if n and "::" not in n}
        if any(n.startswith(low) and n != low for n in names):
            hits[f.obj] = f
    return next(iter(hits.values())) if len(hits) == 1 else None


def stopped_value(
    text: str,
    drugs: Sequence[Fact],
    linked: Sequence[LinkedEntity],
    taken: Sequence[tuple[int, int]],
) -> tuple[str, str, int, int] | None:
    """The medication a clause may stop: (id, name as written, start, end). A drug the linker
    found; else a word that clips a medication on record; else a drug written by initials or
    after "his/her/the" ("stopped his PPI"), kept as written; else, pointed back at ("holding
    it"), the medication said last. Whether the clause stops it is
    the meaning's to say (``memory.asks.AskScorer.stops``). Pure."""

    def free(a: int, b: int) -> bool:
        return not any(a < y and x < b for x, y in taken)

    for e in linked:
        if e.kind == "Compound" and e.start >= 0 and free(e.start, e.end):
            return e.id, e.name, e.start, e.end
    words = [m for m in _WORD.finditer(text) if free(m.start(), m.end())]
    for m in words:
        own = clipped(m.group(), drugs)
        if own is not None:
            return own.obj, own.obj_name or own.obj, m.start(), m.end()
    for m in words:
        if _INITIALS.match(m.group()) or _OWNED.search(text[: m.start()]):
            return m.group().lower(), m.group(), m.start(), m.end()
    back = _POINTS_BACK.search(text)
    current = [f for f in drugs if f.current]
    if back is not None and free(back.start(), back.end()) and current:
        # "holding it": the medication said last
        f = max(current, key=lambda f: (f.first_seen, f.id))
        return f.obj, f.obj_name or f.obj, back.start(), back.end()
    return None


def redosed_on_record(clause: str, subject: str, drugs: Sequence[Fact]) -> Extracted | None:
    """A clause that changes a dose without naming the drug ("cutting back to 400 mg") is
    about the patient's one current medication given with a dose, or, when it points back
    at one ("halved it to 500mg bd"), the one said last; None when there is no such change,
    the record holds none, or several and the clause does not point back. Pure."""
    dose = dose_changed_to(clause)
    dosed = [f for f in drugs if f.current and f.detail]
    if dose is None or not dosed:
        return None
    if len({f.obj for f in dosed}) > 1 and not _POINTS_BACK.search(clause):
        return None
    # "halved it to 500mg bd": "it" is the medication said last
    f = max(dosed, key=lambda f: (f.first_seen, f.id))
    return Extracted(subject, TAKES, f.obj, f.subj_name, f.obj_name, detail=dose.text)
