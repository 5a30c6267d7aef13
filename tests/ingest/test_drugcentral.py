"""DrugCentral's drugs become graph drugs one for one, and an inactive ingredient (a salt, a
buffer) does not inherit the indications of the product it is part of. Tiny files in the
export's own format."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.ingest.drugcentral import (
    RENAMED,
    DrugMap,
    Inactive,
    class_key,
    head_doid,
    indications,
    qualifier_words,
    targets,
)
from engine.ingest.layers import GeneInfo, LayerReport

IDENTIFIERS = [
    # a steroid, its sodium phosphate salt form (DrugCentral lists the parent's DrugBank id)
    # and the salt alone, which DrugBank keeps as two entries
    ("10", "prednisolone", "DB00860"),
    ("11", "prednisolone sodium phosphate", "DB00860"),
    ("12", "sodium phosphate", "DB09449"),
    ("12", "sodium phosphate", "DB09127"),
    # aspirin lists salicylic acid's id beside its own; calcium carbonate buffers it
    ("74", "acetylsalicylic acid", "DB00936"),
    ("74", "acetylsalicylic acid", "DB00945"),
    ("75", "salicylic acid", "DB00936"),
    ("4239", "calcium carbonate", "DB06724"),
    ("50", "famotidine", "DB00927"),
    # one drug, two DrugBank entries
    ("4927", "albiglutide", "DB09043"),
    ("4927", "albiglutide", "DB05162"),
    # the graph has one of the two; and two of theophylline's, one by its own name
    ("4171", "eribulin", "DB04940"),
    ("4171", "eribulin", "DB08871"),
    ("2620", "theophylline", "DB01223"),
    ("2620", "theophylline", "DB00277"),
]
INDICATIONS = [
    ("10", "prednisolone", "Bronchial Asthma", "C0004096", "DOID:2841"),
    ("10", "prednisolone", "Psoriasis", "C0033860", "DOID:8893"),
    ("11", "prednisolone sodium phosphate", "Bronchial Asthma", "C0004096", "DOID:2841"),
    ("12", "sodium phosphate", "Bronchial Asthma", "C0004096", "DOID:2841"),
    ("12", "sodium phosphate", "Psoriasis", "C0033860", "DOID:8893"),
    ("12", "sodium phosphate", "Hypophosphatemia", "C0085682", "DOID:0050439"),
    ("12", "sodium phosphate", "Bowel Evacuation", "C0426639", ""),
    ("74", "acetylsalicylic acid", "Myocardial Infarction", "C0027051", "DOID:5844"),
    ("4239", "calcium carbonate", "Myocardial Infarction", "C0027051", "DOID:5844"),
    ("4239", "calcium carbonate", "Gastroesophageal Reflux", "C0017168", "DOID:8534"),
    ("50", "famotidine", "Gastroesophageal Reflux", "C0017168", "DOID:8534"),
    ("4927", "albiglutide", "Type 2 Diabetes Mellitus", "C0011860", "DOID:9352"),
    ("4171", "eribulin", "Breast Cancer", "C0006142", "DOID:1612"),
    ("2620", "theophylline", "Bronchial Asthma", "C0004096", "DOID:2841"),
]
TARGETS = [
    ("10", "prednisolone", "NR3C1", "NR3C1_HUMAN", "AGONIST"),
    ("74", "acetylsalicylic acid", "PTGS1", "PGH1_HUMAN", "INHIBITOR"),
    ("50", "famotidine", "HRH2", "HRH2_HUMAN", "ANTAGONIST"),
    ("4927", "albiglutide", "GLP1R", "GLP1R_HUMAN", "AGONIST"),
]
CLASSES = [
    ("10", "prednisolone", "EPC", "Corticosteroid"),
    ("74", "acetylsalicylic acid", "PA", "Platelet Aggregation Inhibitors"),
    ("50", "famotidine", "PA", "Gastrointestinal Agents"),
    ("4239", "calcium carbonate", "PA", "Gastrointestinal Agents"),
    ("4239", "calcium carbonate", "has role", "food firming agent"),
    ("2620", "theophylline", "EPC", "Methylxanthine"),
]
GRAPH = {
    "Compound::DB00860": "Prednisolone",
    "Compound::DB00945": "Aspirin",
    "Compound::DB00936": "Salicylic acid",
    "Compound::DB08871": "Eribulin",
    "Compound::DB00277": "Theophylline",
    "Compound::DB01223": "Aminophylline",
}


def _write(path: Path, header: str, rows: list[str]) -> Path:
    path.write_text(header + "\n" + "".join(r + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    return {
        "identifiers": _write(
            tmp_path / "identifiers.tsv",
            "DRUG_ID\tDRUG_NAME\tID_TYPE\tIDENTIFIER",
            [f'{d}\t"{n}"\t"DRUGBANK_ID"\t"{x}"' for d, n, x in IDENTIFIERS]
            + ['10\t"prednisolone"\t"UNII"\t"9PHQ9Y1OLM"'],
        ),
        "indications": _write(
            tmp_path / "drug_indication.tsv",
            "DRUG_ID\tDRUG_NAME\tINDICATION_FDB\tUMLS_CUI\tSNOMEDCT_CUI\tDOID",
            [f"{d}\t{n}\t{i}\t{u}\t1\t{doid}" for d, n, i, u, doid in INDICATIONS],
        ),
        "targets": _write(
            tmp_path / "drug_target.tsv",
            "DRUG_ID\tCHEMBL_ID\tDRUG_NAME\tTARGET_NAME\tTARGET_FAMILY\tUNIPROT\tGENE\tSWISSPROT"
            "\tACTION_TYPE\tSOURCE\tREFERENCE",
            [f"{d}\t\t{n}\tt\tf\tP1\t{g}\t{sp}\t{a}\tX\t" for d, n, g, sp, a in TARGETS],
        ),
        "classes": _write(
            tmp_path / "pharm_class.tsv",
            "DRUG_ID\tDRUG_NAME\tTYPE\tCLASS_SOURCE_ID\tCLASS\tSOURCE",
            [f"{d}\t{n}\t{t}\tX1\t{c}\tMeSH" for d, n, t, c in CLASSES],
        ),
    }


def _build(files: dict[str, Path]) -> tuple[LayerReport, DrugMap, set[tuple[str, str, str]]]:
    report = LayerReport("disease-pack")
    wanted = {d for d, *_ in INDICATIONS} | {d for d, *_ in TARGETS}
    drugs = DrugMap.read(files["identifiers"], wanted, GRAPH, report)
    inactive = Inactive.read(files["indications"], files["targets"], files["classes"], drugs)
    nodes, rows = indications(files["indications"], drugs, inactive, report)
    genes = GeneInfo(
        {"NR3C1": "2908", "PTGS1": "5742", "HRH2": "3274", "GLP1R": "2740"},
        {"2908": "NR3C1", "5742": "PTGS1", "3274": "HRH2", "2740": "GLP1R"},
    )
    n2, t2 = targets(files["targets"], drugs, genes, report)
    assert {n for n, _, kind in nodes + n2 if kind == "Compound"} == {s for s, *_ in rows + t2}
    return report, drugs, {(s, r, o) for s, r, o, *_ in rows + t2}


def test_a_salt_product_is_its_active_drug_and_the_salt_alone_keeps_only_its_own_use(
    files: dict[str, Path],
) -> None:
    report, drugs, triples = _build(files)
    steroid = "Compound::DB00860"
    # the "... sodium phosphate" product states asthma of prednisolone, the graph's drug
    assert drugs.node["11"] == steroid
    assert (steroid, "CtD", "Disease::DOID:2841") in triples
    # the salt alone: one graph drug for its two DrugBank entries; the steroid's asthma and
    # psoriasis are not its own, hypophosphatemia (no drug with a mechanism states it) is
    salt = drugs.node["12"]
    assert salt == "Compound::DB09127" and drugs.merged[salt] == ["DB09449"]
    assert {(s, o) for s, r, o in triples if s == salt} == {(salt, "Disease::DOID:0050439")}
    assert drugs.names[salt] == "Sodium phosphate"
    reason = next(k for k in report.skipped if "inactive ingredient" in k)
    assert report.skipped[reason] == 3  # salt: asthma, psoriasis; buffer: infarction


def test_a_combination_products_buffer_keeps_what_its_class_explains(
    files: dict[str, Path],
) -> None:
    report, drugs, triples = _build(files)
    buffer = drugs.node["4239"]
    # calcium carbonate: reflux, which its gastrointestinal class's drugs treat, stays;
    # myocardial infarction, aspirin's, goes
    assert {o for s, _, o in triples if s == buffer} == {"Disease::DOID:8534"}
    # aspirin's infarction is on aspirin, not on salicylic acid, whose id it lists too
    assert ("Compound::DB00945", "CtD", "Disease::DOID:5844") in triples
    assert not any(s == "Compound::DB00936" for s, *_ in triples)
    assert report.skipped["DrugCentral: a DrugBank id other drugs list too, left to them"] == 1


def test_duplicate_drugbank_entries_are_one_graph_drug(files: dict[str, Path]) -> None:
    report, drugs, triples = _build(files)
    albiglutide = drugs.node["4927"]
    assert albiglutide == "Compound::DB05162"  # neither is in the graph: the lowest id
    assert {s for s, *_ in triples if drugs.names.get(s) == "Albiglutide"} == {albiglutide}
    assert (albiglutide, "CbG", "Gene::2740") in triples
    # the graph's own drug wins; of two graph drugs, the one of the same name
    assert drugs.node["4171"] == "Compound::DB08871"
    assert drugs.node["2620"] == "Compound::DB00277"
    assert sorted(drugs.xrefs()) == [
        ("DRUGBANK:DB01223", "Compound::DB00277"),
        ("DRUGBANK:DB04940", "Compound::DB08871"),
        ("DRUGBANK:DB09043", "Compound::DB05162"),
        ("DRUGBANK:DB09449", "Compound::DB09127"),
    ]
    assert report.merged["DrugCentral: a drug's other DrugBank ids, merged"] == 4


HEADS = {
    class_key(name): doid
    for name, doid in [
        ("Heart Failure", "DOID:6000"),
        ("Tuberculosis", "DOID:399"),
        ("Lymphoma", "DOID:0060058"),
    ]
}


@pytest.mark.parametrize(
    ("name", "doid", "how"),
    [
        ("Schizophrenia", "DOID:5419", "name"),
        ("Chronic Heart Failure", "DOID:6000", "head"),
        ("Acute Decompensated Heart Failure", "DOID:6000", "head"),
        ("Acute Tuberculosis", "DOID:399", "head"),
        # the condition is what comes before "due to": an edema, no heart failure
        ("Pulmonary Edema due to Chronic Heart Failure", "", ""),
        # a negated kind is no kind of it
        ("Non Hodgkin Lymphoma", "", ""),
        # what a drug is for, not what it treats
        ("Diagnostic Test for Tuberculosis", "", ""),
        ("Heart Failure Clinic Visit", "", ""),
    ],
)
def test_an_indication_without_a_doid_is_read_by_the_disease_its_name_ends_with(
    name: str, doid: str, how: str
) -> None:
    named = {"schizophrenia": "DOID:5419"}
    assert head_doid(name, named, {**HEADS, **named}) == (doid, how)


QUALIFIED = [
    "Tuberculosis Prevention",
    "Heart Failure Prevention",
    "Lymphoma Prevention",
    "Lymphoma Treatment Adjunct",
    "Heart Failure Treatment Adjunct",
    "Tuberculosis Treatment Adjunct",
    # a word after one disease's name only: part of another condition's name, not a qualifier
    "Heart Failure Clinic Visit",
]


@pytest.mark.parametrize(
    ("name", "doid", "how"),
    [
        ("Tuberculosis Prevention", "DOID:399", "lead"),
        ("Heart Failure Treatment Adjunct", "DOID:6000", "lead"),
        ("Heart Failure Clinic Visit", "", ""),
        # the rest names another disease: which one is treated is not said
        ("Tuberculosis Prevention in Lymphoma Patients", "", ""),
        # ends with a disease: read by it first
        ("Lymphoma Prevention of Tuberculosis", "DOID:399", "head"),
    ],
)
def test_an_indication_is_read_by_its_first_words_when_the_rest_says_what_about_it(
    name: str, doid: str, how: str
) -> None:
    qualifiers = qualifier_words(QUALIFIED, HEADS)
    assert qualifiers == {"prevention", "treatment"}
    assert head_doid(name, {}, HEADS, qualifiers) == (doid, how)


HEADER = ("DRUG_ID", "DRUG_NAME", "INDICATION_FDB", "UMLS_CUI", "SNOMEDCT_CUI", "DOID")
TABLE_DRUGS = DrugMap(
    node={"50": "Compound::DB00927", "74": "Compound::DB00945", "4239": "Compound::DB06724"},
    names={
        "Compound::DB00927": "Famotidine",
        "Compound::DB00945": "Aspirin",
        "Compound::DB06724": "Calcium carbonate",
    },
    merged={},
)
"""Three drugs of DrugCentral's ids, each with a mechanism of its own (none inactive)."""


def _read(
    tmp_path: Path,
    rows: list[tuple[str, ...]],
    named: dict[str, str],
    broad: frozenset[str] = frozenset(),
) -> tuple[set[tuple[str, str]], LayerReport]:
    """The (drug, disease) pairs ``indications`` reads from ``rows`` of an indication table,
    and its report."""
    path = tmp_path / "drug_indication.tsv"
    path.write_text("".join("\t".join(r) + "\n" for r in [HEADER, *rows]))
    report = LayerReport("disease-pack")
    inactive = Inactive(frozenset(TABLE_DRUGS.node), {}, {}, {}, 3)
    _, triples = indications(path, TABLE_DRUGS, inactive, report, named, broad)
    return {(s, o) for s, _, o, *_ in triples}, report


def test_a_qualified_indication_is_its_diseases_and_a_broad_last_word_is_not(
    tmp_path: Path,
) -> None:
    rows = [
        ("50", "famotidine", "Heart Failure", "C0018801", "", "DOID:6000"),
        ("74", "acetylsalicylic acid", "Chronic Heart Failure", "C0264716", "", ""),
        ("4239", "calcium carbonate", "Acute Coronary Syndrome", "", "", ""),
    ]
    pairs, report = _read(tmp_path, rows, {"syndrome": "DOID:225"}, frozenset({"DOID:225"}))
    assert pairs == {
        ("Compound::DB00927", "Disease::DOID:6000"),
        ("Compound::DB00945", "Disease::DOID:6000"),
    }
    assert report.remapped == {
        "DrugCentral indication: no DOID, by the disease its name ends with": 1
    }
    assert report.skipped["DrugCentral indication: no DOID"] == 1


def test_an_indication_named_as_a_disease_ontology_term_is_that_term_whatever_its_doid(
    tmp_path: Path,
) -> None:
    rows = [
        # filed under the broader arthropathy; the name is osteoarthritis's own
        ("50", "famotidine", "Osteoarthritis", "C0029408", "", "DOID:381"),
        # a name no term has keeps DrugCentral's DOID
        ("74", "acetylsalicylic acid", "Heart Failure Exacerbation", "", "", "DOID:6000"),
    ]
    named = {class_key("Osteoarthritis"): "DOID:8398", class_key("Arthropathy"): "DOID:381"}
    pairs, report = _read(tmp_path, rows, named)
    assert pairs == {
        ("Compound::DB00927", "Disease::DOID:8398"),
        ("Compound::DB00945", "Disease::DOID:6000"),
    }
    assert report.remapped == {RENAMED: 1}
