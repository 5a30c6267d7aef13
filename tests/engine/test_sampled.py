"""Relations the graph holds only a sample of are said so: in the store, in `kg stats` and in
every answer drawn from them. The real slice takes the metaedges without a full edge list from
Hetionet's 5k-per-metaedge sample, cut to its nodes: symptoms (DpS) are among them, while
treats (CtD) and gene associations (DaG) come whole from their full edge lists."""

from __future__ import annotations

from typing import Any

from engine.config import Settings
from engine.graph.stats import kg_stats


def test_the_store_knows_which_relations_are_a_sample(helix: Any) -> None:
    sampled = helix.c.store.sampled
    assert "DpS" in sampled
    assert sampled["DpS"].kept < sampled["DpS"].total
    assert "CtD" not in sampled and "DaG" not in sampled  # full edge lists


def test_kg_stats_marks_them(small_settings: Settings) -> None:
    st = kg_stats(small_settings.kg_path)
    assert "DpS" in st.sampled and st.sampled["DpS"]["total"] > st.sampled["DpS"]["kept"]
    assert "CtD" not in st.sampled


def test_an_answer_from_a_sampled_relation_says_it_is_no_complete_list(helix: Any) -> None:
    r = helix.ask("what are the symptoms of Parkinson's disease")
    assert any(t[1] == "DpS" for p in r.paths for t in p)
    assert "not a complete list" in r.text
    drugs = helix.ask("which drugs treat Parkinson's disease")
    assert drugs.paths and "not a complete list" not in drugs.text
