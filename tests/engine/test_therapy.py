"""The therapy reading: treats widened to treats and palliates, answers grouped by relation."""

from __future__ import annotations

from typing import Any

from engine.agent.therapy import (
    asks_remedy,
    asks_therapy,
    explains_therapy,
    grouped,
    in_groups,
    therapy_dist,
)
from engine.graph.metapaths import Metapath
from engine.graph.relations import DirectedRel
from engine.result import Answer, Status
from engine.understand.lexicon import STRONG, WEAK, Cue


def hop(rel: str, src: str, dst: str, inverse: bool = False) -> Metapath:
    return Metapath((DirectedRel(rel, inverse, src, dst),))


TREATED_BY = hop("CtD", "Disease", "Compound", inverse=True)
PALLIATED_BY = hop("CpD", "Disease", "Compound", inverse=True)
GENES = hop("DaG", "Disease", "Gene")
ONE_HOPS = [TREATED_BY, PALLIATED_BY, GENES]


def test_treats_is_walked_with_palliates_treats_ahead() -> None:
    dist = therapy_dist([(TREATED_BY, 0.9), (GENES, 0.1)], ONE_HOPS)
    assert dist is not None
    (first, p1), (second, p2), (third, p3) = dist
    assert (first, second, third) == (TREATED_BY, PALLIATED_BY, GENES)
    assert p1 > p2 > 0 and abs(p1 + p2 - 0.9) < 1e-9 and p3 == 0.1


def test_other_readings_and_palliates_alone_are_left_as_they_are() -> None:
    assert therapy_dist([(GENES, 1.0)], ONE_HOPS) is None
    assert therapy_dist([(PALLIATED_BY, 1.0)], ONE_HOPS) is None
    assert therapy_dist([], ONE_HOPS) is None
    assert therapy_dist([(TREATED_BY, 1.0)], [TREATED_BY]) is None  # no palliates relation


def test_answers_and_paths_in_groups() -> None:
    answers = [Answer(id=i, name=i, score=1.0) for i in ("a", "b", "c")]
    groups = grouped(answers, {"b"})
    assert [a.id for a in groups.treats] == ["b"]
    assert [a.id for a in groups.palliates] == ["a", "c"]
    paths = [[("a", "CpD", "D")], [("b", "CtD", "D")], [("c", "CpD", "D")]]
    _, ordered = in_groups(answers, paths, {"b"})
    assert [p[0][0] for p in ordered] == ["b", "a", "c"]


def test_a_therapy_is_asked_in_strong_words_and_explained_by_a_reading_that_walks_it() -> None:
    assert asks_therapy([Cue(("CtD",), 0, 5, "treat", STRONG)])
    assert not asks_therapy([Cue(("CtD",), 0, 4, "used for", WEAK)])
    # a remedy: in weak words too when they name no other relation
    assert asks_remedy([Cue(("CtD",), 0, 4, "used for", WEAK)])
    assert not asks_remedy(
        [Cue(("CtD",), 0, 4, "used for", WEAK), Cue(("DpS",), 9, 12, "sx", STRONG)]
    )
    assert not asks_remedy([])
    # "what genes help the body carry out X" asks for genes, not for a remedy
    assert not asks_remedy([Cue(("CtD",), 11, 15, "help", WEAK)], "Gene")
    assert asks_remedy([Cue(("CtD",), 11, 15, "help", WEAK)], "Compound")
    assert explains_therapy([(Metapath((*TREATED_BY.uses,)), 1.0)])
    caused = hop("CcSE", "Side Effect", "Compound", inverse=True)
    assert not explains_therapy([(caused, 1.0)])


def test_a_disease_only_relieved_by_drugs_answers_with_them(helix) -> None:  # type: ignore[no-untyped-def]
    from engine.result import Status

    con = helix.c.store.con
    rows = con.execute(
        """SELECT n.id, n.name FROM nodes n WHERE n.kind = 'Disease'
           AND EXISTS (SELECT 1 FROM triples t WHERE t.obj = n.id AND t.rel = 'CpD')
           AND NOT EXISTS (SELECT 1 FROM triples t WHERE t.obj = n.id AND t.rel = 'CtD')
           ORDER BY n.name"""
    ).fetchall()
    assert rows, "the slice has a disease that drugs only palliate"
    disease, name = rows[0]
    relieving = {
        s
        for (s,) in con.execute(
            "SELECT subj FROM triples WHERE obj = ? AND rel = 'CpD'", [disease]
        ).fetchall()
    }
    result = helix.ask(f"what can I give for {name}")
    assert result.status == Status.ANSWERED, result.text
    assert result.answers and {a.id for a in result.answers} <= relieving
    assert "symptomatic (palliates)" in result.text


def test_does_a_drug_treat_a_disease_it_only_relieves_says_yes_with_that_edge(
    helix: Any,
) -> None:
    row = helix.c.store.con.execute(
        "SELECT a.name, b.name FROM triples t JOIN nodes a ON a.id = t.subj "
        "JOIN nodes b ON b.id = t.obj WHERE t.rel = 'CpD' AND NOT EXISTS (SELECT 1 FROM "
        "triples u WHERE u.subj = t.subj AND u.obj = t.obj AND u.rel = 'CtD') "
        "ORDER BY a.name, b.name LIMIT 1"
    ).fetchone()
    assert row is not None, "the slice has a drug that only relieves a disease"
    drug, disease = row
    r = helix.ask(f"does {drug} treat {disease}?")
    assert r.intent == "claim" and r.status is Status.ANSWERED, r.text
    assert "palliates" in r.text
