"""Passages are searched with the graph's names of what the question names otherwise."""

from __future__ import annotations

from engine.agent.names import named_query
from engine.result import LinkedEntity


def _entity(mention: str, name: str) -> LinkedEntity:
    return LinkedEntity(
        mention=mention, id=f"Disease::{name}", name=name, kind="Disease", score=1.0, method="exact"
    )


def test_initials_brands_and_misspellings_get_the_graph_name_beside_them() -> None:
    t2dm = _entity("T2DM", "type 2 diabetes mellitus")
    assert named_query("first line for T2DM?", [t2dm]) == (
        "first line for T2DM (type 2 diabetes mellitus)?"
    )
    lipitor = _entity("lipitor", "Atorvastatin")
    ra = _entity("ra", "rheumatoid arthritis")
    assert named_query("does lipitor help ra", [lipitor, ra]) == (
        "does lipitor (Atorvastatin) help ra (rheumatoid arthritis)"
    )


def test_a_question_naming_things_as_the_graph_does_is_searched_as_typed() -> None:
    asthma = _entity("asthma", "asthma")
    assert named_query("drugs for asthma", [asthma]) == "drugs for asthma"
    # a name said in full beside a shorter mention of it is not said twice
    ms = _entity("MS", "multiple sclerosis")
    assert named_query("multiple sclerosis (MS) drugs", [ms]) == "multiple sclerosis (MS) drugs"
    # a mention the text no longer holds changes nothing
    assert named_query("drugs for gout", [_entity("podagra", "gout")]) == "drugs for gout"
