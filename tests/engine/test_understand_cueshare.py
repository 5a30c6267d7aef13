"""Cue words support the neighbouring relations whose exemplar wordings use them.

The wordings here are our own, not the benchmark's."""

from __future__ import annotations

import re

import pytest

from engine.api import Helix
from engine.graph.relations import DirectedRel
from engine.understand.bank import Slot
from engine.understand.cueshare import MIN_WORDINGS, shared_relations, widen
from engine.understand.lexicon import Cue
from engine.understand.parse import find_cues
from tests.support.understanding import fixed_reading, reading_as

EXPRESS = (re.compile(r"\bexpress\w*"), ("AeG",), 1.0)
PATHWAY = (re.compile(r"\bpathways?\b"), ("GpPW",), 1.0)


def _slot(slot_id: str, rel: str, wordings: list[str]) -> Slot:
    use = DirectedRel(rel, False, "Anatomy", "Gene")
    return Slot(slot_id, "one_hop", "", tuple(wordings), use)


def test_a_cue_word_common_in_a_relations_wordings_supports_it_in_proportion() -> None:
    own = _slot(
        "expresses",
        "AeG",
        ["genes expressed in [Anatomy]"] * 6 + ["genes of [Anatomy]"] * (MIN_WORDINGS - 6),
    )
    up = _slot(
        "up",
        "AuG",
        ["genes expressed more in [Anatomy] than elsewhere"] * 3
        + ["genes raised in [Anatomy]"] * (MIN_WORDINGS - 3),
    )
    rare = _slot(
        "down",
        "AdG",
        ["genes expressed less in [Anatomy]"] + ["genes lowered in [Anatomy]"] * MIN_WORDINGS,
    )
    few = _slot("few", "GcG", ["genes expressed with [Gene]"] * 3)
    shared = shared_relations([EXPRESS, PATHWAY], [own, up, rare, few])
    assert shared == {EXPRESS[0].pattern: (("AuG", 0.5),)}, "3 of 10 against 6 of 10"
    widened = widen(Cue(("AeG",), 10, 19, "expressed"), [EXPRESS, PATHWAY], shared)
    assert widened.rels == ("AeG",) and (widened.start, widened.end) == (10, 19)
    assert tuple(widened.supports.get(r, 0.0) for r in ("AeG", "AuG", "AdG")) == (
        1.0,
        0.5,
        0.0,
    ), "1 of 11 is too rare; 3 wordings are too few to tell"
    pathway = Cue(("GpPW",), 0, 8, "pathways")
    assert widen(pathway, [EXPRESS, PATHWAY], shared) == pathway


def test_hyphenated_direction_words_are_the_cues_of_their_direction() -> None:
    q = "genes over-expressed in the heart, and those under-expressed there"
    cues = find_cues(q, [], q)
    assert [(c.text, c.rels[-1]) for c in cues] == [
        ("over-expressed", "AuG"),
        ("under-expressed", "AdG"),
    ]


@pytest.mark.integration
def test_the_reading_decides_between_relations_a_cue_word_serves(helix: Helix) -> None:
    """'expressed' names expression in the cue tables, and up-regulation wordings use it
    too: a reading short of confident decides between the two."""
    planner = helix.c.planner
    assert "AuG" in dict(planner.shared[r"\bexpress\w*"])
    question = "Which genes are expressed in the heart?"
    for slot, key in (("anatomy_up.anatomy->gene", "AuG"), ("expresses.anatomy->gene", "AeG")):
        plan = reading_as(planner, fixed_reading(slot, 0.6)).plan(question)
        assert plan.dist[0][0].uses[0].key == key, (slot, plan.dist[:2])
