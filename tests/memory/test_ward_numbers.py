"""Memory as a ward types patients and values (issue 36, third pass): patients by a bare short
number, several values in one line, lab and drug short forms, class words, follow-ons. On the
real stores with the real embedding model; the wordings are our own.
"""

from __future__ import annotations

from memory.dosing import amount_spans, dose_after
from memory.patients import find_mrns


# --- pure readings -----------------------------------------------------------------------------
def test_a_short_number_a_sentence_opens_with_is_a_patient_never_a_value() -> None:
    assert [m.mrn for m in find_mrns("732 copd, fev1 1.1 l, on tiotropium")] == ["732"]
    assert [m.mrn for m in find_mrns("ok. 732's sats 91% on air")] == ["732"]
    assert [m.mrn for m in find_mrns("481 sodium?")] == ["481"]
    # a number with a unit, a count of time or inside a measurement names no one
    assert find_mrns("250 ml bolus given") == []
    assert find_mrns("bp fine. 100 mg od") == []
    assert find_mrns("300 days of therapy") == []
    assert find_mrns("na 131, k 4.2") == []


def test_an_amount_without_a_unit_is_a_dose_when_a_frequency_follows_it() -> None:
    dose = dose_after("bisoprolol 2.5 od and ramipril 5 bd", len("bisoprolol"))
    assert dose is not None and (dose.text, dose.amount) == ("2.5 od", "2.5")
    dose = dose_after("simvastatin 40mg on.", len("simvastatin"))
    assert dose is not None and dose.text == "40mg on"
    dose = dose_after("apixaban stays 5mg bd", len("apixaban"))
    assert dose is not None and dose.amount == "5mg"
    # a lab's value has no frequency after it
    assert dose_after("inr 2.4 this morning", len("inr")) is None
    assert amount_spans("crp 48 today") == []
