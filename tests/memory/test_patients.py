"""Patient references in free text (``memory.patients``)."""

from __future__ import annotations

from memory.patients import find_mrns


def test_a_possessive_typed_without_its_apostrophe_keeps_the_mrn() -> None:
    [found] = find_mrns("what are MRN 2231s allergies")
    assert found.mrn == "2231"
    assert find_mrns("pt 2231x") == []
