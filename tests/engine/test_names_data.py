"""Names read from the data as people type them: receptor subtypes and symbols typed with a
hyphen before their number."""

from __future__ import annotations

import re
from typing import Any

from engine.understand.mentions import SUBTYPE, subtypes


def test_a_receptor_named_by_its_ligand_is_also_its_subtype() -> None:
    rows = [
        ("dopamine receptor d2", "Gene::1813", "dopamine receptor D2", "ncbi-gene", False),
        (
            "neuropeptide y receptor y1",
            "Gene::4886",
            "neuropeptide Y receptor Y1",
            "ncbi-gene",
            False,
        ),
        # a long descriptive family name is no ligand: no subtype
        ("adhesion g protein coupled receptor d2", "Gene::347088", "x", "ncbi-gene", False),
        ("dopamine receptor d2", "Disease::X", "not a gene", "test", False),
    ]
    got = {(k, c.node_id) for k, c in subtypes(rows)}
    assert got == {
        ("d2", "Gene::1813"),
        ("d2 receptor", "Gene::1813"),
        ("y1", "Gene::4886"),
        ("y1 receptor", "Gene::4886"),
    }
    assert {c.source for _, c in subtypes(rows)} == {SUBTYPE}


def test_a_symbol_typed_with_a_hyphen_links_as_written_solid(helix: Any) -> None:
    linker = helix.c.planner.linker
    index = linker.aliases
    key = next(
        k
        for k in index.keys
        if re.fullmatch(r"[a-z]{3,}\d", k)
        and any(c.node_id.startswith("Gene::") and c.primary for c in index.get(k))
        and not index.get(k[:-1] + " " + k[-1])
    )
    typed = f"{key[:-1].upper()}-{key[-1]}"
    found = linker.link(f"which drugs bind {typed}?").mentions
    expected = list(dict.fromkeys(c.node_id for c in index.get(key)))
    assert [m.node_ids for m in found if m.text == f"{key[:-1].upper()} {key[-1]}"] == [expected]


def test_a_gene_alias_opening_with_an_article_is_an_english_phrase(helix) -> None:  # type: ignore[no-untyped-def]
    import copy

    from engine.understand.mentions import Candidate, tokenize
    from engine.understand.spans import SpanMatcher

    class Aliases:
        def __init__(self) -> None:
            self.by_key = {
                "a beta": [Candidate("Gene::8803", "A beta", "ncbi", False)],
                "beta blocker": [Candidate("Pharmacologic Class::X", "beta blocker", "test", True)],
            }
            self.matcher = SpanMatcher(list(self.by_key))

        def get(self, key: str) -> list[Candidate]:
            return self.by_key.get(key, [])

    linker = copy.copy(helix.c.planner.linker)
    linker.aliases = Aliases()
    found, _ = linker._exact(tokenize("is metoprolol a beta blocker"))
    ids = {c.node_id for m in found for c in m.candidates}
    assert "Gene::8803" not in ids and "Pharmacologic Class::X" in ids
    typed, _ = linker._exact(tokenize("is A beta raised in this disease"))
    assert "Gene::8803" in {c.node_id for m in typed for c in m.candidates}
