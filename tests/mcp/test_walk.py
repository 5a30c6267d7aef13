"""The bounded metapath walk behind ``kg_walk``."""

from __future__ import annotations

import re

import pytest

from helix_mcp.walk import WalkError, parse_hops, walk

T = [
    ("Compound::A", "CtD", "Disease::X"),
    ("Compound::B", "CtD", "Disease::X"),
    ("Compound::B", "CtD", "Disease::Y"),
    ("Disease::X", "DrD", "Disease::Y"),
    ("Disease::Z", "DrD", "Disease::X"),
]


def triples_of(node, rel, limit):
    return [t for t in T if node in (t[0], t[2]) and t[1] == rel][:limit]


def _paths(outcome):
    return [[(s, o) for s, _, o in p] for p in outcome.paths]


def test_forward_then_backward():
    hops = parse_hops(["CtD", "CtD^-1"], "Compound")
    out = walk("Compound::A", hops, triples_of)
    assert _paths(out) == [[("Compound::A", "Disease::X"), ("Compound::B", "Disease::X")]]
    assert not out.truncated


def test_undirected_relations_go_both_ways_and_paths_do_not_loop():
    hops = parse_hops(["DrD", "DrD"], "Disease")
    out = walk("Disease::Y", hops, triples_of)
    assert _paths(out) == [[("Disease::X", "Disease::Y"), ("Disease::Z", "Disease::X")]]


def test_bounds_truncate():
    hops = parse_hops(["CtD^-1"], "Disease")
    out = walk("Disease::X", hops, triples_of, max_paths=1)
    assert len(out.paths) == 1 and out.truncated
    out = walk("Disease::X", hops, triples_of, fanout=1)
    assert len(out.paths) == 1 and out.truncated


@pytest.mark.parametrize(
    ("codes", "kind", "message"),
    [
        ([], "Compound", "1 to 4"),
        (["CtD"] * 5, "Compound", "1 to 4"),
        (["XxY"], "Compound", "unknown relation 'XxY'"),
        (["CtD"], "Disease", "did you mean CtD^-1"),
        (["CtD", "CtD"], "Compound", "the path is at a Disease"),
    ],
)
def test_bad_relation_sequences(codes, kind, message):
    with pytest.raises(WalkError, match=re.escape(message)):
        parse_hops(codes, kind)


def test_undirected_inverse_is_the_plain_relation():
    assert [h.code for h in parse_hops(["DrD^-1"], "Disease")] == ["DrD"]
