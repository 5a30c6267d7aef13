"""Claims the disease hierarchy bears out: one disease a kind of another some steps up, and a
drug's edge to a subtype of the disease a claim names, each shown as its path."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from engine.agent.explainer import claim_on_path
from engine.agent.loop import says_is_a
from engine.agent.subtypes import is_a_chain, through_subtype
from engine.graph.relations import directed_uses
from engine.graph.store import KGStore
from engine.ingest import kg as kgload
from engine.result import LinkedEntity

TREATS = [u for u in directed_uses() if u.key == "CtD"]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> KGStore:
    nodes = [
        ("Disease::DM", "diabetes mellitus", "Disease"),
        ("Disease::T2", "type 2 diabetes mellitus", "Disease"),
        ("Disease::T1", "type 1 diabetes mellitus", "Disease"),
        ("Disease::MODY", "maturity-onset diabetes of the young", "Disease"),
        ("Disease::LEU", "leukemia", "Disease"),
        ("Compound::MET", "Metformin", "Compound"),
        ("Compound::INS", "Insulin", "Compound"),
        ("Compound::X", "Otherdrug", "Compound"),
    ]
    triples = [
        ("Disease::T2", "DsD", "Disease::DM", "t"),
        ("Disease::T1", "DsD", "Disease::DM", "t"),
        ("Disease::MODY", "DsD", "Disease::T2", "t"),
        ("Compound::MET", "CtD", "Disease::T2", "t"),
        ("Compound::INS", "CtD", "Disease::T1", "t"),
        ("Compound::INS", "CtD", "Disease::T2", "t"),
        ("Compound::X", "CtD", "Disease::MODY", "t"),
        ("Compound::X", "CtD", "Disease::LEU", "t"),
    ]
    path = Path(tmp_path_factory.mktemp("claims")) / "kg.duckdb"
    con = duckdb.connect(str(path))
    con.execute(kgload.SCHEMA)
    kgload.bulk_insert(con, "nodes", nodes)
    kgload.bulk_insert(con, "triples", triples)
    con.close()
    return KGStore(path)


def test_a_disease_is_a_kind_of_its_ancestors_only(store: KGStore) -> None:
    assert is_a_chain(store, "Disease::MODY", "Disease::DM") == [
        ("Disease::MODY", "DsD", "Disease::T2"),
        ("Disease::T2", "DsD", "Disease::DM"),
    ]
    assert is_a_chain(store, "Disease::DM", "Disease::MODY") == []  # the other way round
    assert is_a_chain(store, "Disease::T1", "Disease::T2") == []  # siblings
    assert is_a_chain(store, "Disease::MODY", "Disease::DM", depth=1) == []
    text = claim_on_path(store, is_a_chain(store, "Disease::T2", "Disease::DM"))
    assert text.startswith(
        "Yes — the knowledge graph records that **type 2 diabetes mellitus** is a subtype of "
        "**diabetes mellitus**"
    )


def test_a_drug_for_a_subtype_treats_the_disease_through_it(store: KGStore) -> None:
    path = through_subtype(store, "Compound::MET", TREATS, "Disease::DM")
    assert path == [("Compound::MET", "CtD", "Disease::T2"), ("Disease::T2", "DsD", "Disease::DM")]
    # two levels down, and the subtype with more edges first at one level
    deep = through_subtype(store, "Compound::X", TREATS, "Disease::DM")
    assert deep[0] == ("Compound::X", "CtD", "Disease::MODY") and len(deep) == 3
    insulin = through_subtype(store, "Compound::INS", TREATS, "Disease::DM")
    assert insulin[0] == ("Compound::INS", "CtD", "Disease::T2")
    # a disease that is not above the drug's: nothing
    assert through_subtype(store, "Compound::MET", TREATS, "Disease::LEU") == []
    yes = claim_on_path(store, path)
    assert yes.startswith(
        "Yes — the knowledge graph records that **Metformin** treats **type 2 diabetes "
        "mellitus**, a subtype of **diabetes mellitus**"
    )
    assert "Metformin —treats→ type 2 diabetes mellitus · type 2 diabetes mellitus —" in yes
    assert claim_on_path(store, path, denied=True).startswith("No — the knowledge graph records")


def _named(text: str, name: str) -> LinkedEntity:
    start = text.index(name)
    return LinkedEntity(
        mention=name,
        id=f"Disease::{name}",
        name=name,
        kind="Disease",
        score=1.0,
        method="exact",
        start=start,
        end=start + len(name),
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("is melanoma a cancer", True),
        ("melanoma is a cancer, right?", True),
        ("is melanoma a kind of cancer", True),
        ("is melanoma one type of cancer?", True),
        ("is melanoma similar to cancer", False),
        ("melanoma cancer", False),
        ("is melanoma or cancer worse", False),
    ],
)
def test_is_a_is_read_only_from_a_copula_and_an_article(text: str, expected: bool) -> None:
    assert says_is_a(text, _named(text, "melanoma"), _named(text, "cancer")) is expected
