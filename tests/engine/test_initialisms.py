"""A disease's initials as an alias: made from its name and DO label, cut to the most
connected disease when one dominates those sharing them."""

from __future__ import annotations

from engine.understand.mentions import INITIALISM, Candidate, central, initialisms, initials


def test_initials_keep_numbers_and_drop_the_possessive() -> None:
    assert initials("type 2 diabetes mellitus") == "t2dm"
    assert initials("chronic obstructive pulmonary disease") == "copd"
    assert initials("Alzheimer's disease") == "ad"
    assert initials("non-small cell lung cancer") == "nsclc"
    assert initials("asthma") is None


def test_only_names_and_labels_give_initials_not_synonyms() -> None:
    rows = [
        ("ulcerative colitis", "Disease::DOID:8577", "ulcerative colitis", "hetionet", True),
        ("hay fever", "Disease::DOID:4481", "hay fever", "disease-ontology", False),
        ("ckd", "Disease::DOID:784", "chronic kidney disease", "disease-ontology-label", False),
        ("gene", "Gene::1", "some gene name", "ncbi-gene", True),
    ]
    keys = [key for key, _ in initialisms(rows)]
    assert keys == ["uc", "ckd"]
    assert all(c.source == INITIALISM for _, c in initialisms(rows))


def test_the_most_connected_disease_takes_initials_it_dominates() -> None:
    def cand(node: str) -> Candidate:
        return Candidate(node, "MS", INITIALISM, False)

    links = {"ms": 900, "msx": 200, "ad1": 300, "ad2": 200}.__getitem__
    out = central([("ms", cand("ms")), ("ms", cand("msx"))], links)
    assert [c.node_id for c in out["ms"]] == ["ms"]
    close = central([("ad", cand("ad1")), ("ad", cand("ad2"))], links)
    assert [c.node_id for c in close["ad"]] == ["ad1", "ad2"]
