"""International drug names come from DrugCentral's identifier table, through the DrugBank id
it states, never by spelling."""

from __future__ import annotations

from pathlib import Path

from engine.ingest.drugnames import SOURCE, inn_names


def _table(tmp_path: Path) -> Path:
    rows = [
        ("52", '"paracetamol"', '"UNII"', '"362O9ITL9D"'),
        ("52", '"paracetamol"', '"DRUGBANK_ID"', '"DB00316"'),
        ("1", '"ibuprofen"', '"DRUGBANK_ID"', '"DB01050"'),
        ("7", '"salbutamol"', '"DRUGBANK_ID"', '"DB09999"'),
        ("8", '"glibenclamide"', '"CHEBI"', '"CHEBI:5441"'),
        ("9", '"dopamine"', '"DRUGBANK_ID"', '"DB00988"'),
        ("10", '"levodopa"', '"DRUGBANK_ID"', '"DB00988"'),
        ("10", '"levodopa"', '"DRUGBANK_ID"', '"DB01235"'),
    ]
    path = tmp_path / "identifiers.tsv"
    path.write_text(
        "DRUG_ID\tDRUG_NAME\tID_TYPE\tIDENTIFIER\n" + "".join("\t".join(r) + "\n" for r in rows),
        encoding="utf-8",
    )
    return path


def test_inn_names_follow_the_stated_drugbank_id(tmp_path: Path) -> None:
    names = {
        "Compound::DB00316": "Acetaminophen",
        "Compound::DB01050": "Ibuprofen",
        "Compound::DB01016": "Glyburide",
        "Compound::DB00988": "Dopamine",
        "Compound::DB01235": "L-DOPA",
    }
    got = list(inn_names(_table(tmp_path), names))
    # ibuprofen is its own name; salbutamol's id is no graph drug; glibenclamide states no id;
    # levodopa also lists dopamine's id, which dopamine claims
    assert got == [
        ("Paracetamol", "Compound::DB00316", SOURCE),
        ("Levodopa", "Compound::DB01235", SOURCE),
    ]
