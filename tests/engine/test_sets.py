"""Set questions: what two things of one kind both have, or what one has and the other lacks
(the words that join them; the real engine slice for the answers)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.result import Status
from engine.understand.sets import (
    ANY,
    BOTH,
    BUT_NOT,
    asks_common,
    list_operation,
    listed,
    says,
    set_operation,
)


def op(question: str, a: str, b: str) -> str | None:
    i = question.index(a)
    j = question.index(b, i + len(a))
    return set_operation(question, (i, i + len(a)), (j, j + len(b)))


@pytest.mark.parametrize(
    ("question", "a", "b", "expected"),
    [
        ("drugs that treat both gout and psoriasis", "gout", "psoriasis", BOTH),
        ("genes shared by gout and psoriasis", "gout", "psoriasis", BOTH),
        ("meds for gout as well as psoriasis", "gout", "psoriasis", BOTH),
        ("drugs for gout, psoriasis", "gout", "psoriasis", BOTH),
        ("drugs for gout but not psoriasis", "gout", "psoriasis", BUT_NOT),
        ("used for gout and not for psoriasis", "gout", "psoriasis", BUT_NOT),
        ("gout without psoriasis", "gout", "psoriasis", BUT_NOT),
        ("drugs for gout or psoriasis", "gout", "psoriasis", ANY),
        ("drugs for gout and/or psoriasis", "gout", "psoriasis", ANY),
        ("gout drugs but not psoriasis ones", "gout", "psoriasis", BUT_NOT),
        ("gout meds that are not for psoriasis", "gout", "psoriasis", BUT_NOT),
        ("drugs for gout in patients with psoriasis", "gout", "psoriasis", None),
        ("drugs for gout that also help psoriasis", "gout", "psoriasis", BOTH),
        ("gout drugs also used for psoriasis", "gout", "psoriasis", BOTH),
        ("gout meds that are also given in psoriasis", "gout", "psoriasis", BOTH),
        ("drugs for gout, also ones for psoriasis that cause rash", "gout", "psoriasis", None),
    ],
)
def test_the_joining_words_say_the_operation(question: str, a: str, b: str, expected: str) -> None:
    assert op(question, a, b) == expected


def _spans(text: str, names: list[str]) -> list[tuple[int, int]]:
    at, out = 0, []
    for n in names:
        i = text.index(n, at)
        out.append((i, i + len(n)))
        at = i + len(n)
    return out


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("what do aspirin, ibuprofen or naproxen bind", ANY),
        ("genes of aspirin, ibuprofen and naproxen", BOTH),
        ("aspirin, ibuprofen, naproxen", None),
        ("aspirin with ibuprofen, or naproxen", None),
    ],
)
def test_a_list_is_joined_by_its_last_word(question: str, expected: str | None) -> None:
    names = ["aspirin", "ibuprofen", "naproxen"]
    assert list_operation(question, _spans(question, names)) == expected


def test_the_headline_says_the_names_as_they_are_joined() -> None:
    assert says(BOTH, ["A", "B"]) == "both A and B"
    assert says(BOTH, ["A", "B", "C"]) == "each of A, B and C"
    assert says(ANY, ["A", "B", "C"]) == "A, B or C"
    assert says(BUT_NOT, ["A", "B"]) == "A but not B"
    assert asks_common("what do they have in common") and asks_common("do they share any")
    assert not asks_common("what do they target")


def _ends(r: Any, seed: str) -> set[str]:
    return {t[0] if t[2] == seed else t[2] for p in r.paths for t in p if seed in (t[0], t[2])}


EPILEPSY, MIGRAINE = "Disease::DOID:1826", "Disease::DOID:6364"


def _answers(helix: Any, question: str) -> set[str]:
    return {a.id for a in helix.ask(question).answers}


def test_both_answers_what_holds_for_each_with_a_path_from_each(helix: Any) -> None:
    r = helix.ask("which drugs treat both epilepsy syndrome and migraine")
    assert r.status is Status.ANSWERED
    assert "both epilepsy syndrome and migraine" in r.text
    one = _answers(helix, "which drugs treat epilepsy syndrome")
    two = _answers(helix, "which drugs treat migraine")
    got = {a.id for a in r.answers}
    assert got and got == one & two
    shown = {a.id for a in r.answers[:3]}
    assert shown <= _ends(r, EPILEPSY) and shown <= _ends(r, MIGRAINE)


def test_but_not_answers_the_first_s_that_are_not_the_second_s(helix: Any) -> None:
    r = helix.ask("which drugs treat migraine but not epilepsy syndrome")
    assert r.status is Status.ANSWERED
    one = _answers(helix, "which drugs treat migraine")
    two = _answers(helix, "which drugs treat epilepsy syndrome")
    assert {a.id for a in r.answers} == one - two
    assert "but not epilepsy syndrome" in r.text


def test_a_set_nothing_holds_for_says_so_with_each_count(helix: Any) -> None:
    q = "which drugs treat both {} and {}"
    one = _answers(helix, "which drugs treat psoriasis")
    two = _answers(helix, "which drugs treat Alzheimer's disease")
    assert one and two and not one & two
    r = helix.ask(q.format("psoriasis", "Alzheimer's disease"))
    assert r.status is Status.NOT_ANSWERED and not r.answers
    assert "none in the graph" in r.text
    assert f"psoriasis: {len(one)}" in r.text


def test_names_written_as_a_list() -> None:
    text = "which of these treat migraine: propranolol, topiramate or sumatriptan"
    assert listed(text, _spans(text, ["propranolol", "topiramate", "sumatriptan"]))
    text = "propranolol in patients on topiramate"
    assert not listed(text, _spans(text, ["propranolol", "topiramate"]))


def test_which_of_listed_drugs_treat_a_disease_keeps_the_list_and_says_the_rest(
    helix: Any,
) -> None:
    con = helix.c.store.con
    treating = [
        n
        for (n,) in con.execute(
            "SELECT DISTINCT n.name FROM triples t JOIN nodes n ON n.id = t.subj "
            "WHERE t.obj = ? AND t.rel = 'CtD' ORDER BY n.name",
            [EPILEPSY],
        ).fetchall()
    ]
    other = con.execute(
        "SELECT n.name FROM nodes n WHERE n.kind = 'Compound' AND n.id NOT IN "
        "(SELECT subj FROM triples WHERE obj = ? AND rel IN ('CtD', 'CpD')) ORDER BY n.name",
        [EPILEPSY],
    ).fetchone()
    assert len(treating) >= 2 and other is not None
    listed_names = [treating[0], other[0], treating[1]]
    r = helix.ask(
        f"which of {listed_names[0]}, {listed_names[1]} and {listed_names[2]} treat epilepsy"
    )
    assert r.status is Status.ANSWERED, r.text
    assert {a.name for a in r.answers} == {treating[0], treating[1]}
    assert f"Not recorded for: {other[0]}." in r.text


def test_two_drugs_asked_whether_they_share_targets_is_a_set_question_not_a_claim(
    helix: Any,
) -> None:
    con = helix.c.store.con
    pair = con.execute(
        "SELECT a.name, b.name FROM triples x JOIN triples y ON x.obj = y.obj "
        "JOIN nodes a ON a.id = x.subj JOIN nodes b ON b.id = y.subj "
        "WHERE x.rel = 'CbG' AND y.rel = 'CbG' AND x.subj < y.subj "
        "AND a.name NOT LIKE '% %' AND b.name NOT LIKE '% %' ORDER BY a.name, b.name LIMIT 1"
    ).fetchone()
    assert pair is not None, "the slice has two drugs binding one gene"
    a, b = pair
    both = _answers(helix, f"targets shared by {a} and {b}")
    assert both
    r = helix.ask(f"do {a.lower()} and {b.lower()} share any targets")
    assert r.intent != "claim"
    assert r.status is Status.ANSWERED, r.text
    assert {x.id for x in r.answers} == both
    assert f"both {a} and {b} bind" in r.text  # a plural subject, a plural verb


def test_only_a_question_of_what_two_names_share_leaves_the_claim() -> None:
    from types import SimpleNamespace

    from engine.agent.planner import _shared

    def ents(text: str, *names: str) -> list[Any]:
        return [
            SimpleNamespace(kind="Compound", start=s, end=e) for s, e in _spans(text, list(names))
        ]

    q = "do carbamazepine and lamotrigine share any targets"
    assert _shared(q, ents(q, "carbamazepine", "lamotrigine"))
    q = "do carbamazepine and lamotrigine have targets in common"
    assert _shared(q, ents(q, "carbamazepine", "lamotrigine"))
    q = "does carbamazepine resemble lamotrigine"
    assert not _shared(q, ents(q, "carbamazepine", "lamotrigine"))
    q = "are carbamazepine and lamotrigine similar"
    assert not _shared(q, ents(q, "carbamazepine", "lamotrigine"))


def test_a_name_set_apart_is_no_answer_and_no_seed(helix: Any) -> None:
    from engine.understand.sets import set_apart

    q = "what else is it used for besides epilepsy"
    assert set_apart(q, q.index("epilepsy"))
    assert not set_apart(q, q.index("used"))
    row = helix.c.store.con.execute(
        "SELECT a.name, b.name, b.id FROM triples t JOIN nodes a ON a.id = t.subj "
        "JOIN nodes b ON b.id = t.obj WHERE t.rel = 'CbG' AND a.name NOT LIKE '% %' "
        "AND b.name NOT LIKE '% %' ORDER BY a.name, b.name LIMIT 1"
    ).fetchone()
    assert row is not None
    drug, gene, gene_id = row
    every = _answers(helix, f"which genes does {drug} bind")
    assert gene_id in every
    r = helix.ask(f"which genes does {drug} bind apart from {gene}")
    assert {a.id for a in r.answers} == every - {gene_id}
    if every - {gene_id}:
        assert f"(besides {gene})" in r.text


def test_the_drugs_of_a_class_for_a_disease_are_the_class_s_drugs_that_treat_it(
    helix: Any,
) -> None:
    store = helix.c.store
    disease = "Disease::DOID:1826"  # epilepsy syndrome
    treats = set(store.objects(disease, "CtD^-1")) | {
        c for c, _, d in helix.triples(disease, "CtD", 500) if d == disease
    }
    classes = sorted(
        n
        for n in store.ids
        if n.startswith("Pharmacologic Class::")
        and (members := set(store.objects(n, "PCiC")))
        and members & treats
        and members - treats
    )
    assert classes, "the slice holds a class with drugs for epilepsy and drugs for other things"
    pc = classes[0]
    members = set(store.objects(pc, "PCiC"))
    r = helix.ask(f"{store.name(pc)} for epilepsy")
    assert r.status is Status.ANSWERED
    assert {a.id for a in r.answers} == members & treats
    assert f"({store.name(pc)})" in r.text.splitlines()[0]
    # denied, the class's drugs are set apart from the drugs for the disease
    others = helix.ask(f"drugs for epilepsy that aren't {store.name(pc)}")
    assert others.status is Status.ANSWERED
    assert others.answers and not {a.id for a in others.answers} & members
    assert f"(not {store.name(pc)})" in others.text.splitlines()[0]


def test_two_letters_set_against_a_disease_are_a_disease_s_initials(helix: Any) -> None:
    r = helix.ask("meds used in epilepsy but not in pd")
    assert r.status is Status.ANSWERED and "but not Parkinson's disease" in r.text


def test_a_negated_auxiliary_typed_without_its_apostrophe_is_no_part_of_a_name(
    helix: Any,
) -> None:
    from engine.understand.mentions import tokenize

    linker = helix.c.planner.linker
    tokens = tokenize("migraine drugs that arent triptans")
    chunks = [" ".join(t.text for t in tokens[a : b + 1]) for a, b in linker._chunks(tokens, [])]
    assert "triptans" in chunks and not any("arent" in c for c in chunks)
