"""The slot grammar of the wording templates and the bench record they are filled into.

A template is a wording with ``[Slot]`` placeholders (``[Compound]``, ``[Disease]``, ...; the
grammar is in ``SLOTS.md``); ``fill`` replaces them, ``record`` makes one bench-format record
(the format ``helix-chat eval`` reads).
"""

from __future__ import annotations

import re

PATH_CAP = 200  # at most this many gold paths per question


PLACEHOLDER_KIND = {
    "Compound": "Compound",
    "Disease": "Disease",
    "Gene": "Gene",
    "Symptom": "Symptom",
    "SideEffect": "Side Effect",
    "Anatomy": "Anatomy",
    "PharmClass": "Pharmacologic Class",
    "Pathway": "Pathway",
    "BioProcess": "Biological Process",
    "CellComponent": "Cellular Component",
    "MolFunction": "Molecular Function",
}
KIND_PLACEHOLDER = {v: k for k, v in PLACEHOLDER_KIND.items()}


def fill(template: str, values: dict[str, str]) -> str:
    """Replace every ``[Slot]`` of a template; a slot without a value is an error."""

    def rep(m: re.Match[str]) -> str:
        key = m.group(1)
        if key not in values:
            raise KeyError(f"no value for [{key}] in {template!r}")
        return values[key]

    return re.sub(r"\[(\w+)\]", rep, template)


def placeholders(template: str) -> list[str]:
    return re.findall(r"\[(\w+)\]", template)


def record(rid, kind, question, status, seeds, answers, triples, paths, **extra):
    """A bench record (the format `helix-chat eval` reads); ``extra`` keys are kept as-is."""
    rec = {
        "id": rid,
        "kind": kind,
        "question": question,
        "expect_status": status,
        "seeds": seeds,
        "answers": answers,
        "gold_triples": [list(t) for t in triples],
        "gold_paths": [[list(t) for t in p] for p in paths],
        "gold_passages": [],
    }
    rec.update(extra)
    return rec
