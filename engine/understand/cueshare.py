"""Which relations a cue word is used for, learned from the exemplar wordings.

The cue tables tie each cue word to the relation it names: "expressed" to expression,
"treat" to treatment, "bind" to drug targets. People use the same words for neighbouring
relations: "genes [Anatomy] expresses far more strongly than the rest of the body does" asks
for up-regulation, "drugs that treat [Disease]'s symptoms" for palliation, "what binds to
[Gene] inside the cell" for interaction. A cue word that a relation's own wordings use often
is weak evidence against that relation: it supports it too, in proportion to how often its
wordings use the word, and the bank's reading of the whole question decides between them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from engine.understand.bank import Slot
from engine.understand.lexicon import Cue
from engine.util.text import normalize

SHARE = 0.2
"""A relation whose exemplar wordings use a cue word at least this often is supported by it."""
MIN_WORDINGS = 10
"""A relation needs this many exemplar wordings for its share to be read."""

Shared = dict[str, tuple[tuple[str, float], ...]]
"""Cue pattern -> (relation, share of the cue's weight it gets), for relations beyond its own."""


def shared_relations(
    cues: Iterable[tuple[re.Pattern[str], tuple[str, ...], float]], slots: Sequence[Slot]
) -> Shared:
    """``shared_uses`` over the one-hop wordings of the bank, per relation. Pure."""
    texts: dict[str, list[str]] = {}
    for s in slots:
        if s.intent == "one_hop" and s.use is not None:
            texts.setdefault(s.use.rel, []).extend(s.wordings)
    return shared_uses(((rx, rels) for rx, rels, _ in cues), texts)


def shared_uses(
    cues: Iterable[tuple[re.Pattern[str], tuple[str, ...]]], wordings: Mapping[str, Sequence[str]]
) -> Shared:
    """For each cue pattern (and the relations it names), the relations beyond its own whose
    ``wordings`` use it at least ``SHARE`` of the time, each supported in proportion to how
    often its wordings use the word compared with the wordings of the relations the cue names
    (at most fully). Pure."""
    texts = {rel: [normalize(w).lower() for w in ws] for rel, ws in wordings.items()}
    out: Shared = {}
    for rx, rels in cues:
        share = {
            rel: sum(bool(rx.search(w)) for w in words) / len(words)
            for rel, words in texts.items()
            if len(words) >= MIN_WORDINGS
        }
        own = max((share.get(r, 0.0) for r in rels), default=0.0)
        extra = tuple(
            (rel, round(min(1.0, f / own), 3) if own > 0 else 1.0)
            for rel, f in sorted(share.items())
            if rel not in rels and f >= SHARE
        )
        if extra:
            out[rx.pattern] = extra
    return out


def widen(
    cue: Cue, cues: Iterable[tuple[re.Pattern[str], tuple[str, ...], float]], shared: Shared
) -> Cue:
    """``cue`` supporting also the relations whose wordings share its word."""
    for rx, rels, _ in cues:
        if rels == cue.rels and rx.pattern in shared and rx.fullmatch(cue.text):
            return replace(cue, shared=shared[rx.pattern])
    return cue
