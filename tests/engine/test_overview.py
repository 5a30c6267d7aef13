"""engine.agent.overview: which relations an overview of a node reads."""

from __future__ import annotations

import pytest

from engine.agent.overview import OVERVIEW_USES, overview_dist


def _keys(dist: list) -> list[str]:
    return [mp.uses[0].key for mp, _ in dist]


def test_an_overview_reads_the_kinds_most_telling_relations_most_telling_first() -> None:
    dist = overview_dist("Compound")
    assert _keys(dist) == list(OVERVIEW_USES["Compound"])
    assert sum(p for _, p in dist) == pytest.approx(1.0)
    assert dist[0][1] > dist[-1][1]


def test_an_overview_reads_only_the_relations_the_node_has() -> None:
    """A drug known to the graph only by its look-alikes: its overview lists those instead of
    finding no path."""
    dist = overview_dist("Compound", lambda u: u.key == "CrC")
    assert _keys(dist) == ["CrC"] and dist[0][1] == pytest.approx(1.0)
    assert _keys(overview_dist("Compound", lambda u: False)) == list(OVERVIEW_USES["Compound"])


@pytest.mark.integration
def test_an_overview_of_a_node_without_the_usual_relations_answers(helix) -> None:
    """A node with none of the four relations an overview of its kind reads first (for a
    disease: its drugs, symptoms, genes and look-alikes), but another one."""
    store = helix.c.store

    def odd(nid: str) -> bool:
        uses = [mp.uses[0] for mp, _ in overview_dist(store.kind(nid))]
        has = [store.degree(store.index[nid], u) > 0 for u in uses]
        return len(has) > 4 and not any(has[:4]) and any(has[4:])

    seed = next(nid for nid in store.ids if odd(nid))
    result = helix.ask(f"Give me an overview of {store.name(seed)}.")
    assert result.status.value == "ANSWERED" and result.answers, result.text
