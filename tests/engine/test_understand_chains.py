"""engine.understand.chains: a chain reading must hear the hop its one-hop rival lacks."""

from __future__ import annotations

import pytest

from engine.understand.chains import ChainWords, Rival, learn
from engine.understand.learn import stem

KINDS = {"diseases": "Disease", "conditions": "Disease", "drugs": "Compound"}


def _learn() -> ChainWords:
    chain = (
        "multihop.disease->disease->drug",
        ("Disease", "Disease", "Compound"),
        (
            "Which drugs treat diseases similar to [Disease]?",
            "Drugs for conditions similar to [Disease]",
            "Medicines for illnesses similar to [Disease]",
            "What treats things like [Disease]?",
        ),
    )
    one_hops = [
        (
            "treats.disease->drug",
            "Disease",
            "Compound",
            ("What drugs treat [Disease]?", "Approved drugs for [Disease]", "[Disease] therapy"),
        ),
        (
            "similar.disease->disease",
            "Disease",
            "Disease",
            (
                "Diseases that resemble [Disease]",
                "Conditions that resemble [Disease]",
                "Which ones resemble [Disease]?",
            ),
        ),
        ("binds.drug->gene", "Compound", "Gene", ("Genes [Compound] binds",)),
    ]
    return learn([chain], one_hops, KINDS, frozenset({"what", "which", "that", "like"}))


def test_a_rival_lacks_the_middle_or_the_last_hop_and_their_words_tell_it() -> None:
    words = _learn()
    rivals = {r.slot: r for r in words.rivals["multihop.disease->disease->drug"]}
    assert set(rivals) == {"treats.disease->drug", "similar.disease->disease"}
    same_ends = rivals["treats.disease->drug"].words
    assert stem("similar") in same_ends, "the chain's own word, absent from the rival"
    assert stem("resembling") in same_ends, "another relation's word, in any of its forms"
    assert {stem("diseases"), stem("conditions")} <= same_ends, "a noun for the middle kind"
    assert stem("drugs") not in same_ends, "a noun for an end the rival walks to"
    assert stem("approved") not in same_ends, "a word the rival uses"
    assert stem("drugs") in rivals["similar.disease->disease"].words, "the last kind it lacks"
    assert not rivals["treats.disease->drug"].marks, "the given entity says no middle"


def test_reweigh_lowers_a_chain_whose_extra_hop_is_not_said() -> None:
    words = ChainWords(
        {
            "chain": (
                Rival(
                    "treats", frozenset({stem("similar"), stem("diseases")}), frozenset({"[Gene]"})
                ),
            )
        }
    )
    probs = {"chain": 0.6, "treats": 0.3, "other": 0.1}
    plain = words.reweigh(probs, "Which compounds treat [Disease]?")
    assert plain["treats"] > plain["chain"]
    assert plain["other"] == 0.1 and sum(plain.values()) == pytest.approx(1.0)
    assert words.reweigh(probs, "compounds for diseases like [Disease]") == probs
    assert words.reweigh(probs, "compounds for [Disease] via [Gene]") == probs, "a placeholder"
    assert words.reweigh({"treats": 0.6, "chain": 0.4}, "treat [Disease]") == {
        "treats": 0.6,
        "chain": 0.4,
    }, "a one-hop reading first is left alone"


@pytest.mark.integration
def test_a_plain_treats_question_is_not_read_as_a_chain(helix) -> None:
    scorer = helix.c.planner.semantic
    plain = scorer.score("Which compounds treat [Disease]?", {"Disease"})
    assert plain.top(1)[0][0] == "treats.disease->drug"
    chain = scorer.score("Which compounds treat diseases resembling [Disease]?", {"Disease"})
    assert chain.top(1)[0][0] == "multihop.disease->disease->drug"
