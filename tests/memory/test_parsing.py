"""Literal, patient and note recognition in free text."""

from __future__ import annotations

import pytest

from memory.literals import find_allergen, find_measurements, measurement_key, mentioned_keys
from memory.notes import find_notes, match_slug, slugify
from memory.patients import find_intros, find_mrns, find_names
from memory.relations import load_catalog


@pytest.mark.parametrize(
    ("text", "literal"),
    [
        ("Got patient 5170's results back, HbA1c 7.5%.", "HbA1c 7.5%"),
        ("CA 19-9 2091 U/mL for pt 5102 today.", "CA 19-9 2091 U/mL"),
        ("Results for Ada, MRN 6328, are in: sodium 129 mmol/L.", "sodium 129 mmol/L"),
        ("Beatriz Kowalski labs: FEV1 56% predicted.", "FEV1 56% predicted"),
        (
            "The replicate came back at tumour growth inhibition 23%.",
            "tumour growth inhibition 23%",
        ),
        ("latest: ANC 2.7 x10^9/L", "ANC 2.7 x10^9/L"),
        ("MMSE 20/30 for Omar Rossi (3612) today.", "MMSE 20/30"),
        ("T-score -2.9 at the hip", "T-score -2.9"),
        ("BP 161/91 mmHg", "BP 161/91 mmHg"),
    ],
)
def test_measurements_are_copied_verbatim(text: str, literal: str) -> None:
    assert [m.literal for m in find_measurements(text)] == [literal]


@pytest.mark.parametrize(
    "text",
    [
        "Seeing pt 5170 in clinic; working diagnosis is type 2 diabetes mellitus.",
        "Put 7594 on Docetaxel, will review in two weeks.",
        "What symptom did 8921 report?",
        "Patient 6328 complaining of confusion",
    ],
)
def test_mrns_and_disease_names_are_not_measurements(text: str) -> None:
    assert find_measurements(text) == []


def test_measurement_keys_and_mentions() -> None:
    assert measurement_key("CA 19-9 449 U/mL") == "ca 19 9"
    assert measurement_key("HbA1c 7.5%") == "hba1c"
    found = mentioned_keys(
        "What was patient 8849's blood pressure before the latest one?",
        ["HbA1c", "BP"],
        {"blood pressure": "BP"},
    )
    assert found == ["bp"]
    assert mentioned_keys("Latest lab value for pt 2472?", ["HbA1c", "BP"], {}) == []


@pytest.mark.parametrize(
    ("text", "mrn", "strong"),
    [
        ("Switched MRN 4471 from metformin to sitagliptin.", "4471", True),
        ("put #6328 on midazolam", "6328", True),
        ("Seeing pt 5170 (no name on file yet)", "5170", True),
        ("Seeing Victor Costa (6328) in clinic", "6328", False),
        ("The latanoprost is giving 8712 arthralgia.", "8712", False),
        ("What was 7835's last HbA1c result?", "7835", True),  # a possessive: someone's
        ("CA 19-9 2091 U/mL for pt 5102 today.", "5102", True),
    ],
)
def test_mrn_mentions(text: str, mrn: str, strong: bool) -> None:
    first = find_mrns(text)[0]
    assert (first.mrn, first.strong) == (mrn, strong)


def test_name_introductions_and_mentions() -> None:
    assert find_intros("Patient Ada Moreno (MRN 4471) was started on metformin.") == [
        ("Ada Moreno", "4471")
    ]
    assert find_intros("MRN 9280 (Ivan Fischer) has type 2 diabetes") == [("Ivan Fischer", "9280")]
    assert find_intros("Ravi Murphy, MRN 5507, has hypertension") == [("Ravi Murphy", "5507")]
    assert find_intros("Ana Nguyen (#6971): dx pancreatic cancer") == [("Ana Nguyen", "6971")]
    assert find_intros("New patient pt 5567 (no name on file yet)") == []
    assert find_intros("Ada M. Moreno (MRN 4471) was seen") == [("Ada Moreno", "4471")]
    names = [n.name for n in find_names("What was Tariq Hansen's last ALP? Ask Ms. Silva too.")]
    assert names == ["Tariq Hansen", "Ms. Silva"]
    assert [n.name for n in find_names("What's Dana Eriksson taking?")] == ["Dana Eriksson"]
    assert [n.name for n in find_names("Started Samuel Khan on acitretin")] == ["Samuel Khan"]


@pytest.mark.parametrize(
    ("phrase", "slug"),
    [
        ("the CRISPR screen", "crispr-screen"),
        ("our neuroinflammation work", "neuroinflammation-project"),
        ("the neuroinflammation project", "neuroinflammation-project"),
        ("our biobank cohort study", "biobank-cohort"),
        ("the xenograft study", "xenograft-study"),
        ("the T-cell assay", "tcell-assay"),
        ("our hepatotoxicity project", "liver-tox-project"),
        ("the liver tox project", "liver-tox-project"),
    ],
)
def test_note_slugs(phrase: str, slug: str) -> None:
    assert slugify(phrase) == slug
    assert [n.slug for n in find_notes(f"Lead for {phrase} is roflumilast.")] == [slug]


def test_note_matching_and_non_projects() -> None:
    assert find_notes("Our assay today: cetirizine inhibits HRH1.") == []
    assert find_notes("The Lancet cohort paper suggests felbamate.") == []
    assert match_slug("biobank-cohort-study", ["biobank-cohort", "crispr-screen"]) == (
        "biobank-cohort"
    )
    assert match_slug("microbiome-study", ["biobank-cohort", "xenograft-study"]) is None


@pytest.mark.parametrize(
    ("text", "allergen"),
    [
        ("Add adhesive tape to Victor Costa's allergy list.", "adhesive tape"),
        ("Allergy noted for pt 2183: Keflex.", "Keflex"),
        ("1597 reports an allergy to bee stings.", "bee stings"),
        (
            "pt 9508 had a reaction to sulfamethoxazole in the past, documented allergy.",
            "sulfamethoxazole",
        ),
        ("Please flag phenytoin allergy for Ada Costa.", "phenytoin"),
        ("Yara Bauer is allergic to latex.", "latex"),
    ],
)
def test_allergens(text: str, allergen: str) -> None:
    found = find_allergen(text)
    assert found is not None and found[0] == allergen
    assert text[found[1] : found[2]] == allergen


@pytest.mark.parametrize(
    ("question", "old"),
    [
        ("Which statin was stopped after the liver panel?", True),
        ("What got discontinued in March?", True),
        ("Which compound did the screen move away from?", True),
        ("What did the team take her off of?", True),
        ("What was MRN 2210 switched to?", False),
        ("What did we switch MRN 2210 onto?", False),
        ("What replaced warfarin?", False),
        ("What is MRN 2210 on now?", False),
        ("What did the kinase screen drop as its lead?", True),
        ("What did Mr. Ito come off at the last visit?", True),
        ("the zebrafish study \u2014 which molecule got replaced as lead?", True),
        ("What did we put MRN 2210 on after warfarin?", False),
        ("What is MRN 2210 on at the moment?", False),
        ("What is MRN 2210 suffering from at the moment?", False),
        ("Which was the earliest drug MRN 2210 was on?", False),
        ("What did we switch MRN 2210 from warfarin to?", False),
        ("the statin MRN 2210 was taken off at the last switch", True),
        ("the lead that the screen's present one replaced", True),
        ("What was the discontinued statin of MRN 2210?", True),
        ("Which drug came after the discontinued one?", False),
        ("What did we take pt 2210 off most recently?", True),
        ("The nurse wants to know what MRN 2210 was switched off last \u2014 what was it?", True),
        ("MRN 2210 was taken off warfarin \u2014 what is it now?", False),
    ],
)
def test_a_question_asks_for_the_replaced_value_where_statements_put_it(
    question: str, old: bool
) -> None:
    """The gap of the question sits where a statement puts the value a change replaced."""
    assert load_catalog().supersede.asks_old_value(question) is old


def test_every_graph_slot_a_note_relation_restates_is_in_the_bank() -> None:
    from engine.understand.bank import Bank

    slots = {s.id: s for s in Bank.load().slots}
    for spec in load_catalog().relations.values():
        for slot_id in spec.graph:
            assert slot_id in slots, (spec.name, slot_id)
            assert slots[slot_id].given == spec.subject, (spec.name, slot_id)
