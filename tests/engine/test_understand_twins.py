"""engine.understand.twins: the words that tell a relation from its twins."""

from __future__ import annotations

import pytest

from engine.understand.learn import content_words
from engine.understand.twins import TwinWords, learn

DRUG_DISEASE = frozenset({"Compound", "Disease"})


def _wordings() -> list[tuple[str, str, frozenset[str], str]]:
    return [
        ("treats.d", "CtD", DRUG_DISEASE, "Which diseases is [Compound] approved for?"),
        ("treats.d", "CtD", DRUG_DISEASE, "What is [Compound] approved to treat?"),
        ("treats.i", "CtD", DRUG_DISEASE, "Which approved drugs treat [Disease]?"),
        ("treats.i", "CtD", DRUG_DISEASE, "Drugs indicated in [Disease]"),
        ("palliates.d", "CpD", DRUG_DISEASE, "Where does [Compound] only ease symptoms?"),
        ("palliates.d", "CpD", DRUG_DISEASE, "Diseases [Compound] relieves without curing"),
        ("palliates.i", "CpD", DRUG_DISEASE, "Drugs that ease [Disease] without a cure"),
        ("palliates.i", "CpD", DRUG_DISEASE, "What can ease the diseases [Disease] resembles?"),
        ("palliates.i", "CpD", DRUG_DISEASE, "Drugs that relieve [Disease], not cure it"),
        ("binds.d", "CbG", frozenset({"Compound", "Gene"}), "Which genes does [Compound] bind?"),
    ]


def test_words_of_one_relation_across_its_slots_speak_for_it() -> None:
    words = learn(
        _wordings(), kind_words={"diseases": "Disease"}, function_words=frozenset({"where"})
    )
    speaks = words.speaks[DRUG_DISEASE]
    assert speaks["approved"] == "CtD" and speaks["ease"] == "CpD"
    assert speaks["eases"] == "CpD", "and its inflections"
    assert "relieve" not in speaks and "relieves" not in speaks, "two forms, each in one wording"
    assert "diseases" not in speaks, "a noun for an end of the relation names no relation"
    assert "where" not in speaks, "phrasing"
    assert "indicated" not in speaks, "one wording teaches nothing"
    assert "cure" not in speaks and "curing" not in speaks, "negated: speaks for neither"
    assert frozenset({"Compound", "Gene"}) not in words.speaks, "a relation without twins"


def test_negation_covers_the_words_after_it() -> None:
    assert content_words("drugs that soothe [Disease] without really curing it") == [
        "drugs",
        "that",
        "soothe",
        "without",
    ]
    assert "curative" not in content_words("non-curative drugs for [Disease]")
    assert content_words("symptom-directed drugs")[:3] == [
        "symptom-directed",
        "symptom",
        "directed",
    ]


def test_reweigh_moves_mass_to_the_twin_the_words_speak_for() -> None:
    words = TwinWords(
        {"CtD": DRUG_DISEASE, "CpD": DRUG_DISEASE},
        {DRUG_DISEASE: {"approved": "CtD", "ease": "CpD", "comfort": "CpD"}},
    )
    relation_of = {"treats": "CtD", "palliates": "CpD"}
    probs = {"treats": 0.6, "palliates": 0.3, "other": 0.1}
    eased, chosen = words.reweigh(probs, relation_of, "Drugs to ease [Disease] for comfort")
    assert eased["palliates"] > eased["treats"] and chosen == {"palliates"}
    assert eased["other"] == 0.1, "mass moves between the twins only"
    assert sum(eased.values()) == pytest.approx(1.0)
    tied, none = words.reweigh(probs, relation_of, "approved drugs that ease [Disease]")
    assert tied == probs and not none, "as many words for each: nothing changes"
    agree, _ = words.reweigh(probs, relation_of, "approved drugs for [Disease]")
    assert agree == probs, "the words agree with the meaning: nothing changes"
    left, _ = words.reweigh(probs, relation_of, "ease [Disease]", settled=frozenset({"CtD"}))
    assert left == probs, "a direction the words said settles the group"
    alone, _ = words.reweigh({"treats": 0.9, "other": 0.1}, relation_of, "ease [Disease]")
    assert alone == {"treats": 0.9, "other": 0.1}, "a twin not among the readings is not raised"


@pytest.mark.integration
def test_the_bank_teaches_palliation_words_the_embedding_misses(helix) -> None:
    scorer = helix.c.planner.semantic
    eased = scorer.score(
        "Which medications are used to alleviate [Disease] rather than cure it?", {"Disease"}
    )
    assert eased.top(1)[0][0] == "palliates.disease->drug"
    assert "palliates.disease->drug" in eased.directed
    cured = scorer.score("Which approved drugs cure [Disease]?", {"Disease"})
    assert cured.top(1)[0][0] == "treats.disease->drug"
