"""Each metric against small hand-computed examples (see ../shared/bench/README.md)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.eval.metrics import (
    claim_supported,
    hit_at_k,
    metric_values,
    path_f1_at_k,
    path_key,
    percentile,
    recall_at_k,
    reciprocal_rank,
    score_question,
    status_correct,
)

A = ("Compound::DB1", "CtD", "Disease::D1")
B = ("Compound::DB2", "CtD", "Disease::D1")
C = ("Compound::DB3", "CtD", "Disease::D1")
D = ("Compound::DB4", "CtD", "Disease::D1")
E = ("Compound::DB5", "CtD", "Disease::D1")
F = ("Compound::DB6", "CtD", "Disease::D1")
G = ("Compound::DB7", "CtD", "Disease::D1")
X = ("Compound::DB1", "CbG", "Gene::1")
Y = ("Gene::1", "GiG", "Gene::2")


def tri(t: tuple[str, str, str], score: float = 1.0) -> dict:
    return {"kind": "triple", "triple": list(t), "score": score}


def psg(pid: str, score: float = 1.0) -> dict:
    return {"kind": "passage", "id": pid, "score": score}


def ans(*ids: str) -> list[dict]:
    return [{"id": i, "name": i, "score": 1.0} for i in ids]


# --- recall@5 ------------------------------------------------------------------------------------


def test_recall_fewer_than_five_gold_divides_by_gold_size() -> None:
    assert recall_at_k([A, X, B], [A, B, C]) == pytest.approx(2 / 3)


def test_recall_more_than_five_gold_divides_by_five() -> None:
    gold = [A, B, C, D, E, F, G]
    assert recall_at_k([A, B, C, D, E], gold) == 1.0
    assert recall_at_k([A, X, B, Y, C, D], gold) == pytest.approx(3 / 5)  # D is rank 6


def test_recall_duplicates_take_a_slot_and_count_once() -> None:
    assert recall_at_k([A, A, A, A, A, B], [A, B]) == 0.5
    assert recall_at_k([A, B], [A, A, B]) == 1.0  # duplicated gold is one item


def test_recall_without_gold_is_undefined() -> None:
    assert recall_at_k([A], []) is None


def test_evidence_recall_uses_only_triple_evidence_in_order() -> None:
    record = {"id": "q", "kind": "one_hop", "answers": [], "gold_triples": [list(A), list(B)]}
    evidence = [psg("p1"), tri(X), psg("p2"), tri(Y), tri(C), tri(D), tri(E), tri(A)]
    # passages do not take triple slots, but A is the 6th triple: outside the top 5
    assert metric_values(record, {"evidence": evidence})["evidence_recall@5"] == 0.0
    evidence = [psg("p1"), psg("p2"), psg("p3"), psg("p4"), psg("p5"), tri(B)]
    assert metric_values(record, {"evidence": evidence})["evidence_recall@5"] == 0.5


def test_passage_recall_uses_only_passage_ids() -> None:
    record = {"id": "q", "kind": "passage", "gold_passages": ["p1", "p2", "p3"]}
    evidence = [tri(A), psg("x"), psg("p2"), tri(B), psg("p3"), psg("y"), psg("z"), psg("p1")]
    values = metric_values(record, {"evidence": evidence})
    assert values["passage_recall@5"] == pytest.approx(2 / 3)  # p1 is the 6th passage
    assert values["mrr"] == 0.5  # rank among passages, not among all evidence
    assert "hit@1" not in values


# --- MRR / Hit@k ---------------------------------------------------------------------------------


def test_reciprocal_rank() -> None:
    assert reciprocal_rank(["x", "y", "g2", "g1"], ["g1", "g2"]) == pytest.approx(1 / 3)
    assert reciprocal_rank(["g1"], ["g1"]) == 1.0
    assert reciprocal_rank(["x"], ["g1"]) == 0.0
    assert reciprocal_rank([], ["g1"]) == 0.0
    assert reciprocal_rank(["x"], []) is None


def test_hit_at_k() -> None:
    assert hit_at_k(["x", "g"], ["g"], 1) == 0.0
    assert hit_at_k(["x", "g"], ["g"], 5) == 1.0
    assert hit_at_k(["a", "b", "c", "d", "e", "g"], ["g"], 5) == 0.0
    assert hit_at_k([], ["g"], 5) == 0.0


def test_answer_metrics_for_kg_questions() -> None:
    record = {"id": "q", "kind": "one_hop", "answers": ["C1", "C2"], "gold_triples": [list(A)]}
    values = metric_values(record, {"answers": ans("Cx", "C2", "C1")})
    assert values == {"evidence_recall@5": 0.0, "hit@1": 0.0, "hit@5": 1.0, "mrr": 0.5}


# --- Path-F1@5 -----------------------------------------------------------------------------------


def test_path_order_of_triples_is_irrelevant() -> None:
    assert path_key([list(X), list(Y)]) == path_key([list(Y), list(X)])


def test_path_f1_hand_computed() -> None:
    gold = [path_key([X, Y]), path_key([A]), path_key([B])]
    # returned: {Y,X} (gold, reordered), {A, B} (not a gold path), {B} (gold)
    got = [path_key([Y, X]), path_key([A, B]), path_key([B])]
    # precision 2/3, recall 2/min(5,3)=2/3 -> F1 2/3
    assert path_f1_at_k(got, gold) == pytest.approx(2 / 3)


def test_path_f1_precision_and_recall_differ() -> None:
    gold = [path_key([t]) for t in (A, B, C, D, E, F, G)]  # 7 gold -> recall over min(5, 7)
    got = [path_key([A]), path_key([X])]
    p, r = 1 / 2, 1 / 5
    assert path_f1_at_k(got, gold) == pytest.approx(2 * p * r / (p + r))


def test_path_f1_only_top_five_count() -> None:
    gold = [path_key([A])]
    got = [path_key([t]) for t in (X, Y, B, C, D, A)]
    assert path_f1_at_k(got, gold) == 0.0


def test_path_f1_no_paths_is_zero_and_no_gold_is_undefined() -> None:
    assert path_f1_at_k([], [path_key([A])]) == 0.0
    assert path_f1_at_k([path_key([A])], []) is None


def test_path_f1_duplicate_paths_count_once() -> None:
    gold = [path_key([A]), path_key([B])]
    got = [path_key([A]), path_key([A]), path_key([A])]
    # P = {A}: precision 1, recall 1/2 -> F1 2/3
    assert path_f1_at_k(got, gold) == pytest.approx(2 / 3)


def test_path_f1_from_result_json() -> None:
    record = {
        "id": "q",
        "kind": "multi_hop",
        "answers": ["Disease::D1"],
        "gold_paths": [[list(X), list(Y)]],
    }
    result = {"paths": [[list(Y), list(X)]], "answers": ans("Disease::D1")}
    values = metric_values(record, result)
    assert values["path_f1@5"] == 1.0
    assert values["hit@5"] == 1.0
    assert "evidence_recall@5" not in values


# --- status accuracy and the negative rule -------------------------------------------------------

CLAIM = ["Compound::DB9", "CtD", "Disease::D9"]
NEG = {"id": "n", "kind": "negative", "expect_status": "NOT_ANSWERED", "claim": CLAIM}


def test_status_accuracy_simple_kinds() -> None:
    amb = {"id": "a", "kind": "ambiguous", "expect_status": "NEEDS_CLARIFICATION"}
    assert status_correct(amb, {"status": "NEEDS_CLARIFICATION", "clarification": "Which?"})
    assert not status_correct(amb, {"status": "ANSWERED"})
    nf = {"id": "f", "kind": "not_found", "expect_status": "NOT_ANSWERED"}
    assert status_correct(nf, {"status": "NOT_ANSWERED"})
    assert not status_correct(nf, {})


def test_negative_not_answered_is_right() -> None:
    assert status_correct(NEG, {"status": "NOT_ANSWERED"})
    assert not status_correct(NEG, {"status": "ANSWERED", "answers": ans("no")})


@pytest.mark.parametrize(
    ("result", "ok"),
    [
        ({"status": "ANSWERED", "answers": ans("no")}, True),
        ({"status": "ANSWERED", "answers": [{"id": "x", "name": "Yes", "score": 1}]}, False),
        ({"status": "ANSWERED", "answers": ans("answer:yes")}, False),
        ({"status": "ANSWERED", "answers": ans("Disease::D9")}, False),  # affirms the claim
        ({"status": "ANSWERED", "answers": ans("no"), "evidence": [tri(X)]}, False),
        ({"status": "ANSWERED", "answers": ans("no"), "paths": [[list(X)]]}, False),
        ({"status": "NOT_ANSWERED"}, False),
    ],
)
def test_negative_rule_when_an_answer_is_expected(result: dict, ok: bool) -> None:
    # the README rule also covers negatives whose expected status is ANSWERED (answer "no")
    record = {**NEG, "expect_status": "ANSWERED"}
    assert status_correct(record, result) is ok


def test_gold_triples_do_not_violate_the_negative_rule() -> None:
    record = {**NEG, "expect_status": "ANSWERED", "gold_triples": [list(X)]}
    assert status_correct(
        record, {"status": "ANSWERED", "answers": ans("no"), "evidence": [tri(X)]}
    )


def test_claim_supported_any_relation_either_direction() -> None:
    rev = ("Disease::D9", "DrD", "Compound::DB9")
    palliates = ("Compound::DB9", "CpD", "Disease::D9")
    assert claim_supported(NEG, {"status": "NOT_ANSWERED", "evidence": [tri(rev)]})
    assert claim_supported(NEG, {"status": "NOT_ANSWERED", "paths": [[list(palliates)]]})
    other = ("Compound::DB9", "CtD", "Disease::D1")
    assert not claim_supported(NEG, {"status": "NOT_ANSWERED", "evidence": [tri(other)]})
    assert not claim_supported(NEG, {"status": "NOT_ANSWERED", "evidence": [psg("p")]})


def test_score_question_negative_flag_only_on_negatives() -> None:
    ev = [tri(("Compound::DB9", "CtD", "Disease::D9"))]
    score = score_question(NEG, {"status": "NOT_ANSWERED", "evidence": ev, "latency_ms": 3})
    assert score.values == {"status_acc": 1.0}
    assert score.claim_supported is True
    nf = {"id": "f", "kind": "not_found", "expect_status": "NOT_ANSWERED"}
    assert score_question(nf, {"status": "NOT_ANSWERED"}).claim_supported is None


def test_missing_result_scores_zero() -> None:
    record = {
        "id": "q",
        "kind": "one_hop",
        "expect_status": "ANSWERED",
        "answers": ["C1"],
        "gold_triples": [list(A)],
    }
    score = score_question(record, None)
    assert score.missing
    assert score.latency_ms is None
    assert score.values == {"evidence_recall@5": 0.0, "hit@1": 0.0, "hit@5": 0.0, "mrr": 0.0}


def test_score_question_keeps_numeric_timings_only() -> None:
    record = {"id": "f", "kind": "not_found", "expect_status": "NOT_ANSWERED"}
    result = {"status": "NOT_ANSWERED", "timings": {"link": 2.5, "walk": 1, "bad": "x", "ok": True}}
    assert score_question(record, result).timings == {"link": 2.5, "walk": 1.0}


# --- latency -------------------------------------------------------------------------------------


def test_percentile_hand_computed() -> None:
    assert percentile([10, 20, 30, 40], 50) == 25.0
    assert percentile([5], 95) == 5.0
    assert percentile([], 50) is None
    # (n-1)*0.95 = 18.05 over 1..20 -> 19 + 0.05
    assert percentile(range(1, 21), 95) == pytest.approx(19.05)


def test_percentile_matches_numpy_default() -> None:
    rng = np.random.default_rng(7)
    data = rng.exponential(80.0, size=101).tolist()
    for q in (0, 50, 95, 100):
        assert percentile(data, q) == pytest.approx(float(np.percentile(data, q)))
