"""A mechanism answer leads with the drug's own pharmacological targets: the enzyme it inhibits
before transporters and enzymes that carry it, fewer drugs binding the target first."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from engine.agent.targets import lead_with_targets, own_targets
from engine.graph.store import KGStore
from engine.ingest import kg as kgload
from engine.result import Answer, Result, Status

MTX, OTHER, RA = "Compound::MTX", "Compound::OTHER", "Disease::RA"
DHFR, ATIC, ABCB1, CYP = "Gene::DHFR", "Gene::ATIC", "Gene::ABCB1", "Gene::CYP"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> KGStore:
    path = Path(tmp_path_factory.mktemp("own_targets")) / "kg.duckdb"
    con = duckdb.connect(str(path))
    con.execute(kgload.SCHEMA)
    genes = [(g, g.split("::")[1], "Gene", "hetionet") for g in (DHFR, ATIC, ABCB1, CYP)]
    kgload.bulk_insert(
        con,
        "nodes",
        [
            (MTX, "Methotrexate", "Compound", "hetionet"),
            (RA, "rheumatoid arthritis", "Disease", "hetionet"),
            (OTHER, "Other", "Compound", "hetionet"),
            *genes,
        ],
    )
    pack = "disease-pack"
    kgload.bulk_insert(
        con,
        "triples",
        [
            (MTX, "CbG", DHFR, "DrugCentral", pack, "inhibitor", None),
            (MTX, "CbG", ATIC, "DrugCentral", pack, "inhibitor", None),
            (OTHER, "CbG", ATIC, "DrugCentral", pack, "inhibitor", None),  # ATIC: two drugs
            (MTX, "CbG", ABCB1, "DrugCentral", pack, "substrate", None),
            (MTX, "CbG", CYP, "hetionet", "hetionet", None, None),
            (RA, "DaG", ATIC, "hetionet", "hetionet", None, None),
        ],
    )
    kgload.record_layer(con, "hetionet", "Hetionet", "", "{}")
    kgload.record_layer(con, pack, "pack", "", "{}")
    con.close()
    return KGStore(path)


def test_own_targets_are_the_pharmacological_ones_the_most_specific_first(
    store: KGStore,
) -> None:
    found = own_targets(store, MTX)
    assert found == [((MTX, "CbG", DHFR), "inhibitor"), ((MTX, "CbG", ATIC), "inhibitor")]
    # asked of a disease: the target it is associated with first
    assert [t[2] for t, _ in own_targets(store, MTX, RA)] == [ATIC, DHFR]
    # Hetionet alone types no action: no target leads
    assert own_targets(KGStore(store.path, layers={"hetionet"}), MTX) == []


def test_a_mechanism_answer_is_led_by_them(store: KGStore) -> None:
    result = Result(
        status=Status.ANSWERED,
        answers=[
            Answer(id=ABCB1, name="ABCB1", score=0.5, kind="Gene"),
            Answer(id=ATIC, name="ATIC", score=0.4, kind="Gene"),
        ],
        paths=[[(MTX, "CbG", ABCB1)], [(MTX, "CbG", ATIC)]],
    )
    lead_with_targets(result, store, own_targets(store, MTX))
    assert [a.id for a in result.answers] == [DHFR, ATIC, ABCB1]
    assert result.answers[0].why == "the drug's target (inhibitor)"
    assert result.paths[0] == [(MTX, "CbG", DHFR)]


def test_what_the_graph_holds_is_offered_when_the_asked_relation_holds_nothing(
    store: KGStore,
) -> None:
    from engine.agent.explainer import held_instead

    said = held_instead(store, MTX, {"CtD"})
    # the genes fewer drugs bind first: ATIC, bound by two drugs, is the one left out
    assert said.startswith("What the graph does hold about **Methotrexate**: Genes that")
    assert "ABCB1, CYP, DHFR and 1 more" in said and "ATIC" not in said
    assert held_instead(store, MTX, {"CbG"}) == ""
