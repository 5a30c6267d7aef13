"""engine.understand.polarity: which way a question says an amount moves."""

from __future__ import annotations

import pytest

from engine.understand.bank import Bank
from engine.understand.polarity import (
    FALL,
    RISE,
    Polarity,
    direction,
    learned_ways,
    reweigh,
    settle,
)
from engine.understand.reading import Reading
from engine.understand.semantic import SlotScores


def test_direction_thresholds() -> None:
    assert direction(RISE) == 1 and direction(FALL) == -1
    assert direction((RISE + FALL) / 2) == 0


def test_reweigh_moves_mass_between_twins_and_leaves_others_in_proportion() -> None:
    probs = {"up": 0.4, "down": 0.4, "plain": 0.2}
    signs = {"up": 1, "down": -1}
    up = reweigh(probs, signs, 1)
    assert up["up"] > 0.8 and up["down"] < 0.05
    assert sum(up.values()) == pytest.approx(1.0)
    assert reweigh(probs, signs, -1)["down"] == pytest.approx(up["up"])
    assert reweigh(probs, signs, 0) == probs, "no direction said: nothing changes"
    assert reweigh({"plain": 1.0}, signs, 1) == {"plain": 1.0}


def test_a_sure_direction_moves_mass_between_twins_only() -> None:
    probs = {"up": 0.6, "down": 0.1, "plain": 0.3}
    signs = {"up": 1, "down": -1}
    down = settle(probs, signs, [("up", "down")], -1)
    assert down["down"] > 0.6 > down["up"]
    assert down["up"] + down["down"] == pytest.approx(0.7), "the pair keeps its mass"
    assert down["plain"] == probs["plain"], "a relation without a direction is left alone"
    assert settle(probs, signs, [("up", "down")], 1)["up"] > probs["up"]


def test_the_exemplar_wordings_teach_word_directions() -> None:
    wordings = [
        ("drug_down", -1, "Which genes are repressed by [Compound]?"),
        ("disease_down", -1, "genes repressed in [Disease]"),
        ("anatomy_down", -1, "genes repressed in the [Anatomy] relative to other tissues"),
        ("anatomy_up", 1, "genes boosted in the [Anatomy] relative to other tissues"),
        ("drug_up", 1, "which genes go up with [Compound]"),
        ("drug_up", 1, "genes induced by [Compound]"),
        ("drug_up", 1, "genes [Compound] has induced"),
        ("drug_up", 1, "genes induced when cells take [Compound]"),
    ]
    ways = learned_ways(wordings)
    assert ways["repressed"] == -1 and ways["represses"] == -1, "and the other inflections"
    assert ways["other"] == 0 and ways["genes"] == 0, "used by both directions"
    assert "induced" not in ways, "one relation's phrasing alone teaches no direction"
    assert "boosted" not in ways, "a word seen once teaches nothing"


@pytest.mark.integration
def test_taught_directions_read_words_the_embedding_places_poorly(helix) -> None:
    scorer = helix.c.planner.semantic
    repressed = scorer.score("What drugs repress [Gene] expression?", {"Gene"})
    assert repressed.top(1)[0][0] == "drug_down.gene->drug"
    lower = scorer.score(
        "Which genes show lower expression in [Anatomy] than in other tissues?", {"Anatomy"}
    )
    assert lower.top(1)[0][0] == "anatomy_down.anatomy->gene"


@pytest.mark.integration
def test_words_and_relation_verbs_read_with_the_real_embedder(helix) -> None:
    polarity = Polarity(helix.c.embedder)
    assert polarity.sign("Which genes are boosted in [Anatomy]?") == 1
    assert polarity.sign("genes with diminished transcript levels in [Anatomy]") == -1
    assert polarity.sign("Which genes are expressed in [Anatomy]?") == 0
    up, down, plain = polarity.scores(["upregulates", "downregulates", "expresses"])
    assert (direction(up), direction(down), direction(plain)) == (1, -1, 0)
    # an anchor word says its own direction even where its score is weak ("higher" sits
    # close to "lower" in the embedding)
    assert polarity.sign("genes at higher levels in [Anatomy] than elsewhere") == 1


@pytest.mark.integration
def test_the_words_decide_between_up_and_down_twins(helix) -> None:
    scorer = helix.c.planner.semantic
    raised = scorer.score("genes with raised expression in [Anatomy]", {"Anatomy"})
    lowered = scorer.score("genes with lowered expression in [Anatomy]", {"Anatomy"})
    assert raised.top(1)[0][0] == "anatomy_up.anatomy->gene"
    assert lowered.top(1)[0][0] == "anatomy_down.anatomy->gene"


def test_a_direction_the_words_say_makes_the_likelier_twin_a_confident_reading() -> None:
    bank = Bank.load()
    slots = {s.id: s for s in bank.slots}
    up, plain = "anatomy_up.anatomy->gene", "expresses.anatomy->gene"
    probs = {up: 0.7, plain: 0.3}

    def sure(directed: frozenset[str]) -> object:
        reading = Reading(SlotScores("", dict(probs), probs, directed), slots)
        return reading.confident_path("Anatomy", frozenset({"Gene"}), "Gene")

    assert sure(frozenset()) is None, "0.7 is below the bar without a direction"
    path = sure(frozenset({up}))
    assert path is not None and [u.rel for u in path] == ["AuG"]  # type: ignore[attr-defined]


@pytest.mark.integration
def test_raised_expression_in_a_tissue_is_up_regulation(helix) -> None:
    plan = helix.c.planner.plan("Which genes have raised expression in the heart?")
    assert plan.dist[0][0].uses[0].rel == "AuG", plan.dist[:2]
    plain = helix.c.planner.plan("Which genes are expressed in the heart?")
    assert plain.dist[0][0].uses[0].rel == "AeG"


@pytest.mark.integration
def test_other_forms_of_taught_words_say_their_direction_for_sure(helix) -> None:
    scorer = helix.c.planner.semantic
    scorer.slot_signs()  # teaches the words
    polarity = scorer.polarity
    assert polarity.known("repressors") == polarity.known("repressing") == -1
    assert polarity.known("tissue") == 0, "both directions' wordings use it"
    assert polarity.known("zebrafish") is None
    assert polarity.known("over-expressed") == polarity.known("overexpressed") == 1, "hyphenated"
    assert polarity.read("What drugs act as repressors of [Gene] transcription?") == (-1, True)
    # a direction only the embedding hears is not sure
    assert polarity.read("genes with diminished transcript levels in [Anatomy]") == (-1, False)
    # words that disagree say nothing
    assert polarity.read("Which genes go up and which down with [Compound]?") == (0, False)
    # the particle of a request is no direction; "up" before a preposition is one
    assert polarity.read("Pull up genes with less expression in [Anatomy]") == (-1, True)
    assert polarity.read("Can you look up drugs that bind [Gene]?") == (0, False)
    assert polarity.read("Genes up in [Anatomy]?") == (1, True)


@pytest.mark.integration
def test_a_sure_direction_picks_the_twin_the_meaning_put_second(helix) -> None:
    scorer = helix.c.planner.semantic
    read = scorer.score("What drugs act as repressors of [Gene] transcription?", {"Gene"})
    assert read.top(1)[0][0] == "drug_down.gene->drug"
