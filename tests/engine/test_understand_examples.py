"""An aside that gives examples of what is asked names no entity and says no relation.

The wordings here are our own, not the benchmark's."""

from __future__ import annotations

import pytest

from engine.api import Helix
from engine.understand.linking import example_asides, examples
from engine.understand.mentions import tokenize
from tests.support.understanding import named


def test_an_aside_of_examples_runs_to_the_next_comma() -> None:
    q = "Which tissues, such as liver or heart, express FOXP2 most?"
    [(a, b)] = example_asides(q)
    assert q[a:b] == "such as liver or heart"
    assert example_asides("Which drugs are like aspirin?") == [], "no aside: a comparison"
    e = "Which functions (e.g. kinase activity) does FOXP2 have?"
    assert [e[a:b] for a, b in example_asides(e)] == ["e.g. kinase activity"]


def test_mentions_inside_an_aside_are_examples_when_something_else_is_named() -> None:
    q = "Which tissues, such as liver or heart, express FOXP2 most?"
    liver = named(q, "liver", "Anatomy::UBERON:0002107")
    heart = named(q, "heart", "Anatomy::UBERON:0000948")
    gene = named(q, "FOXP2", "Gene::93986")
    assert examples(q, tokenize(q), [liver, heart, gene]) == [gene]
    alone = "Which tissues, such as the liver, are there?"
    only = named(alone, "liver", "Anatomy::UBERON:0002107")
    assert examples(alone, tokenize(alone), [only]) == [only], "nothing else to ask about"


@pytest.mark.integration
def test_an_aside_of_examples_says_no_relation(helix: Helix) -> None:
    plan = helix.c.planner.plan("Which drugs, like ones that bind DRD2, treat Parkinson's disease?")
    assert [c.text for c in plan.features.cues] == ["treat"]
    assert [e.id for e in plan.seeds] == ["Disease::DOID:14330"]
    asked = helix.c.planner.link("Does ropinirole, like pramipexole, treat Parkinson's disease?")
    assert "pramipexole" in [m.text for m in asked.mentions], "a yes/no question may ask it"
