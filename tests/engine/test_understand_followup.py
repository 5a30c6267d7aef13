"""Follow-up reading from the words alone: anaphors, ellipsis, substitution."""

from __future__ import annotations

from engine.understand.followup import (
    anaphor,
    attach,
    bare_request,
    described,
    elliptical,
    plural,
    substitute,
)


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


def test_a_plural_word_may_stand_for_a_group_of_its_kind() -> None:
    text = "any drugs hitting those genes"
    found = plural(text, "Gene")
    assert found is not None and text[found[0] : found[1]] == "those genes" and found[3]
    assert plural(text, "Compound") is None  # "those genes" is no group of drugs
    they = plural("what do they target", "Compound")
    assert they is not None and not they[3]
    assert plural("what are their side effects", "Compound") == (9, 14, True, False)
    assert plural("are those patients on it", "Compound") is None


def test_a_short_request_for_a_relation_alone_is_bare() -> None:
    for text in ("symptoms?", "what are the side effects", "any targets"):
        assert bare_request(text), text
    for text in ("ok thanks", "what about the kids on the ward today then", ""):
        assert not bare_request(text), text
    assert attach("symptoms?", "gout") == "symptoms of gout?"
    assert attach("any targets", "Aspirin") == "any targets of Aspirin"


def test_a_singular_description_of_another_kind_is_found_by_its_kind() -> None:
    text = "which other drugs share that target"
    found = described(text, "Gene")
    assert found is not None and text[found[0] : found[1]] == "that target"
    assert described(text, "Compound") is None
    assert described("what does it bind", "Gene") is None
