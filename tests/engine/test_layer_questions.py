"""Questions that only layers make answerable, end to end on real stores: the session's small
Hetionet home with a tiny disease pack (DrugCentral action types) and a KGX graph (Monarch-like
predicates, one of them a relation of its own) added, asked through ``Helix``."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.api import Helix
from engine.config import Settings
from engine.ingest.build import ingest
from engine.ingest.kgx import KGXInput
from engine.result import Status
from tests.support.layers import INS, NEW_DISEASE, write_pack

pytestmark = pytest.mark.integration

KGX_NODES = (
    "id\tcategory\tname\tsynonym\txref\n"
    "MONDO:0099999\tbiolink:Disease\tZorbian syndrome (MONDO)\t\t\n"
    "HGNC:6081\tbiolink:Gene\tINS\tZorbian syndrome\t\n"
    # an xref naming the disease does not make the phenotype that disease
    "HP:0000001\tbiolink:PhenotypicFeature\tblue toes\t\tMONDO:0099999\n"
    "HP:0000006\tbiolink:PhenotypicFeature\tAutosomal dominant inheritance\t\t\n"
    "HP:0000005\tbiolink:PhenotypicFeature\tMode of inheritance\t\t\n"
    "UPHENO:0001001\tbiolink:PhenotypicFeature\tphenotype\t\t\n"
)
KGX_EDGES = (
    "subject\tpredicate\tobject\tprimary_knowledge_source\n"
    "HGNC:6081\tbiolink:gene_associated_with_condition\tMONDO:0099999\tinfores:orphanet\n"
    "MONDO:0099999\tbiolink:has_phenotype\tHP:0000001\tinfores:hpo-annotations\n"
    "MONDO:0099999\tbiolink:has_mode_of_inheritance\tHP:0000006\tinfores:hpo-annotations\n"
    "HP:0000006\tbiolink:subclass_of\tHP:0000005\tinfores:hpo\n"
    "HP:0000001\tbiolink:subclass_of\tUPHENO:0001001\tinfores:upheno\n"
    "HP:0000005\tbiolink:subclass_of\tUPHENO:0001001\tinfores:upheno\n"
)


@pytest.fixture(scope="module")
def home(small_home: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Settings, str]:
    """The small home plus a disease pack and a KGX layer named 'monarch'; and the drug
    whose targets the pack types (a Hetionet compound of the slice)."""
    root = tmp_path_factory.mktemp("layered")
    data = root / "data"
    shutil.copytree(small_home.parent / "data", data)
    compound, _ = write_pack(data)
    targets = data / "kg_extra/drugcentral_2016/drug_target.tsv"
    with targets.open("a") as fh:  # a second action type, on another gene of the drug
        fh.write("1\t\tseed\tProinsulin\tHormone\tP1\tIGF2\tIGF2_HUMAN\tAGONIST\tX\t\n")
    (root / "home").mkdir()
    shutil.copytree(small_home / "stores", root / "home/stores")
    settings = Settings(home=root / "home", data_dir=data, trace_exporter="none")
    (root / "m_nodes.tsv").write_text(KGX_NODES)
    (root / "m_edges.tsv").write_text(KGX_EDGES)
    kgx = KGXInput.from_files(root / "m_nodes.tsv", root / "m_edges.tsv", "monarch")
    report = ingest(settings, layers=["disease-pack"], kgx=[kgx])
    assert report.layers["monarch"]["skipped"] == {
        "synonym that is another node's name": 1,  # 'Zorbian syndrome' listed for INS
        "class that only holds the hierarchy: no name to link": 2,  # phenotype, mode of inh.
    }
    return settings, f"Compound::{compound}"


@pytest.fixture(scope="module")
def layered(home: tuple[Settings, str]) -> Iterator[Helix]:
    helix = Helix.open(home[0], auto_ingest=False)
    yield helix
    helix.close()


def test_what_a_drug_inhibits_is_its_typed_targets_only(
    layered: Helix, home: tuple[Settings, str]
) -> None:
    name = layered.node_name(home[1])
    binds = layered.triples(home[1], "CbG")
    assert len(binds) > 2  # Hetionet's targets of the drug, plus the pack's two
    r = layered.ask(f"What does {name} inhibit?")
    assert r.status is Status.ANSWERED, r.text
    assert [a.id for a in r.answers] == [INS]
    assert f"Genes that {name} inhibits (DrugCentral: inhibitor)" in r.text
    assert "DrugCentral: inhibitor" in (r.evidence[0].source or "")


def test_drugs_of_an_action_type_and_the_plain_fallback(layered: Helix) -> None:
    typed = layered.ask("Which drugs inhibit INS?")
    assert typed.status is Status.ANSWERED
    assert "Compounds that inhibit INS (DrugCentral: inhibitor)" in typed.text
    plain = layered.ask("Which drugs agonize INS?")  # INS has no agonist edge: binds, said so
    assert plain.status is Status.ANSWERED, plain.text
    assert "no DrugCentral edge of INS is typed 'agonist', so every binding is listed" in (
        plain.text
    )
    assert {a.id for a in plain.answers} == {a.id for a in typed.answers}


def test_kgx_gene_edge_cites_the_layer_and_its_source(layered: Helix) -> None:
    r = layered.ask("Which genes are associated with Zorbian syndrome?")
    assert r.status is Status.ANSWERED, r.text
    assert r.linked[0].id == NEW_DISEASE  # INS's KGX synonym does not make the name ambiguous
    assert [a.id for a in r.answers] == [INS]
    assert "monarch: orphanet" in (r.evidence[0].source or "")


def test_predicate_words_ask_for_kgx_relations(layered: Helix) -> None:
    phen = layered.ask("What phenotypes does Zorbian syndrome have?")
    assert phen.status is Status.ANSWERED, phen.text
    assert [(a.name, a.kind) for a in phen.answers] == [("blue toes", "Symptom")]  # DpS
    moi = layered.ask("What is the mode of inheritance of Zorbian syndrome?")
    assert moi.status is Status.ANSWERED, moi.text
    assert [a.name for a in moi.answers] == ["Autosomal dominant inheritance"]
    assert moi.triples() == [(NEW_DISEASE, "has_mode_of_inheritance", "Symptom::HP:0000006")]
    assert "Mode of inheritance of zorbian syndrome" in moi.text
    assert "monarch: hpo-annotations" in (moi.evidence[0].source or "")


def test_without_the_kgx_layer_its_relation_is_not_there(layered: Helix) -> None:
    settings = layered.settings.model_copy(update={"layers": "hetionet,disease-pack"})
    helix = Helix.open(settings, auto_ingest=False)
    try:
        assert helix.c.planner.data.uses == ()
        r = helix.ask("What is the mode of inheritance of Zorbian syndrome?")
        assert r.status is Status.NOT_ANSWERED or not any(
            t[1] == "has_mode_of_inheritance" for t in r.triples()
        )
        assert helix.c.planner.data.actions.actions.keys() == {"agonist", "inhibitor"}
    finally:
        helix.close()


def test_drugs_for_a_disease_with_none_of_its_own_are_its_subtypes(
    layered: Helix, home: tuple[Settings, str]
) -> None:
    # the pack's zorbian syndrome (treated by the seed drug, read from an indication named
    # "Zorbian Syndromes") is a subtype of zorbian disease, which has no drug of its own
    r = layered.ask("which drugs treat zorbian disease?")
    assert r.status is Status.ANSWERED, r.text
    assert [a.id for a in r.answers] == [home[1]]
    assert "its subtypes have them" in r.text and "For its subtype **zorbian syndrome**" in r.text
    assert r.paths == [
        [
            (home[1], "CtD", NEW_DISEASE),
            (NEW_DISEASE, "DsD", "Disease::DOID:0050002"),
        ]
    ]
    assert "for its subtype zorbian syndrome" in (r.answers[0].why or "")
    # any one-hop question: the parent's genes are its subtype's, the path through the subtype
    genes = layered.ask("which genes are associated with zorbian disease?")
    assert genes.status is Status.ANSWERED, genes.text
    assert [a.id for a in genes.answers] == [INS]
    assert [(NEW_DISEASE, "DsD", "Disease::DOID:0050002"), (NEW_DISEASE, "DaG", INS)] in (
        genes.paths
    )
