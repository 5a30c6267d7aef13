"""A relation word the question denies is no cue for the relation it asks.

The wordings here are our own, not the benchmark's."""

from __future__ import annotations

import pytest

from engine.api import Helix
from engine.understand.mentions import tokenize
from engine.understand.negation import is_negated, negated_spans
from tests.support.understanding import fixed_reading, reading_as


def _denied(text: str) -> list[str]:
    """The words of ``text`` a negation scopes over."""
    spans = negated_spans(text, tokenize(text))
    return [t.norm for t in tokenize(text) if is_negated(spans, t.start)]


def test_a_negation_reaches_to_the_end_of_its_clause() -> None:
    assert _denied("Drugs that soothe gout without treating its cause") == [
        "treating",
        "its",
        "cause",
    ]
    assert _denied("Which drugs never cure psoriasis but relieve it?") == ["cure", "psoriasis"]
    assert "relieve" not in _denied("Medicines that don't cure gout, relieving it instead")
    assert _denied("compounds for gout rather than healing it") == ["healing", "it"]
    assert _denied("Which drugs dull the pain, not to cure it at all or ever") == [
        "to",
        "cure",
        "it",
        "at",
    ], "at most four words"


def test_a_negating_prefix_denies_only_its_own_word() -> None:
    assert _denied("non-curative drugs for gout") == ["curative"]
    assert _denied("non-disease-modifying treatments of gout") == ["disease", "modifying"]
    assert _denied("Which genes are expressed in the liver?") == []


@pytest.mark.integration
def test_a_denied_relation_word_leaves_the_relation_to_the_meaning(helix: Helix) -> None:
    """The bank reads palliation, not confidently enough to overrule a treatment word: a
    treatment word still decides, one the question denies does not."""
    planner = reading_as(helix.c.planner, fixed_reading("palliates.disease->drug", 0.7))
    denied = planner.plan("Which drugs soothe Parkinson's disease without treating it?")
    assert denied.intent == "one_hop" and denied.dist[0][0].uses[0].key == "CpD^-1"
    assert [c.text for c in denied.features.cues] == []
    said = planner.plan("Which drugs soothe Parkinson's disease by treating it?")
    assert [c.text for c in said.features.cues] == ["treating"], "read when not denied"
    asked = planner.plan("Doesn't ropinirole treat Parkinson's disease?")
    assert asked.intent == "claim", "a yes/no question about a relation it negates still asks it"


@pytest.mark.integration
def test_a_negated_auxiliary_opens_a_yes_no_question_and_is_no_part_of_a_name(
    helix: Helix,
) -> None:
    plan = helix.c.planner.plan("Isn't DRD2 bound by ropinirole?")
    assert {e.id for e in (*plan.seeds, *plan.targets)} == {"Gene::1813", "Compound::DB00268"}
    assert plan.intent == "claim" and not plan.link.unlinked
