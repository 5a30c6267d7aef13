"""Medication statements keep their dose, route and frequency; a dose is never a lab value."""

from __future__ import annotations

import pytest

from memory.clock import SimulatedClock
from memory.dosing import dose_of
from memory.service import UserMemory


def _dose(text: str, drug: str) -> str | None:
    start = text.index(drug)
    found = dose_of(text, start, start + len(drug))
    return found.text if found is not None else None


@pytest.mark.parametrize(
    ("text", "drug", "dose"),
    [
        ("MRN 1 is on apixaban 5 mg twice daily.", "apixaban", "5 mg twice daily"),
        ("takes metformin 1000 mg orally twice a day.", "metformin", "1000 mg orally twice a day"),
        ("started metoprolol, 25 mg PO BID", "metoprolol", "25 mg PO BID"),
        ("20 units of insulin glargine at bedtime", "insulin glargine", "20 units at bedtime"),
        ("ondansetron 4 mg IV every 8 hours prn", "ondansetron", "4 mg IV every 8 hours prn"),
        ("on rivaroxaban 20 mg instead of warfarin", "rivaroxaban", "20 mg"),
        ("takes atorvastatin.", "atorvastatin", None),
        ("HbA1c 7.5% today", "HbA1c", None),
        ("Hb 9.2 g/dL", "Hb", None),
    ],
)
def test_a_dose_is_read_by_its_grammar(text: str, drug: str, dose: str | None) -> None:
    assert _dose(text, drug) == dose


def test_a_dose_is_kept_with_the_medication_and_answered(
    memory: UserMemory, clock: SimulatedClock
) -> None:
    fact = memory.state("Patient MRN 5170 is on metformin 500 mg twice daily.", "s1")
    assert fact is not None and fact.triple == ("patient:5170", "takes", "Compound::DB00331")
    assert fact.detail == "500 mg twice daily"
    assert not [f for f in memory.facts() if f.rel == "lab_value"]
    result = memory.answer("What dose of metformin is MRN 5170 on?", [])
    assert result is not None and result.answers[0].id == "Compound::DB00331"
    assert "500 mg twice daily" in (result.text or "")


@pytest.mark.parametrize(
    "text",
    [
        "MRN 5170 was started on sitagliptin 100 mg once daily.",
        "MRN 5170 has been on sitagliptin 100 mg instead of metformin.",
        "MRN 5170 sitagliptin 100 mg daily.",
    ],
)
def test_a_drug_with_its_dose_is_a_medication_never_a_lab_value(
    memory: UserMemory, text: str
) -> None:
    fact = memory.state(text, "s1")
    assert fact is not None and fact.triple == ("patient:5170", "takes", "Compound::DB01261")
    assert fact.detail is not None and fact.detail.startswith("100 mg")
    assert not [f for f in memory.facts() if f.rel == "lab_value"]


def test_a_new_dose_of_the_same_drug_ends_the_old_one(
    memory: UserMemory, clock: SimulatedClock
) -> None:
    memory.state("MRN 5170 is on metformin 500 mg twice daily.", "s1")
    clock.advance(minutes=24 * 60)
    memory.state("MRN 5170 is now on metformin 1000 mg twice daily.", "s1")
    rows = sorted((f for f in memory.facts() if f.rel == "takes"), key=lambda f: f.t_start)
    assert [(f.detail, f.current) for f in rows] == [
        ("500 mg twice daily", False),
        ("1000 mg twice daily", True),
    ]
    result = memory.answer("What dose of metformin is MRN 5170 on?", [])
    assert result is not None and "1000 mg twice daily" in (result.text or "")
    # a re-statement without a dose keeps the dose known
    clock.advance(minutes=24 * 60)
    memory.state("MRN 5170 is on metformin.", "s1")
    (current,) = [f for f in memory.facts(include_superseded=False) if f.rel == "takes"]
    assert current.detail == "1000 mg twice daily"
