"""A relation the graph holds only a sample of (the slice keeps a sample of the tissues that
express genes): a question that finds none of its edges for the thing asked about says so."""

from __future__ import annotations

from engine.result import Status


def test_no_edge_of_a_sampled_relation_says_the_graph_holds_a_sample(helix) -> None:  # type: ignore[no-untyped-def]
    store = helix.c.store
    assert "AeG" in store.sampled, "the slice keeps a sample of Anatomy-expresses-Gene"
    row = store.con.execute(
        """SELECT n.name FROM nodes n WHERE n.kind = 'Gene'
           AND NOT EXISTS (SELECT 1 FROM triples t WHERE t.obj = n.id AND t.rel = 'AeG')
           AND EXISTS (SELECT 1 FROM triples t WHERE t.obj = n.id AND t.rel = 'CbG')
           ORDER BY n.name LIMIT 1"""
    ).fetchone()
    assert row, "the slice has a drug target with no tissue in the sample"
    gene = row[0]
    r = helix.ask(f"where is {gene} expressed?")
    assert r.status is Status.NOT_ANSWERED, r.text
    s = store.sampled["AeG"]
    assert f"the graph holds a sample of these edges ({s.kept:,} of {s.total:,})" in r.text
    assert "Missing from the sample is no 'no'." in r.text
