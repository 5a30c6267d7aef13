"""Disease coverage on real stores: the opt-in Orphanet layer (ORPHA -> DOID through DO's xrefs
or MONDO, one-to-one only) and DISEASES rows that used to be lost in mapping (a protein named
by its Ensembl id, a gene named by its nomenclature-authority symbol, an obsolete DOID)."""

from __future__ import annotations

from pathlib import Path

from engine.config import Settings
from engine.graph.stats import kg_stats
from engine.graph.store import KGStore
from engine.ingest.build import ingest
from engine.ingest.orphanet import link_detail
from tests.support.layers import INS, NEW_DISEASE, hash_embedder, write_pack

PARENT = "Disease::DOID:0050002"  # 'zorbian disease' in write_pack's DO terms
MT_ATP6 = "Gene::4508"  # NCBI symbol ATP6, HGNC symbol MT-ATP6


def write_orphanet(data: Path) -> None:
    x = data / "kg_extra"
    (x / "orphanet_2017").mkdir(parents=True, exist_ok=True)
    (x / "orphanet_2017/rare_dise_gene_links.tsv").write_text(
        "dise_orpha_id\tdise_name\tlink_status\tlink_type\tgene_name\thgnc_id\tsymbol\tentrez_id\n"
        "999\tZorbian syndrome type O\tAssessed\tDisease-causing germline mutation(s) in"
        "\tinsulin\t6081\tINS\t3630\n"
        "555\tZorbian disease\tAssessed\tMajor susceptibility factor in\tinsulin\t6081\tINS\t\n"
        "777\tZorbian syndrome type O\tNot yet assessed\tCandidate gene tested in\tinsulin"
        "\t6081\tINS\t3630\n"
        "888\tUnmapped rare disease\tAssessed\tBiomarker tested in\tinsulin\t6081\tINS\t3630\n"
    )
    mondo = x / "mondo_mappings"
    header = (
        "# license: CC0\nsubject_id\tsubject_label\tpredicate_id\tobject_id\tobject_label\t"
        "mapping_justification\n"
    )
    (mondo / "mondo_exactmatch_orphanet.sssom.tsv").write_text(
        header + "MONDO:0099998\tzorbian disease\tskos:exactMatch\tOrphanet:555\tz\tm\n"
    )
    with (mondo / "mondo_exactmatch_doid.sssom.tsv").open("a") as fh:
        fh.write("MONDO:0099998\tzorbian disease\tskos:exactMatch\tDOID:0050002\tz\tm\n")
    # DISEASES rows the mapping used to lose
    jensen = x / "diseases_jensen/human_disease_knowledge_filtered_2022.tsv"
    with jensen.open("a") as fh:
        fh.write("ENSP1\tENSP1\tDOID:0050002\tZorbian disease\tUniProtKB-KW\tCURATED\t4\n")
        fh.write("ENSP9\tMT-ATP6\tDOID:0050002\tZorbian disease\tMedlinePlus\tCURATED\t5\n")
        fh.write("ENSP1\tINS\tDOID:9999999\tZorbian syndrome\tAmyCo\tCURATED\t3\n")
        fh.write("ENSP1\tINS\tDOID:9999998\tNo such term\tMedlinePlus\tCURATED\t3\n")


def test_link_types_read_as_details() -> None:
    assert link_detail("Disease-causing germline mutation(s) in") == (
        "disease-causing germline mutation(s)"
    )
    assert link_detail("Major susceptibility factor in") == "major susceptibility factor"


def test_orphanet_layer_and_recovered_diseases_rows(
    layer_settings: Settings, layer_data: Path
) -> None:
    settings = layer_settings
    write_pack(layer_data)
    write_orphanet(layer_data)
    report = ingest(settings, layers=["disease-pack", "orphanet"], embedder_factory=hash_embedder)
    pack, orpha = report.layers["disease-pack"], report.layers["orphanet"]
    assert pack["remapped"] == {
        "DISEASES 2022: obsolete DOID, by disease name": 1,
        "DrugCentral indication: no DOID, by its Disease Ontology name": 1,
    }
    assert pack["skipped"]["DISEASES 2022: DOID not in the Disease Ontology"] == 1
    assert orpha["triples"] == {"Orphanet 2017": 2}
    assert orpha["skipped"] == {
        "Orphanet 2017: link not yet assessed": 1,
        "Orphanet 2017: ORPHA code without a one-to-one DOID": 1,
    }

    store = KGStore(settings.kg_path)
    assert store.layers == ("hetionet", "disease-pack", "orphanet")
    # DO's ORDO xref, then MONDO's chain, each with Orphanet's link type
    by_do = (NEW_DISEASE, "DaG", INS)
    assert "Orphanet 2017: disease-causing germline mutation(s)" in [
        s.label for s in store.edge_sources([by_do])[by_do]
    ]
    by_mondo = (PARENT, "DaG", INS)
    labels = [s.label for s in store.edge_sources([by_mondo])[by_mondo]]
    assert "Orphanet 2017: major susceptibility factor" in labels
    # the protein named by its Ensembl id, and the obsolete DOID named 'Zorbian syndrome'
    assert "DISEASES 2022: UniProtKB-KW, score 4" in labels
    assert "DISEASES 2022: AmyCo, MedlinePlus, score 5" in [
        s.label for s in store.edge_sources([by_do])[by_do]
    ]
    assert store.triples_of(PARENT, "DaG") == [(PARENT, "DaG", INS), (PARENT, "DaG", MT_ATP6)]

    # opt-in and separable: without the layer, its edges and names are gone
    no_orpha = KGStore(settings.kg_path, layers={"hetionet", "disease-pack"})
    assert [s.layer for s in no_orpha.edge_sources([by_mondo])[by_mondo]] == ["disease-pack"]
    aliases = [r[2] for r in store.alias_rows() if r[1] == NEW_DISEASE]
    assert "Zorbian syndrome type O" in aliases
    assert "Zorbian syndrome type O" not in [r[2] for r in no_orpha.alias_rows()]

    stats = kg_stats(settings.kg_path)
    assert list(stats.coverage) == ["hetionet", "hetionet+disease-pack", "all"]
    assert (
        stats.coverage["all"].diseases_with_gene
        == stats.coverage["hetionet+disease-pack"].diseases_with_gene
    )  # both diseases already had DISEASES genes
    assert stats.edges["orphanet"] == {"DaG": 2}
