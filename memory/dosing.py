"""How a medication is given, as a clinician writes it after the drug: "apixaban 5 mg twice
daily", "metformin 1000 mg orally twice a day", "insulin glargine 20 units at bedtime".

A dose is an amount with a dosing unit, a route and a frequency, each optional but at least one
of amount and frequency present. It is read by its grammar (a number, then a unit of dosing,
then route and frequency words), never from a list of drugs: the drug is whatever the linker
found just before it. The phrase is kept verbatim, so what the user wrote is what is shown.
Units of dosing (mg, mcg, units, puffs) are told apart from a laboratory's units (mmol/L,
%, g/dL) so a dose is never read as a lab value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NUMBER = r"\d+(?:[.,]\d+)?(?:\s*(?:-|–|to)\s*\d+(?:[.,]\d+)?)?"
_UNIT = (
    r"(?:mg|mcg|µg|μg|ug|g|grams?|milligrams?|micrograms?|mL|ml|millilit(?:er|re)s?|"
    r"units?|IU|U|mmol|mEq|puffs?|tablets?|tabs?|capsules?|caps?|drops?|sprays?|patch(?:es)?|"
    r"sachets?|vials?|ampoules?|amps?)"
    r"(?:\s*/\s*(?:kg|h|hr|hour|min|minute|day|d|dose|m2))*"
)
DOSE_UNIT = _UNIT
"""A dose's unit ("mg", "mcg/kg/min", "puffs"), as a pattern."""
_ROUTE = (
    r"(?:orally|by mouth|p\.?o\.?|iv|i\.v\.|intravenously|intravenous|sc|sq|s\.c\.|subcut|"
    r"subcutaneously|subcutaneous|im|intramuscularly|intramuscular|inhaled|by inhaler|"
    r"topically|topical|sublingually|sublingual|sl|pr|rectally|transdermally|transdermal|"
    r"nasally|intranasally|via (?:ng|peg) tube|nebs?|nebulised|nebulized|via nebuli[sz]er)"
)
_TIMES = r"(?:once|twice|thrice|three times|four times|[2-6] times|[2-6]x)"
_FREQUENCY = (
    rf"(?:{_TIMES}\s+(?:a\s+|per\s+|each\s+)?(?:day|daily|week|weekly|month|monthly)"
    r"|every\s+(?:other\s+)?(?:\d+(?:\s*(?:-|to)\s*\d+)?\s+)?(?:hours?|hrs?|days?|weeks?|"
    r"morning|evening|night|day|week|month)"
    r"|q\s?\d+\s?[hdw]|q\.?d\.?|b\.?i\.?d\.?|t\.?i\.?d\.?|q\.?i\.?d\.?|q\.?h\.?s\.?|o\.?d\.?|b\.?d\.?"
    r"|t\.?d\.?s\.?|q\.?d\.?s\.?|nocte|mane|o\.?m\.?|stat"
    r"|every\s+\d+\s+months?|\d+(?:\s*-\s*\d+)?[- ]?(?:hourly|hrly)"
    r"|daily|nightly|weekly|monthly|hourly|at bedtime|at night|in the (?:morning|evening)"
    r"|with (?:meals|breakfast|dinner)|as needed|prn|p\.r\.n\.)"
)
_SPLIT = r"\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?)+"
"""The parts of a combined or divided dose ("24/26", "25/100", "10/5/5")."""
_RELEASE = r"(?:MR|SR|XL|ER|CR|LA|XR|modified release|slow release)"
"""A formulation written between the amount and the frequency ("100 mg MR bd")."""
_DURATION = (
    r"(?:x\s?\d+\s?(?:d|days?|w|wks?|weeks?)|(?:for\s+)?\d+\s+(?:days?|weeks?|months?)"
    r"|for\s+(?:a|one|two|three|five|seven|ten|fourteen)\s+(?:days?|weeks?|months?))"
)
"""How long a course runs ("x5 days", "for 7 days", "3 days")."""
_ON = r"on(?=\s*(?:[.,;)]|$|for\b))"
""""on" after an amount that ends its clause: omni nocte, at night ("atorvastatin 20mg on")."""
_UNITLESS = rf"{_NUMBER}(?=(?:\s+{_RELEASE})?(?:\s+{_ROUTE})?\s+(?:{_FREQUENCY})(?!\w))"
"""An amount written with no unit, which the frequency after it makes a dose ("ramipril
2.5 bd", "lasix 40 od"): a lab's value is never followed by how often it is given."""
_PHRASE = re.compile(
    rf"(?P<amount>(?:{_NUMBER}\s*{_UNIT}|{_SPLIT}(?:\s*{_UNIT})?(?=\s+(?:{_FREQUENCY})(?!\w))"
    rf"|{_SPLIT}\s*{_UNIT}|{_UNITLESS})(?![\w/]))?"
    rf"(?P<release>(?(amount)\s+{_RELEASE}(?!\w)))?"
    rf"(?P<route>(?(amount)\s+|){_ROUTE}(?!\w))?"
    rf"(?P<freq>(?(amount)\s+|(?(route)\s+|))(?:divided\s+)?{_FREQUENCY}(?!\w)"
    rf"|(?(amount)\s+{_ON}|(?!)))?"
    rf"(?P<freq2>\s+{_FREQUENCY}(?!\w))?"
    rf"(?P<duration>(?(amount)\s+{_DURATION}(?!\w)|(?(freq)\s+{_DURATION}(?!\w))))?",
    re.IGNORECASE,
)
_GIVEN = r"(?:\s+(?:added|started|restarted|commenced|given|prescribed|charted))?"
"""A verb of giving, said of the drug before its dose ("gent added, 5mg/kg od")."""
_LEAD = re.compile(
    rf"^(?:\s+\([^()\d]{{1,30}}\))?(?:\s+(?i:{_RELEASE})(?=\s+\d))?{_GIVEN}(?:\s*,)?\s+"
    r"(?:(?:(?:on|for)\s+\d{3,}\s+)?(?:[a-z]+\s+){0,2}?(?:at|to|now)\s+(?=\d)|(?:stays?|remains?|continues?|kept)(?:\s+on)?\s+(?=\d))?"
)
"""What may stand between a drug and its dose: its brand in brackets ("methylphenidate
(ritalin) 10 mg mane"), a verb of giving, spaces, one comma, or a few words of change
ending in "at", "to" or "now" before a number, after the patient's number they may name
("reducing zopiclone to 3.75 mg", "levo went up to 88 mcg", "bisoprolol on 66310 increased
to 5mg od", "lamotrigine now 50 mg od": the dose it now holds), or a verb of keeping it
("warfarin stays 5mg daily")."""
_TO = re.compile(r"\b(?:up |down )?to\s+(?=\d)", re.IGNORECASE)
_BEFORE = re.compile(rf"(?P<amount>{_NUMBER}\s*{_UNIT})\s+(?:of\s+)?$", re.IGNORECASE)
"""A dose written before the drug ("20 units of insulin glargine")."""


@dataclass(frozen=True)
class Dose:
    """A dose phrase and where it stands in the statement."""

    text: str
    """Verbatim: "5 mg twice daily"."""
    start: int
    end: int
    amount: str | None
    """"5 mg" (the number and its unit), when one is written."""


def dose_after(text: str, end: int) -> Dose | None:
    """The dose written right after a drug mention ending at ``end``, or None."""
    lead = _LEAD.match(text[end:])
    if lead is None:
        return None
    start = end + lead.end()
    m = _PHRASE.match(text, start)
    if m is None or not (m.group("amount") or m.group("freq")):
        return None
    phrase = m.group(0)
    later = (
        _then_dose(text, start + len(phrase)) if _STAT.fullmatch(m.group("freq") or "") else None
    )
    if later is not None:
        return later  # "doxy 200mg stat then 100mg od": the dose it goes on at
    return Dose(phrase, start, start + len(phrase), m.group("amount"))


_STAT = re.compile(r"\s*stat", re.IGNORECASE)
_THEN = re.compile(r"\s*,?\s*(?:and\s+)?then\s+", re.IGNORECASE)


def _then_dose(text: str, end: int) -> Dose | None:
    """The dose said after "then" at ``end``, with its amount: a course after a first dose."""
    then = _THEN.match(text, end)
    m = _PHRASE.match(text, then.end()) if then else None
    if then is None or m is None or not m.group("amount"):
        return None
    return Dose(m.group(0), then.end(), then.end() + len(m.group(0)), m.group("amount"))


def dose_before(text: str, start: int) -> Dose | None:
    """The amount written right before a drug mention starting at ``start`` ("20 units of")."""
    m = _BEFORE.search(text[:start])
    if m is None:
        return None
    return Dose(m.group("amount"), m.start(), m.start() + len(m.group("amount")), m.group("amount"))


def dose_of(text: str, start: int, end: int) -> Dose | None:
    """The dose of the drug mentioned at ``text[start:end]``: after it, else before it (the
    amount before and the frequency after are joined: "20 units of glargine at bedtime")."""
    after = dose_after(text, end)
    before = dose_before(text, start)
    if before is None:
        return after
    if after is None:
        return before
    if after.amount:
        return after
    return Dose(f"{before.text} {after.text}", before.start, after.end, before.amount)


def dose_changed_to(text: str) -> Dose | None:
    """The dose a change names without its drug ("going up to 100 mg from today", "down to
    16 units"): the first dose with an amount after "to"; None when there is none."""
    for m in _TO.finditer(text):
        dose = _PHRASE.match(text, m.end())
        if dose is not None and dose.group("amount"):
            phrase = dose.group(0)
            return Dose(phrase, m.end(), m.end() + len(phrase), dose.group("amount"))
    return None


_AMOUNT = re.compile(rf"(?<![\w.])(?:{_NUMBER}\s*{_UNIT}|{_UNITLESS})(?![\w/])", re.IGNORECASE)


def amount_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` writes an amount of a drug ("100 mg", "0.1 units/kg/hr"), whatever
    stands before it: its unit is never the name of a thing ("mg")."""
    return [m.span() for m in _AMOUNT.finditer(text)]


_AMOUNT_ONLY = re.compile(rf"^\s*{_NUMBER}\s*{_UNIT}\s*$", re.IGNORECASE)
_FREQUENCY_SAID = re.compile(rf"(?<!\w)(?:{_FREQUENCY})(?!\w)", re.IGNORECASE)


def kept_frequency(new: str, old: str | None) -> str:
    """A dose changed by its amount alone keeps how often the dose it changes was given
    ("upping to 6mg" of warfarin "5mg od" -> "6mg od"); ``new`` as it is otherwise. Pure."""
    if not old or _AMOUNT_ONLY.match(new) is None:
        return new
    said = [m.group() for m in _FREQUENCY_SAID.finditer(old)]
    return f"{new.strip()} {said[-1]}" if said else new


_INSTRUCTION = re.compile(r"^\s*with\s+(?:meals|breakfast|dinner)\s*$", re.IGNORECASE)


def regimen(detail: str) -> tuple[str, str | None]:
    """A stated dose split into how much and how often it is given ("40mg od") and what is said
    besides (how long the course runs, "x5d"; how it is taken, "with meals"), each as
    written; ``(detail, None)`` when the detail reads as no dose. Pure."""
    m = _PHRASE.match(detail)
    if m is None or not m.group("amount"):
        return detail, None
    core = [m.group(g) for g in ("amount", "release", "route", "freq") if m.group(g)]
    rest = [m.group("duration") or ""]
    freq2 = m.group("freq2") or ""
    (rest if _INSTRUCTION.match(freq2) else core).append(freq2)
    rest.append(detail[m.end() :])
    said = " ".join(" ".join(r.split()) for r in rest if r.strip())
    return " ".join("".join(core).split()), said or None
