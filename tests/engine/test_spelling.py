"""Typos of question words are corrected before linking; names and known words are not. With
gaps (memory), a letter left out or typed twice is corrected as well."""

from __future__ import annotations

from engine.understand.spelling import Speller, apply, moved, one_slip
from engine.understand.vocabulary import Language, Vocabulary


def _speller() -> Speller:
    language = Language(["which", "for", "the", "in", "of", "liver", "express"])
    names = {"Compound": frozenset({"imatinib", "dasatinib"}), "Gene": frozenset({"abl1"})}
    words = ["drugs", "genes", "symptoms", "regulated", "treats", "express", "expressed"]
    return Speller(words, Vocabulary(language, names))


def test_one_slip_is_one_letter_or_one_swap_of_neighbours() -> None:
    assert one_slip("durgs", "drugs") and one_slip("drigs", "drugs")
    assert not one_slip("gurds", "drugs"), "a swap of letters that are not neighbours"
    assert not one_slip("dtrgz", "drugs")


def test_typos_of_question_words_are_corrected_keeping_length_and_case() -> None:
    speller = _speller()
    assert speller.correct("Durgs for the sympotms of gout?") == "Drugs for the symptoms of gout?"
    assert speller.correct("genes regualted by ABL1") == "genes regulated by ABL1"


def test_names_acronyms_and_known_words_are_left_alone() -> None:
    speller = _speller()
    assert speller.correct("Does dasatinib treat it?") == "Does dasatinib treat it?"
    assert speller.correct("Which GENSE in liver?") == "Which GENSE in liver?", "an acronym"
    assert speller.correct("imatinib") == "imatinib"


def _gap_speller() -> Speller:
    language = Language(["which", "for", "the", "what", "is", "on", "was", "value"])
    words = ["previous", "allergies", "before", "compound", "inhibited", "medication"]
    return Speller(words, Vocabulary(language, {"Compound": frozenset({"donepezil"})}), gaps=True)


def test_a_letter_left_out_or_typed_twice_is_corrected_with_gaps() -> None:
    speller = _gap_speller()
    assert speller.correct("prevous value for MRN 4471?") == "previous value for MRN 4471?"
    assert speller.correct("any alergies") == "any allergies", "a letter left out"
    assert speller.correct("the compoundd") == "the compound", "a letter typed twice"
    assert speller.correct("Befor donepezil") == "Before donepezil", "the opening word"
    assert speller.correct("Ask Prevous") == "Ask Prevous", "a capital inside may be a name"
    assert speller.correct("what was on") == "what was on", "language is left alone"
    assert Speller(["previous"], speller.vocabulary).correct("prevous") == "prevous", (
        "without gaps the length is kept"
    )


def test_offsets_move_with_the_edits() -> None:
    text = "prevous lead of donepezil"
    edits = _gap_speller().edits(text)
    assert edits == [(0, 7, "previous")]
    fixed = apply(text, edits)
    start, end = moved(16, edits), moved(25, edits)
    assert start is not None and end is not None and fixed[start:end] == "donepezil"
    assert moved(3, edits) is None, "inside an edited word"
