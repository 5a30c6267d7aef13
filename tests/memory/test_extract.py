"""Statement extraction with the fake linker and a real vault for aliases."""

from __future__ import annotations

import pytest

from memory.service import UserMemory

MET = ("patient:4471", "takes", "Compound::DB00331")
SITA = ("patient:4471", "takes", "Compound::DB01261")


@pytest.mark.parametrize(
    ("text", "triple", "supersedes"),
    [
        ("Switched MRN 4471 from metformin to sitagliptin.", SITA, MET),
        ("MRN 4471: metformin -> sitagliptin", SITA, MET),
        ("Replacing metformin with sitagliptin for MRN 4471.", SITA, MET),
        (
            "put #6328 on midazolam, will review in two weeks.",
            ("patient:6328", "takes", "Compound::DB00683"),
            None,
        ),
        (
            "Record this: EPHB3 is inhibited by Nilotinib.",
            ("Compound::DB04868", "inhibits", "Gene::2049"),
            None,
        ),
        (
            "Patient 6328 complaining of confusion since yesterday",
            ("patient:6328", "reports_symptom", "Symptom::D003221"),
            None,
        ),
        (
            "Patient 7340 has had itching since starting metformin",
            ("patient:7340", "had_side_effect", "Side Effect::C0033774"),
            None,
        ),
        (
            "Seeing pt 5170 in clinic; working diagnosis is epilepsy.",
            ("patient:5170", "diagnosed_with", "Disease::DOID:1826"),
            None,
        ),
        (
            "Got patient 5170's results back, HbA1c 7.5%.",
            ("patient:5170", "lab_value", "HbA1c 7.5%"),
            None,
        ),
        (
            "Repeat for MRN 2241: HbA1c 8.8% (was HbA1c 8.7%).",
            ("patient:2241", "lab_value", "HbA1c 8.8%"),
            ("patient:2241", "lab_value", "HbA1c 8.7%"),
        ),
        (
            "Add adhesive tape to MRN 6328's allergy list.",
            ("patient:6328", "allergic_to", "adhesive tape"),
            None,
        ),
        (
            "MRN 2241 is allergic to penicillin G.",
            ("patient:2241", "allergic_to", "Compound::DB01053"),
            None,
        ),
        (
            "POLE is the target gene for the CRISPR screen.",
            ("note:crispr-screen", "target_gene", "Gene::5426"),
            None,
        ),
        (
            "Dropping doxazosin in our CRISPR screen; prazosin is the lead now.",
            ("note:crispr-screen", "lead_compound", "Compound::DB00457"),
            ("note:crispr-screen", "lead_compound", "Compound::DB00590"),
        ),
        (
            "Revised readout for the kinase panel: IC50 26 nM, replacing IC50 332 nM.",
            ("note:kinase-panel", "key_result", "IC50 26 nM"),
            ("note:kinase-panel", "key_result", "IC50 332 nM"),
        ),
        (
            "The new JAMA study reports prasugrel as an inhibitor of P2RY12.",
            ("Compound::DB06209", "inhibits", "Gene::64805"),
            None,
        ),
    ],
)
def test_statements_become_facts(
    memory: UserMemory,
    text: str,
    triple: tuple[str, str, str],
    supersedes: tuple[str, str, str] | None,
) -> None:
    found = memory.extractor.extract(text)
    assert found is not None
    assert found.triple == triple
    assert found.supersedes == supersedes


def test_unlinked_replacement_is_kept_verbatim(memory: UserMemory) -> None:
    found = memory.extractor.extract("Switched MRN 3139 from metformin to dex.")
    assert found is not None and found.obj == "dex"
    assert found.supersedes == ("patient:3139", "takes", "Compound::DB00331")


def test_names_resolve_through_the_users_aliases(memory: UserMemory, other: UserMemory) -> None:
    memory.state("Seeing Victor Costa (6328) in clinic; working diagnosis is epilepsy.")
    found = memory.extractor.extract("Started Victor Costa on midazolam")
    assert found is not None and found.subj == "patient:6328"
    title = memory.extractor.extract("Mr. Costa is now on clonazepam.")
    assert title is not None and title.subj == "patient:6328"
    assert other.extractor.extract("Started Victor Costa on midazolam") is None


@pytest.mark.parametrize(
    "text",
    [
        "Had a great lunch today.",
        "Patient 7340 had a rough week on metformin.",  # no relation the catalogue knows
        "Started Unknown Person on midazolam",  # no MRN ever given for this name
    ],
)
def test_nothing_is_stored_when_the_statement_cannot_be_read(memory: UserMemory, text: str) -> None:
    assert memory.extractor.extract(text) is None
