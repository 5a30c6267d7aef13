"""engine.understand.learn: the one learner of telling words behind twins, chains and polarity;
and the word-by-word reading of negation it uses (engine.understand.negation)."""

from __future__ import annotations

from engine.understand.learn import (
    LEARN_MIN,
    base_forms,
    content_words,
    count_wordings,
    spread,
    stem,
    tally,
    telling,
)
from engine.understand.negation import opens_negation


def test_a_word_tells_a_reading_its_wordings_use_and_its_rivals_hardly_do() -> None:
    assert telling({"CpD": LEARN_MIN}) == "CpD"
    assert telling({"CpD": LEARN_MIN - 1}) is None, "too few wordings"
    assert telling({"CpD": 9, "CtD": 1}) == "CpD"
    assert telling({"CpD": 8, "CtD": 1}) is None, "the rival uses it too often"
    assert telling({}) is None


def test_tally_counts_wordings_per_reading_and_the_slots_they_come_from() -> None:
    counts, slots = tally(
        [("up.a", 1, ["raised", "genes"]), ("up.b", 1, ["raised"]), ("down.a", -1, ["genes"])]
    )
    assert counts == {"raised": {1: 2}, "genes": {1: 1, -1: 1}}
    assert slots[("raised", 1)] == {"up.a", "up.b"}
    assert count_wordings([{"a", "b"}, {"a"}]) == {"a": 2, "b": 1}


def test_a_taught_word_spreads_to_the_forms_the_wordings_do_not_use_otherwise() -> None:
    counts = {"eases": {"CtD": 1}}
    taught = spread({"ease": "CpD"}, counts)
    assert taught["eased"] == "CpD" and "eases" not in taught, "used by the wordings"
    assert "eases" not in spread({"ease": "CpD"}, counts, rivals_only=True), "a rival uses it"
    mine = spread({"ease": "CpD"}, {"eases": {"CpD": 1}}, rivals_only=True)
    assert mine["eases"] == "CpD", "only a rival's use keeps a form"
    clash = spread({"repress": -1, "repressed": 1}, {}, clash=0)
    assert clash["represses"] == 0, "two taught words disagree on a form"
    assert clash["repressing"] == -1
    first = spread({"repress": "a", "repressed": "b"}, {})
    assert first["represses"] == "a", "without a clash value the first keeps it"


def test_stems_and_base_forms() -> None:
    assert stem("resembling") == stem("resembles") == "resembl"
    assert base_forms("repressors") == ("repress", "represse")
    assert base_forms("raise") == (), "no ending to cut"


def test_the_word_by_word_reading_of_negation() -> None:
    for word in ("not", "no", "never", "without", "non", "rather", "instead", "don't", "doesn't"):
        assert opens_negation(word), word
    for word in ("other", "nor", "cannot", "isn't", "can't", "genes"):
        assert not opens_negation(word), word
    assert content_words("drugs that soothe [Disease] without really curing it") == [
        "drugs",
        "that",
        "soothe",
        "without",
    ]
    assert "curative" not in content_words("non-curative drugs for [Disease]")
