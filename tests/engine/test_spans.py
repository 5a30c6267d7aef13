"""Mention spans and the columns of a prepared alias index, without a store."""

from __future__ import annotations

import pickle

from engine.understand.mentions import Candidate, CandidateTable
from engine.understand.spans import Span, SpanMatcher, Strings
from engine.util.text import alias_key

KEYS = [
    "type 2 diabetes mellitus",
    "diabetes mellitus",
    "diabetes",
    "2",
    "mellitus",
    "tnf",
    " padded",
    "",
]


def every_run(keys: list[str], norms: list[str]) -> list[Span]:
    """The spans by definition: each run of tokens whose joined keys is an alias (no empty
    key, none with a space at either end), by last token, the longest first."""
    pieces = [alias_key(t) or "_" for t in norms]
    wanted = {k for k in keys if k and k.strip() == k}
    return [
        Span(first, last, " ".join(pieces[first : last + 1]))
        for last in range(len(pieces))
        for first in range(last + 1)
        if " ".join(pieces[first : last + 1]) in wanted
    ]


def test_spans_are_every_run_of_tokens_that_spells_an_alias_in_order() -> None:
    m = SpanMatcher(KEYS)
    for norms in (
        ["in", "type", "2", "diabetes", "mellitus", "and", "tnf"],
        ["diabetes", "diabetes", "mellitus"],
        ["padded"],
        ["", "tnf", ""],
        [],
    ):
        assert m.spans(norms) == every_run(KEYS, norms)
    ends_together = [(s.first, s.last) for s in m.spans(["type", "2", "diabetes", "mellitus"])]
    assert ends_together[-3:] == [(0, 3), (2, 3), (3, 3)]  # longest first


def test_a_matcher_over_a_table_is_pickled_with_it_once() -> None:
    table = CandidateTable({k: [Candidate(f"Disease::{k}", k, "name", True)] for k in KEYS})
    m = SpanMatcher(table)
    table2, m2 = pickle.loads(pickle.dumps((table, m)))
    assert m2._keys is table2
    norms = ["type", "2", "diabetes", "mellitus"]
    assert m2.spans(norms) == m.spans(norms) == every_run(KEYS, norms)


def test_a_table_read_back_holds_the_same_candidates() -> None:
    by_key = {
        "ms": [
            Candidate("Disease::1", "MS", "initialism", False),
            Candidate("D::2", "ms", "x", True),
        ],
        "tnf-α": [Candidate("Gene::7124", "TNF-α", "synonym", False)],
        "none": [],
        "aspirin": [Candidate("Compound::DB00945", "Aspirin", "name", True)],
    }
    table = pickle.loads(pickle.dumps(CandidateTable(by_key)))
    assert list(table) == list(by_key) and len(table) == 4
    assert {k: table[k] for k in table} == by_key
    assert table.get("nothing") is None and "nothing" not in table
    assert table["ms"] is table.get("ms")  # made once


def test_strings_are_sliced_out_of_one_text() -> None:
    texts = ["", "α-synuclein", "a\x00b", "TNF"]
    s = pickle.loads(pickle.dumps(Strings(texts)))
    assert list(s) == texts and len(s) == 4
    assert s[-1] == "TNF" and s[1:3] == texts[1:3]
