"""Linking and ranking that keep up with the disease pack, on small real stores: Hetionet's
pathway sample restated by the pack's full table is one source, a pathway named by a word of
the field is no passage mention, a pathway named after a disease does not take the disease's
name, and a broader disease standing in for a term gives way to the term's own node."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from engine.agent.evidence import dense_mentions
from engine.agent.senses import named_after
from engine.graph.store import KGStore
from engine.index.dense import PassageHit
from engine.ingest import kg as kgload
from engine.ingest.nearest import BROADER, NARROWER
from engine.understand.mentions import own_names

GENE, SAMPLED, FULL_ONLY = "Gene::1", "Pathway::PC7_1", "Pathway::PC7_2"
GENERIC = "Pathway::PC7_3278"
DISEASE, NAMED_PATHWAY = "Disease::DOID:1", "Pathway::WP1"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> KGStore:
    path = Path(tmp_path_factory.mktemp("pack_ranking")) / "kg.duckdb"
    con = duckdb.connect(str(path))
    con.execute(kgload.SCHEMA)
    kgload.bulk_insert(
        con,
        "nodes",
        [
            (GENE, "ZORB1", "Gene", "hetionet"),
            (SAMPLED, "Zorb signaling", "Pathway", "hetionet"),
            (FULL_ONLY, "Zorb transport", "Pathway", "disease-pack"),
            (GENERIC, "Disease", "Pathway", "hetionet"),
            (DISEASE, "zorbian syndrome", "Disease", "hetionet"),
            (NAMED_PATHWAY, "Zorbian Syndrome", "Pathway", "hetionet"),
        ],
    )
    kgload.bulk_insert(
        con,
        "triples",
        [
            # Hetionet's sample holds one of the gene's pathway edges; the pack holds them all
            (GENE, "GpPW", SAMPLED, "hetionet", "hetionet", None, None),
            (GENE, "GpPW", SAMPLED, "Reactome", "disease-pack", None, None),
            (GENE, "GpPW", FULL_ONLY, "Reactome", "disease-pack", None, None),
            (GENE, "GpPW", GENERIC, "Reactome", "disease-pack", None, None),
            # a relation both layers hold in full: two sources
            (DISEASE, "DaG", GENE, "hetionet", "hetionet", None, None),
            (DISEASE, "DaG", GENE, "DISEASES 2022", "disease-pack", None, "5"),
        ],
    )
    kgload.bulk_insert(con, "sampled_relations", [("GpPW", "hetionet", "5000", "84372")])
    kgload.record_layer(con, "hetionet", "Hetionet", "", "{}")
    kgload.record_layer(con, "disease-pack", "pack", "", "{}")
    passages = [
        (f"p{k}", "pubmedqa", "", "Outcome of the disease in adults.", "q") for k in range(40)
    ]
    passages += [("z", "pubmedqa", "", "Zorb signaling and zorb transport in the disease.", "q")]
    kgload.bulk_insert(con, "passages", passages)
    con.close()
    return KGStore(path)


def test_hetionets_sample_restated_by_the_full_table_is_one_source(
    store: KGStore, tmp_path: Path
) -> None:
    sampled, full_only = (GENE, "GpPW", SAMPLED), (GENE, "GpPW", FULL_ONLY)
    both = store.edge_sources([sampled, full_only, (DISEASE, "DaG", GENE)])
    assert [e.source for e in both[sampled]] == ["Reactome"]
    assert [e.source for e in both[full_only]] == ["Reactome"]
    assert [e.source for e in both[(DISEASE, "DaG", GENE)]] == ["DISEASES 2022", "hetionet"]
    assert "GpPW" not in store.sampled
    # Hetionet alone: its sample, said to be one
    hetionet = KGStore(store.path, layers={"hetionet"})
    assert [e.source for e in hetionet.edge_sources([sampled])[sampled]] == ["hetionet"]
    assert "GpPW" in hetionet.sampled


def test_a_name_the_corpus_uses_everywhere_is_no_mention(store: KGStore) -> None:
    assert store.passage_share("Disease") > 0.5
    assert store.passage_share("zorb transport") == pytest.approx(1 / 41)
    hits = [PassageHit("z", 0.9, 0.9, 0.0), PassageHit("p0", 0.8, 0.8, 0.0)]
    found = dense_mentions(store, [SAMPLED, FULL_ONLY, GENERIC], hits)
    assert found == {SAMPLED: 0.9, FULL_ONLY: 0.9}


def test_a_pathway_named_after_a_disease_gives_way_on_an_equal_fit(store: KGStore) -> None:
    ids = [NAMED_PATHWAY, DISEASE]
    assert named_after(store, ids, {NAMED_PATHWAY: 1.0, DISEASE: 1.0}) == [DISEASE]
    # the question fits the pathway better ('genes in the Zorbian Syndrome pathway')
    assert named_after(store, ids, {NAMED_PATHWAY: 1.2, DISEASE: 1.0}) == ids
    assert named_after(store, [NAMED_PATHWAY], {NAMED_PATHWAY: 1.0}) == [NAMED_PATHWAY]


def test_a_broader_stand_in_gives_way_to_the_terms_own_node() -> None:
    mi, cad = "Disease::DOID:5844", "Disease::DOID:3393"
    rows = [
        ("heart attack", cad, "heart attack", BROADER, False),
        ("heart attack", mi, "heart attack", "disease-ontology", False),
        ("status epilepticus", "Disease::DOID:1826", "status epilepticus", BROADER, False),
    ]
    assert own_names(rows) == rows[1:]
    # Hetionet alone has no node of that name: the stand-in stays
    assert own_names([rows[0], rows[2]]) == [rows[0], rows[2]]


def test_narrower_readings_give_way_to_a_disease_whose_own_name_it_is() -> None:
    crc, rectum, colon = "Disease::DOID:9256", "Disease::DOID:1993", "Disease::DOID:219"
    le, sle = "Disease::DOID:8857", "Disease::DOID:9074"
    rows = [
        ("colorectal cancer", crc, "colorectal cancer", "disease-pack", True),
        ("colorectal cancer", rectum, "colorectal cancer", NARROWER, False),
        ("colorectal cancer", colon, "colorectal cancer", NARROWER, False),
        # a synonym only: the subtype the graph holds under it stays a reading
        ("lupus", le, "lupus", "disease-ontology", False),
        ("lupus", sle, "lupus", NARROWER, False),
    ]
    assert own_names(rows) == [rows[0], rows[3], rows[4]]
