"""Names the graph lacks read as its nearest diseases by the Disease Ontology hierarchy."""

from __future__ import annotations

from pathlib import Path

from engine.ingest.nearest import BROADER, LABEL, NARROWER, Hierarchy, nearest, nearest_rows

TERMS = [
    ("DOID:4", "disease", ""),
    ("DOID:1", "lupus erythematosus", "disease"),
    ("DOID:2", "systemic lupus erythematosus", "lupus erythematosus"),
    ("DOID:3", "discoid lupus", "lupus erythematosus"),
    ("DOID:10", "epilepsy", "disease"),
    ("DOID:11", "status epilepticus", "epilepsy"),
    ("DOID:12", "absence status", "status epilepticus"),
    ("DOID:20", "cancer", "disease"),
    *[(f"DOID:3{i}", f"cancer {i}", "cancer") for i in range(5)],
]
GRAPH = {"DOID:2", "DOID:10", *{f"DOID:3{i}" for i in range(5)}}


def hierarchy(tmp_path: Path) -> Hierarchy:
    path = tmp_path / "HumanDO.tsv"
    lines = ["id\tlabel\tsubClassOf", *("\t".join(f'"{x}"' for x in t) for t in TERMS)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Hierarchy.read(path)


def test_a_term_stands_for_the_graph_diseases_under_it_else_the_nearest_above(
    tmp_path: Path,
) -> None:
    h = hierarchy(tmp_path)
    assert nearest(h, "DOID:1", GRAPH) == (["DOID:2"], NARROWER)
    assert nearest(h, "DOID:11", GRAPH) == (["DOID:10"], BROADER)
    assert nearest(h, "DOID:12", GRAPH) == (["DOID:10"], BROADER)  # two levels up
    assert nearest(h, "DOID:20", GRAPH) is None  # five graph diseases under it: a group
    assert nearest(h, "DOID:3", GRAPH) is None  # nothing near in the graph


def test_rows_carry_every_name_of_a_term_and_the_label_of_graph_diseases(tmp_path: Path) -> None:
    h = hierarchy(tmp_path)
    rows = set(nearest_rows(h, [("DOID:1", "lupus"), ("DOID:11", "SE")], GRAPH))
    assert ("lupus", "Disease::DOID:2", NARROWER) in rows
    assert ("lupus erythematosus", "Disease::DOID:2", NARROWER) in rows
    assert ("SE", "Disease::DOID:10", BROADER) in rows
    assert ("systemic lupus erythematosus", "Disease::DOID:2", LABEL) in rows
    assert not any(node == "Disease::DOID:3" for _, node, _ in rows)
