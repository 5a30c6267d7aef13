"""A harm given as the reason a drug was switched or stopped: "swapped ramipril for losartan
- dry cough", "off amlodipine onto lercanidipine because of the oedema". The harm is what the
drug taken off did to the patient (a side effect of it), not a condition of its own. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from engine.result import LinkedEntity
from memory.extract import Extracted

SIDE_EFFECT = "had_side_effect"
_HARM_IDS = ("Side Effect::", "Symptom::")
_FELT = frozenset({"diagnosed_with", "reports_symptom", SIDE_EFFECT})
_REASON = re.compile(
    r"(?:\bbecause of|\bdue to|\bowing to|\bsecondary to|\bafter|\bgiven|\s[-–—]|\()\s*"
    r"(?:(?:the|his|her|their|a|an|some|new|bad|worsening|persistent)\s+)*$",
    re.IGNORECASE,
)
"""What comes before the reason of a change: "because of the", " - ", "due to"."""


_CHANGED = re.compile(
    r"\b(?:cut|reduc\w*|lower\w*|decreas\w*|halv\w*|dropp?\w*|increas\w*|upp\w*|rais\w*|"
    r"doubl\w*|titrat\w*|wean\w*|tapered)\b",
    re.IGNORECASE,
)
"""A verb that changes a drug's dose ("cut to 40mg bd", "halved")."""


def _after_reason(sentence: str, start: int) -> bool:
    return start > 0 and _REASON.search(sentence[:start]) is not None


def switch_reasons(
    sentence: str,
    pieces: Sequence[tuple[str, Extracted]],
    harms: Sequence[LinkedEntity],
    name_of: Callable[[str], str | None],
) -> list[tuple[str, Extracted]]:
    """``pieces`` (the facts of ``sentence``) with a harm said as the reason of its one
    switch or stop of a drug made that drug's side effect; a harm of ``harms`` (linked in the
    sentence) said so and read as no fact is added as one."""
    stopped = [f for _, f in pieces if f.rel == "takes" and (f.supersedes or f.ends)]
    if not stopped:
        # "gliclazide cut to 40mg bd - hypos": the drug whose dose its clause changes
        stopped = [
            f for part, f in pieces if f.rel == "takes" and f.detail and _CHANGED.search(part)
        ]
    old = {f.supersedes[2] if f.supersedes else f.obj for f in stopped}
    if len(old) != 1:
        return list(pieces)
    drug = old.pop()
    subject = stopped[0].subj
    cause = f"from {name_of(drug) or drug}"
    low = sentence.lower()
    out: list[tuple[str, Extracted]] = []
    done: set[str] = set()
    for part, f in pieces:
        said = (f.said or f.obj_name or "").lower()
        at = low.find(said) if said else -1
        if f.rel in _FELT and f.obj.startswith(_HARM_IDS) and _after_reason(sentence, at):
            f = replace(f, rel=SIDE_EFFECT, detail=cause, supersedes=None)
            done.add(f.obj)
        out.append((part, f))
    for h in harms:
        if h.id not in done and h.start >= 0 and _after_reason(sentence, h.start):
            if any(f.obj == h.id for _, f in out):
                continue
            fact = Extracted(subject, SIDE_EFFECT, h.id, None, h.name, detail=cause, said=h.mention)
            # the same words read as a condition of its own are this side effect
            out = [
                (p, f)
                for p, f in out
                if not (f.rel in _FELT and (f.said or "").lower() == h.mention.lower())
            ]
            out.append((sentence, fact))
            done.add(h.id)
    return out


_DRUG_RELATIONS = frozenset({"takes", "allergic_to", SIDE_EFFECT})


def switched_from(
    pieces: Sequence[tuple[str, Extracted]], named: Sequence[str] = ()
) -> list[tuple[str, Extracted]]:
    """``pieces`` with a switch that names no drug it replaces ("so switched to oxycodone")
    replacing the one drug another clause of its sentence named ("came out in a rash with
    morphine on the ward, so switched to oxycodone 2.5mg prn"; ``named``: the drugs the
    sentence names, as linked), instead of every current medication of the patient."""
    switches = [f for _, f in pieces if f.rel == "takes" and f.supersede_current]
    if len(switches) != 1:
        return list(pieces)
    new = switches[0]
    others = {
        f.obj
        for _, f in pieces
        if f.rel in _DRUG_RELATIONS
        and f.subj == new.subj
        and f.obj != new.obj
        and f.obj.startswith("Compound::")
        and not (f.rel == "takes" and f.detail)
    }
    drugs = {d for d in named if d != new.obj} | others
    if len(drugs) != 1:
        return list(pieces)
    old = (new.subj, "takes", drugs.pop())
    return [
        (part, replace(f, supersedes=old, supersede_current=False) if f is new else f)
        for part, f in pieces
    ]


_CULTURE = re.compile(
    r"\b(?:cultures?|grew|grows|growing|isolates?|organisms?|swabs?|mc&s|mcs)\b", re.IGNORECASE
)
_SUSCEPTIBLE = re.compile(r"\b(?:sensitiv(?:e|ity)|susceptib\w*|resistan\w*)\b", re.IGNORECASE)


def without_susceptibilities(
    sentence: str, pieces: Sequence[tuple[str, Extracted]]
) -> list[tuple[str, Extracted]]:
    """``pieces`` without an allergy read from what a culture's organism is sensitive or
    resistant to ("urine culture back: e. coli, sensitive to nitro"): a susceptibility of the
    organism, not the patient's allergy."""
    if not _CULTURE.search(sentence):
        return list(pieces)
    return [
        (part, f)
        for part, f in pieces
        if not (f.rel == "allergic_to" and _SUSCEPTIBLE.search(part))
    ]
