"""Names as clinicians say them, on the real engine slice: a drug named without its ester or
salt, a class named by its members' name stem, MeSH headings in everyday order, a pasted note
that ends in a question, a tag asking to confirm, and the evidence of a drug's class-mates."""

from __future__ import annotations

from typing import Any

from engine.ranking.evidence import Signals, evidence_score
from engine.result import Status
from engine.understand.form import asked_span, asks_to_check
from engine.understand.linking import STEM_CLASS
from engine.understand.mentions import UNINVERTED, uninverted


def test_a_drug_named_without_its_ester_is_that_drug(helix: Any) -> None:
    linked = helix.link("what does clobetasol treat")
    assert [e.name for e in linked] == ["Clobetasol propionate"]
    r = helix.ask("what does clobetasol treat")
    assert r.status is Status.ANSWERED
    assert any(a.name == "psoriasis" for a in r.answers)


def test_a_plural_name_stem_is_the_class_of_the_drugs_that_share_it(helix: Any) -> None:
    linked = helix.link("which sartans are used for hypertension")
    classes = [e for e in linked if e.kind == "Pharmacologic Class"]
    assert len(classes) == 1
    r = helix.ask("sartans for hypertension")
    assert r.status is Status.ANSWERED
    assert r.answers and all(a.name.lower().endswith("sartan") for a in r.answers)
    # an everyday word is no stem ("pills" names no class)
    assert all(e.kind != "Pharmacologic Class" for e in helix.link("pills for gout"))


def test_stem_class_mentions_say_how_they_were_read(helix: Any) -> None:
    r = helix.ask("what do sartans target")
    assert any("Reading 'sartans' as" in u for u in r.understood)
    assert STEM_CLASS == "stem-class"


def test_mesh_headings_are_also_named_in_everyday_order() -> None:
    rows = [
        ("x", "Pharmacologic Class::D1", "Antibodies, Monoclonal", "hetionet", True),
        ("x", "Symptom::D2", "Purpura, Thrombocytopenic, Idiopathic", "hetionet", True),
        # a list, not an inversion; and a kind MeSH does not name
        ("x", "Pharmacologic Class::N1", "Norepinephrine, Serotonin, and Dopamine", "x", True),
        ("x", "Disease::DOID:1", "cancer, childhood", "disease-ontology", True),
    ]
    got = {key: (c.node_id, c.source) for key, c in uninverted(rows)}
    assert got == {
        "monoclonal antibodies": ("Pharmacologic Class::D1", UNINVERTED),
        "idiopathic thrombocytopenic purpura": ("Symptom::D2", UNINVERTED),
    }


def test_a_pasted_note_asks_its_last_question() -> None:
    note = (
        "62M, PMH T2DM, HTN. 3/7 productive cough, fever 38.6. CRP 120. CXR consolidation. "
        "Meds metformin, ramipril, atorvastatin. Quick q - what does atorvastatin target?"
    )
    named = note.rindex("atorvastatin")
    start, end = asked_span(note, [(named, named + len("atorvastatin"))])
    assert note[start:end].endswith("what does atorvastatin target?")
    assert "metformin" not in note[start:end]
    # three sentences are a question with its background: the one naming its subject is kept
    short = "I am a student. Metformin is new to me. What does it target?"
    start, end = asked_span(short, [(16, 25)])
    assert short[start:end] == "Metformin is new to me. What does it target?"


def test_a_tag_asking_true_or_false_makes_a_claim() -> None:
    assert asks_to_check("ACE inhibitors cause cough - true or false")
    assert asks_to_check("statins cause myopathy, fact or myth?")
    assert not asks_to_check("what is true of statins")


def test_a_drug_whose_class_is_used_for_the_disease_ranks_above_one_whose_is_not() -> None:
    alone = Signals(degree=2, population=700)
    classed = Signals(degree=2, population=700, class_share=0.8)
    assert evidence_score(classed) > evidence_score(alone)
    # a class used for everything (a drug linked to most diseases) adds almost nothing
    broad = Signals(degree=600, population=700, class_share=0.8)
    assert evidence_score(broad) - evidence_score(Signals(degree=600, population=700)) < 0.1


def test_a_gene_mutated_in_a_disease_is_a_gene_associated_with_it(helix: Any) -> None:
    r = helix.ask("which gene is mutated in Parkinson's disease")
    assert r.status is Status.ANSWERED
    assert {t[1] for p in r.paths for t in p} == {"DaG"}


def test_a_statement_tagged_to_be_confirmed_is_asked_directly(helix: Any) -> None:
    from engine.understand.form import untagged

    assert untagged("ACE inhibitors cause cough - true or false") == (
        "do ACE inhibitors cause cough?"
    )
    assert untagged("T2DM is an autoimmune disease, correct?") == ("is T2DM an autoimmune disease?")
    assert untagged("metformin doesn't treat gout, right?") is None  # a denial reads as one
    assert untagged("does metformin treat gout?") is None
    r = helix.ask("valsartan treats hypertension, right?")
    assert r.intent == "claim" and r.text.startswith("Yes")


def test_two_drugs_set_side_by_side_are_compared_by_the_targets_they_share(helix: Any) -> None:
    r = helix.ask("losartan vs valsartan, any real difference?")
    assert r.status is Status.ANSWERED
    shared = {t[2] for t in helix.triples("Compound::DB00678", "CbG", 500)} & {
        t[2] for t in helix.triples("Compound::DB00177", "CbG", 500)
    }
    assert r.answers and {a.id for a in r.answers} <= shared
    assert "Gene::185" in {a.id for a in r.answers}  # AGTR1, the receptor both block
    # a relation named is compared instead
    assert "compared by their targets" not in helix.ask("losartan vs valsartan side effects").text


def test_a_drugs_common_side_effects_come_before_an_effect_the_sample_records_once() -> None:
    rare = Signals(degree=1, population=900, commonest_first=True, common_first=True)
    common = Signals(degree=40, population=900, commonest_first=True, common_first=True)
    assert evidence_score(common) > evidence_score(rare)
    # elsewhere the specific answer still leads
    assert evidence_score(Signals(degree=1, population=900)) > evidence_score(
        Signals(degree=40, population=900)
    )


def test_lower_case_initials_after_a_class_asked_for_them_are_the_disease(helix: Any) -> None:
    linked = helix.link("retinoids for ra")
    assert [e.kind for e in linked] == ["Pharmacologic Class", "Disease"]
    assert linked[1].name == "rheumatoid arthritis"
    # two letters after a class in other words are no initials
    assert [e.kind for e in helix.link("retinoids are for ra")] == ["Pharmacologic Class"]


def test_a_pasted_note_whose_question_names_nothing_asks_it_of_the_notes_disease(
    helix: Any,
) -> None:
    note = (
        "Clinic letter: 40F, longstanding psoriasis. Plaques on elbows and knees. Topical "
        "steroids only. Bloods normal. Mother also had psoriasis. any genes worth testing for?"
    )
    r = helix.ask(note)
    assert r.status is Status.ANSWERED
    assert {t[1] for p in r.paths for t in p} == {"DaG"}
    assert "about psoriasis" in r.text


def test_a_medical_emergency_is_said_to_be_beyond_the_sources(helix: Any) -> None:
    r = helix.ask("my chest has been hurting for an hour and my left arm is numb what do i do")
    assert r.status is Status.NOT_ANSWERED and r.intent == "out_of_scope"
    assert "call your local emergency number" in r.text
    assert helix.ask("what does metformin treat").intent != "out_of_scope"
