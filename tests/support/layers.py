"""Helpers for tests on layered stores: a deterministic embedder, tiny disease-pack files
written into a data slice, and fixtures for a Hetionet slice home that layers are added to
(import the fixtures in a conftest: ``from tests.support.layers import layer_data, ...``)."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import numpy as np
import pytest

from engine.config import Settings
from engine.ingest.build import ingest

NEW_DISEASE = "Disease::DOID:0050001"
INS = "Gene::3630"


class HashEmbedder:
    """Deterministic unit vectors from text hashes: the stores need vectors, not meaning."""

    name = "hash"

    def encode(self, texts: list[str], progress: object = None) -> np.ndarray:
        out = np.zeros((len(texts), 8), dtype=np.float32)
        for i, t in enumerate(texts):
            seed = int.from_bytes(hashlib.sha256(t.encode()).digest()[:4], "little")
            out[i] = np.random.default_rng(seed).normal(size=8)
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    def close(self) -> None:
        return None


def hash_embedder(settings: Settings) -> HashEmbedder:
    return HashEmbedder()


def _treats_pair(data: Path) -> tuple[str, str]:
    path = data / "kg_hetionet/edges_full_16_metaedges/Compound_Treats_Disease.tsv"
    compound, disease = path.read_text().splitlines()[1].split("\t")[:2]
    return compound, disease


def write_pack(data: Path) -> tuple[str, str]:
    """Tiny disease-pack files; returns the (compound, disease) of a Hetionet CtD edge that
    DrugCentral states too."""
    compound, disease = _treats_pair(data)
    x = data / "kg_extra"
    for d in (
        "disease_ontology",
        "mondo_mappings",
        "diseases_jensen",
        "drugcentral_2016",
        "pathways",
    ):
        (x / d).mkdir(parents=True, exist_ok=True)
    (x / "disease_ontology/HumanDO.tsv").write_text(
        "id\tlabel\tsubClassOf\n"
        '"DOID:4"\t"disease"\t"disease"\n'
        '"DOID:0050001"\t"zorbian syndrome"\t"zorbian disease"\n'
        '"DOID:0050002"\t"zorbian disease"\t"disease"\n'
        f'"{disease}"\t"seed disease"\t"disease"\n'
    )
    (x / "disease_ontology/allXREFinDO.tsv").write_text(
        'id\tlabel\txref\n"DOID:0050001"\t"zorbian syndrome"\t"ORDO:999"\n'
    )
    (x / "mondo_mappings/mondo_exactmatch_doid.sssom.tsv").write_text(
        "# license: CC0\nsubject_id\tsubject_label\tpredicate_id\tobject_id\tobject_label\t"
        "mapping_justification\nMONDO:0099999\tzorbian\tskos:exactMatch\tDOID:0050001\tz\tm\n"
    )
    (x / "diseases_jensen/human_disease_knowledge_filtered_2022.tsv").write_text(
        "ENSP1\tINS\tDOID:0050001\tZorbian syndrome\tMedlinePlus\tCURATED\t5\n"
    )
    with gzip.open(x / "diseases_jensen/human_disease_knowledge_full_2015.tsv.gz", "wt") as fh:
        fh.write("ENSP1\tINS\tDOID:0050001\tZorbian syndrome\tGHR\tCURATED\t4\n")
        fh.write("ENSP1\tINS\tICD10:Q7\tICD10:Q7\tUniProtKB-KW\tCURATED\t4\n")
    with gzip.open(x / "diseases_jensen/human_disease_experiments_full_2015.tsv.gz", "wt") as fh:
        fh.write("ENSP1\tINS\tDOID:0050001\tZorbian syndrome\tDistiLD\tp-value = 1e-09\t2\n")
        fh.write("ENSP1\tINS\tDOID:0050002\tZorbian disease\tDistiLD\tp-value = 1e-09\t2\n")
        fh.write("ENSP1\tINS\tDOID:0050001\tZorbian syndrome\tCOSMIC\t3 samples\t1\n")
    dc = x / "drugcentral_2016"
    (dc / "identifiers.tsv").write_text(
        f'DRUG_ID\tDRUG_NAME\tID_TYPE\tIDENTIFIER\n1\t"seed"\t"DRUGBANK_ID"\t"{compound}"\n'
    )
    (dc / "drug_indication.tsv").write_text(
        "DRUG_ID\tDRUG_NAME\tINDICATION_FDB\tUMLS_CUI\tSNOMEDCT_CUI\tDOID\n"
        f"1\tseed\tseed disease\tC1\t1\t{disease}\n1\tseed\tsunburn\tC2\t2\t\n"
        "1\tseed\tZorbian Syndromes\tC3\t3\t\n"
    )
    (dc / "drug_target.tsv").write_text(
        "DRUG_ID\tCHEMBL_ID\tDRUG_NAME\tTARGET_NAME\tTARGET_FAMILY\tUNIPROT\tGENE\tSWISSPROT\t"
        "ACTION_TYPE\tSOURCE\tREFERENCE\n1\t\tseed\tInsulin\tHormone\tP01308\tINS\tINS_HUMAN\t"
        "INHIBITOR\tX\t\n"
    )
    (dc / "pharm_class.tsv").write_text(
        "DRUG_ID\tDRUG_NAME\tTYPE\tCLASS_SOURCE_ID\tCLASS\tSOURCE\n"
        "1\tseed\tEPC\tN1\tSeed Blocker\tFDA\n"
        "1\tseed\tPA\tD1\tSeed Blockers\tMeSH\n"
        "1\tseed\thas role\tCHEBI:1\tseed role\tCHEBI\n"
    )
    (x / "pathways/pathways.tsv").write_text(
        "identifier\tname\turl\tn_genes\tn_coding_genes\tsource\tlicense\tgenes\tcoding_genes\n"
        "PC7_99999\tZorb signaling\t\t1\t1\tpid\tCC0 1.0\t3630\t3630\n"
    )
    return compound, disease


@pytest.fixture(scope="module")
def layer_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.support.kgslice import build_slice, source_files

    if source_files() is None:
        pytest.skip("Hetionet data not found: set HELIX_DATA_DIR or run `helix-chat data pull`")
    return build_slice(tmp_path_factory.mktemp("layers") / "data")


@pytest.fixture
def layer_settings(layer_data: Path, tmp_path: Path) -> Settings:
    """A fresh home with the Hetionet layer of the slice, for a test to add layers to."""
    s = Settings(home=tmp_path / "home", data_dir=layer_data)
    ingest(s, layers=[], embedder_factory=hash_embedder)
    return s
