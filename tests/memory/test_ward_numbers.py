"""Memory as a ward types patients and values (issue 36, third pass): patients by a bare short
number, several values in one line, lab and drug short forms, class words, follow-ons. On the
real stores with the real embedding model; the wordings are our own.
"""

from __future__ import annotations

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
