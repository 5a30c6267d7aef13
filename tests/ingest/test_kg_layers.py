"""Graph layers on real DuckDB stores: the disease pack and KGX graphs added to a Hetionet slice,
layer restriction, provenance, and builds that fail or are killed leaving the stores intact."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine.config import Settings
from engine.graph.stats import kg_stats
from engine.graph.store import KGStore, UnknownLayer
from engine.ingest.build import ingest
from engine.ingest.defaults import build_manifest
from engine.ingest.kgx import KGXInput
from engine.ingest.sources import DataError
from engine.understand.mentions import AliasIndex
from engine.util.text import alias_key
from tests.support.layers import INS, NEW_DISEASE, hash_embedder, write_pack


@pytest.fixture
def data(layer_data: Path) -> Path:
    return layer_data


@pytest.fixture
def settings(layer_settings: Settings) -> Settings:
    return layer_settings


def digest(settings: Settings) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(settings.stores_dir.iterdir())
        if p.is_file()
    }


def test_pack_adds_a_layer_with_sources_and_layers_restrict(settings: Settings, data: Path) -> None:
    compound, disease = write_pack(data)
    report = ingest(settings, layers=["disease-pack"], embedder_factory=hash_embedder)
    pack = report.layers["disease-pack"]
    assert pack["triples"] == {
        "Disease Ontology": 3,  # zorbian syndrome -> zorbian disease -> disease, seed -> disease
        "DISEASES 2022": 1,
        "DISEASES 2015": 1,
        "DistiLD GWAS (DISEASES 2015)": 1,  # the association-study row, not the COSMIC one
        # one indication (also in Hetionet), one by its DO name, one typed target, one class
        # (FDA's and MeSH's names of it are one node; a ChEBI role is no class)
        "DrugCentral": 4,
        "PID": 1,
    }
    assert pack["skipped"]["DISEASES 2015: no DOID"] == 1
    assert pack["skipped"]["DISEASES 2015 experiments: not a GWAS (DistiLD) row"] == 1
    # DISEASES' copy of the row at the study disease's parent is no finding about the parent
    assert pack["skipped"]["DistiLD GWAS: a copy at an ancestor of the study's disease"] == 1
    assert pack["skipped"]["DrugCentral indication: no DOID"] == 1
    assert pack["remapped"]["DrugCentral indication: no DOID, by its Disease Ontology name"] == 1

    everything = KGStore(settings.kg_path)
    hetionet = KGStore(settings.kg_path, layers={"hetionet"})
    assert everything.layers == ("hetionet", "disease-pack")
    # the CtD edge both layers state is one edge of the adjacency, with two sources
    treats = (f"Compound::{compound}", "CtD", f"Disease::{disease}")
    assert everything.n_triples == hetionet.n_triples + 9 - 1
    named = (f"Compound::{compound}", "CtD", NEW_DISEASE)
    assert [s.label for s in everything.edge_sources([named])[named]] == ["DrugCentral"]
    labels = [s.label for s in everything.edge_sources([treats])[treats]]
    assert labels == ["DrugCentral", "hetionet"]
    gene_edge = (NEW_DISEASE, "DaG", INS)
    assert [s.label for s in everything.edge_sources([gene_edge])[gene_edge]] == [
        "DISEASES 2015: GHR, score 4",
        "DISEASES 2022: MedlinePlus, score 5",
        "DistiLD GWAS (DISEASES 2015): DistiLD, score 2",
    ]
    target = (f"Compound::{compound}", "CbG", INS)
    assert "DrugCentral: inhibitor" in [s.label for s in everything.edge_sources([target])[target]]
    member = ("Pharmacologic Class::N1", "PCiC", f"Compound::{compound}")
    assert everything.name(member[0]) == "Seed Blocker"
    assert [s.label for s in everything.edge_sources([member])[member]] == ["DrugCentral: EPC"]
    assert not everything.has("Pharmacologic Class::D1")

    # restricted to Hetionet, the pack's disease is neither a node nor a name
    key = alias_key("zorbian syndrome")
    assert everything.has(NEW_DISEASE) and not hetionet.has(NEW_DISEASE)
    assert [c.node_id for c in AliasIndex(everything).get(key)] == [NEW_DISEASE]
    assert AliasIndex(hetionet).get(key) == []
    with pytest.raises(UnknownLayer):
        KGStore(settings.kg_path, layers={"no-such-layer"})

    stats = kg_stats(settings.kg_path)
    assert stats.nodes["disease-pack"]["Disease"] == 3  # zorbian syndrome, disease, DOID:4
    assert stats.coverage["all"].compounds_with_typed_target == 1
    assert (
        stats.coverage["all"].diseases_with_gene
        == stats.coverage["hetionet"].diseases_with_gene + 1
    )


KGX_NODES = (
    "id\tcategory\tname\tsynonym\n"
    "MONDO:0099999\tbiolink:Disease|biolink:NamedThing\tZorbian syndrome (MONDO)\tZS\n"
    "NCBIGene:3630\tbiolink:Gene\tINS\t\n"
    "HP:0000001\tbiolink:PhenotypicFeature\tblue toes\t\n"
    "HP:0000001\tbiolink:PhenotypicFeature\tblue toes again\t\n"
    "X:1\tnot-a-category\tmystery\t\n"
)
KGX_EDGES = (
    "subject\tpredicate\tobject\tprimary_knowledge_source\n"
    "NCBIGene:3630\tbiolink:causes\tMONDO:0099999\tinfores:omim\n"
    "MONDO:0099999\tbiolink:has_phenotype\tHP:0000001\tinfores:hpo\n"
    "MONDO:0099999\tbiolink:has_mode_of_inheritance\tHP:0000001\t\n"
    "MONDO:0099999\tbiolink:has_phenotype\tHP:9999999\t\n"
)


def test_a_build_with_no_layer_named_adds_the_disease_pack(data: Path, tmp_path: Path) -> None:
    write_pack(data)
    default = Settings(home=tmp_path / "default", data_dir=data)
    report = ingest(default, embedder_factory=hash_embedder)
    assert list(report.layers) == ["disease-pack"]
    assert KGStore(default.kg_path).layers == ("hetionet", "disease-pack")
    roles = {f.role for f in build_manifest(default).files}
    assert {"nodes", "drugcentral_classes"} <= roles and "orphanet_genes" not in roles
    bare = Settings(home=tmp_path / "bare", data_dir=data, build_layers="")
    assert ingest(bare, embedder_factory=hash_embedder).layers == {}
    assert KGStore(bare.kg_path).layers == ("hetionet",)


def test_kgx_joins_existing_nodes_and_reports_what_it_skipped(
    settings: Settings, data: Path, tmp_path: Path
) -> None:
    write_pack(data)
    ingest(settings, layers=["disease-pack"], embedder_factory=hash_embedder)
    (tmp_path / "z_nodes.tsv").write_text(KGX_NODES)
    (tmp_path / "z_edges.tsv").write_text(KGX_EDGES)
    item = KGXInput.from_files(tmp_path / "z_nodes.tsv", tmp_path / "z_edges.tsv")
    assert item.layer == "z"
    report = ingest(settings, layers=[], kgx=[item], embedder_factory=hash_embedder).layers["z"]
    assert report["joined"] == 2  # MONDO via the pack's mappings, NCBIGene by id
    assert report["nodes"] == {"Symptom": 1}
    assert report["skipped"] == {
        "duplicate node id": 1,
        "node category missing or not biolink:": 1,
        "edge end not among the nodes (dangling)": 1,
    }
    store = KGStore(settings.kg_path)
    gene_edge = (NEW_DISEASE, "DaG", INS)  # biolink:causes Gene -> Disease is Hetionet's DaG
    assert "z: omim" in [s.label for s in store.edge_sources([gene_edge])[gene_edge]]
    assert store.triples_of(NEW_DISEASE, "DpS") == [(NEW_DISEASE, "DpS", "Symptom::HP:0000001")]
    assert store.triples_of(NEW_DISEASE, "has_mode_of_inheritance")  # a relation of its own


def test_malformed_kgx_is_rejected_and_leaves_the_stores_as_they_were(
    settings: Settings, tmp_path: Path
) -> None:
    before = digest(settings)
    (tmp_path / "bad_nodes.tsv").write_text("id\tname\nNCBIGene:3630\tINS\n")
    (tmp_path / "bad_edges.tsv").write_text(KGX_EDGES)
    item = KGXInput.from_files(tmp_path / "bad_nodes.tsv", tmp_path / "bad_edges.tsv")
    with pytest.raises(DataError, match="missing column\\(s\\) category"):
        ingest(settings, layers=[], kgx=[item], embedder_factory=hash_embedder)
    assert digest(settings) == before
    assert not list(settings.stores_dir.glob("*.building*"))


KILLER = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from engine.config import Settings
    from engine.ingest.build import ingest

    class Killer:
        name = "killer"
        def encode(self, texts, progress=None):
            os.kill(os.getpid(), signal.SIGKILL)
        def close(self):
            pass

    s = Settings(home=Path(sys.argv[1]), data_dir=Path(sys.argv[2]))
    ingest(s, layers=["disease-pack"], embedder_factory=lambda _: Killer())
    """
)

WAL_WRITER = textwrap.dedent(
    """
    import os, sys, duckdb
    con = duckdb.connect(sys.argv[1])
    con.execute("PRAGMA disable_checkpoint_on_shutdown")
    con.execute("INSERT OR REPLACE INTO meta VALUES ('killed-writer', 'yes')")
    os._exit(0)
    """
)


def test_kill_during_embedding_and_a_stale_wal_leave_a_working_home(
    settings: Settings, data: Path
) -> None:
    write_pack(data)
    before = digest(settings)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    run = subprocess.run(
        [sys.executable, "-c", KILLER, str(settings.home), str(data)], env=env, check=False
    )
    assert run.returncode == -signal.SIGKILL
    after = {k: v for k, v in digest(settings).items() if ".building" not in k}
    assert after == before  # the live stores were never touched
    subprocess.run([sys.executable, "-c", WAL_WRITER, str(settings.kg_path)], check=True)
    assert settings.kg_path.with_name("kg.duckdb.wal").exists()
    report = ingest(settings, layers=["disease-pack"], embedder_factory=hash_embedder)
    assert "write-ahead log" in report.steps["recovered"]
    assert not settings.kg_path.with_name("kg.duckdb.wal").exists()
    assert not list(settings.stores_dir.glob("*.building*"))
    assert KGStore(settings.kg_path).has(NEW_DISEASE)


def test_a_class_is_one_node_however_a_vocabulary_words_it() -> None:
    from engine.ingest.drugcentral import class_key

    assert class_key("Factor Xa Inhibitor") == class_key("Factor Xa Inhibitors")
    assert class_key("beta-Adrenergic Blocker") == "beta adrenergic blocker"
    # a word that ends in "ss" or is short keeps its last letter
    assert class_key("Antihypertensive Class") == "antihypertensive class"
    assert class_key("Gas") == "gas"
