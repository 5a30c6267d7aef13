"""Typos of question words are corrected before linking; names and known words are not."""

from __future__ import annotations

from engine.understand.spelling import Speller, one_slip
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
