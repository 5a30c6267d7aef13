"""Follow-up reading from the words alone: anaphors, ellipsis, substitution."""

from __future__ import annotations

from engine.understand.followup import anaphor, elliptical, substitute


def test_a_pronoun_is_an_anaphor_and_a_possessive_says_so() -> None:
    text = "ok, and what are its adverse effects"
    start, end, possessive = anaphor(text) or (0, 0, False)
    assert text[start:end] == "its" and possessive
    assert substitute(text, start, end, "Warfarin", possessive) == (
        "ok, and what are Warfarin's adverse effects"
    )


def test_a_description_stands_for_a_subject_of_its_own_kind_only() -> None:
    text = "which symptoms does the condition cause?"
    found = anaphor(text, "Disease")
    assert found is not None and text[found[0] : found[1]] == "the condition"
    assert anaphor("list the genes of the condition", "Compound") is None
    assert anaphor("what are the symptoms", "Disease") is None


def test_a_text_that_names_only_a_new_subject_is_elliptical() -> None:
    assert elliptical("how about lupus?", [(10, 15)])
    assert elliptical("and for heparin", [(8, 15)])
    assert not elliptical("which genes does heparin bind", [(17, 24)])
    assert not elliptical("lupus", [])
    assert not elliptical("and for heparin in children on the ward today please", [(8, 15)])
