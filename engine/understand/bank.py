"""The exemplar bank: wordings of each relation and intent, kept as data (``exemplars.yaml``).

A slot is one thing a user may want: ``treats.disease->drug`` (given a disease, the drugs that
treat it), ``mechanism``, ``overview``, ``literature`` ... Each has a description and many
wordings with the entities replaced by their kind (``[Disease]``). The bank was written by
people who did not see the benchmark questions or the code; this module only maps slot ids to
the graph's directed relations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path

from engine.graph.relations import BY_ABBREV, DirectedRel, directed_uses
from engine.understand.lexicon import KIND_WORDS
from engine.understand.vocabulary import INFLECTIONS
from engine.util.yamltext import safe_load

SLOT_RELATION: dict[str, str] = {
    "treats": "CtD",
    "palliates": "CpD",
    "binds": "CbG",
    "drug_up": "CuG",
    "drug_down": "CdG",
    "side_effect": "CcSE",
    "drug_similar": "CrC",
    "class": "PCiC",
    "associates": "DaG",
    "disease_up": "DuG",
    "disease_down": "DdG",
    "localizes": "DlA",
    "presents": "DpS",
    "disease_similar": "DrD",
    "expresses": "AeG",
    "anatomy_up": "AuG",
    "anatomy_down": "AdG",
    "interacts": "GiG",
    "covaries": "GcG",
    "regulates": "Gr>G",
    "pathway": "GpPW",
    "bioprocess": "GpBP",
    "cellcomponent": "GpCC",
    "molfunction": "GpMF",
}
"""Bank relation name -> Hetionet metaedge."""

SLOT_KIND: dict[str, str] = {
    "drug": "Compound",
    "compound": "Compound",
    "disease": "Disease",
    "gene": "Gene",
    "side_effect": "Side Effect",
    "sideeffect": "Side Effect",
    "symptom": "Symptom",
    "anatomy": "Anatomy",
    "class": "Pharmacologic Class",
    "pathway": "Pathway",
    "bioprocess": "Biological Process",
    "cellcomponent": "Cellular Component",
    "molfunction": "Molecular Function",
}
"""Kind names used in slot ids -> node kinds."""


def chain_kinds(slot_id: str) -> tuple[str, ...]:
    """The kinds a multi-hop slot walks, given kind first ("multihop.drug->gene->disease" ->
    Compound, Gene, Disease); empty when the id names no chain of known kinds."""
    if not slot_id.startswith("multihop.") or "->" not in slot_id:
        return ()
    kinds = tuple(SLOT_KIND.get(k, "") for k in slot_id.split(".", 1)[1].split("->"))
    return kinds if len(kinds) >= 3 and all(kinds) else ()


PLACEHOLDER: dict[str, str] = {
    "Compound": "[Compound]",
    "Disease": "[Disease]",
    "Gene": "[Gene]",
    "Symptom": "[Symptom]",
    "Side Effect": "[SideEffect]",
    "Anatomy": "[Anatomy]",
    "Pharmacologic Class": "[PharmClass]",
    "Pathway": "[Pathway]",
    "Biological Process": "[BioProcess]",
    "Cellular Component": "[CellComponent]",
    "Molecular Function": "[MolFunction]",
}
"""Node kind -> the placeholder written in the bank's wordings."""

KIND_OF_PLACEHOLDER = {v: k for k, v in PLACEHOLDER.items()}
_PLACEHOLDER_RX = re.compile(r"\[[A-Za-z]+\]")
_WORD_RX = re.compile(r"[a-z][a-z-]+")
GRAPH_SECTIONS = ("one_hop", "intents")


@dataclass(frozen=True)
class Slot:
    id: str
    section: str
    description: str
    wordings: tuple[str, ...]
    use: DirectedRel | None = None
    """For a one-hop slot: the relation walked from the given entity to the answer."""

    @property
    def intent(self) -> str:
        """'one_hop', 'multihop', 'mechanism', 'claim', 'overview', 'literature', ..."""
        if self.section == "one_hop":
            return "one_hop"
        return self.id.split(".", 1)[0]

    @property
    def given(self) -> str | None:
        """Kind of the entity the question gives (one-hop and multi-hop slots)."""
        if "." not in self.id or "->" not in self.id:
            return None
        return SLOT_KIND.get(self.id.split(".", 1)[1].split("->", 1)[0])

    @property
    def kinds(self) -> frozenset[str]:
        """Kinds named by placeholders in any of the wordings."""
        return frozenset(k for w in self.wordings for k in placeholder_kinds(w))

    @cached_property
    def noun_kinds(self) -> frozenset[str]:
        """Kinds the slot's own wordings name with a kind noun outside placeholders, in at
        least two of them ("symptoms" in "drugs that only relieve the symptoms of [Disease]"):
        in a question read as this slot, such a noun is part of how the relation is said,
        not a further hop."""
        counts: dict[str, int] = {}
        for wording in self.wordings:
            text = _PLACEHOLDER_RX.sub(" ", wording.lower())
            for kind in {KIND_WORDS[w] for w in _WORD_RX.findall(text) if w in KIND_WORDS}:
                counts[kind] = counts.get(kind, 0) + 1
        return frozenset(k for k, n in counts.items() if n >= 2)


def placeholder_kinds(wording: str) -> frozenset[str]:
    """Node kinds whose placeholders a wording uses ("[Disease]" -> Disease)."""
    return frozenset(
        KIND_OF_PLACEHOLDER[p] for p in _PLACEHOLDER_RX.findall(wording) if p in KIND_OF_PLACEHOLDER
    )


def slot_use(slot_id: str) -> DirectedRel | None:
    """``treats.disease->drug`` -> the use ``CtD^-1`` (from Disease to Compound)."""
    name, _, direction = slot_id.partition(".")
    rel = SLOT_RELATION.get(name)
    src_name, _, dst_name = direction.partition("->")
    src, dst = SLOT_KIND.get(src_name), SLOT_KIND.get(dst_name)
    if rel is None or src is None or dst is None or rel not in BY_ABBREV:
        return None
    for use in directed_uses():
        if use.rel == rel and use.src == src and use.dst == dst and not use.inverse:
            return use
    return next(
        (u for u in directed_uses() if u.rel == rel and u.src == src and u.dst == dst), None
    )


@dataclass(frozen=True)
class Bank:
    slots: tuple[Slot, ...]
    source: str
    """The bank's text, so a cache of its embeddings can be keyed by content."""

    @classmethod
    def parse(cls, text: str) -> Bank:
        data = safe_load(text) or {}
        slots: list[Slot] = []
        for section in GRAPH_SECTIONS:
            for slot_id, body in (data.get(section) or {}).items():
                if not isinstance(body, dict):
                    continue
                wordings = tuple(
                    str(w).strip() for w in body.get("wordings") or () if str(w).strip()
                )
                if not wordings:
                    continue
                use = slot_use(str(slot_id)) if section == "one_hop" else None
                if section == "one_hop" and use is None:
                    continue
                slots.append(
                    Slot(str(slot_id), section, str(body.get("description", "")), wordings, use)
                )
        return cls(tuple(slots), text)

    @classmethod
    def load(cls, path: Path | None = None) -> Bank:
        """The bank at ``path``, or the one shipped in the package."""
        if path is not None:
            return cls.parse(path.read_text(encoding="utf-8"))
        return _packaged()

    def get(self, slot_id: str) -> Slot | None:
        return next((s for s in self.slots if s.id == slot_id), None)

    def relation_words(self, min_count: int = 2) -> frozenset[str]:
        """Words the graph-question wordings use to say what is asked ("eases", "block",
        "members"), seen in at least ``min_count`` wordings. A question's words outside the
        entity names that are among these never glue onto a name."""
        counts: dict[str, int] = {}
        for slot in self.slots:
            if slot.intent == "literature":
                continue
            for w in slot.wordings:
                for word in set(_WORD_RX.findall(_PLACEHOLDER_RX.sub(" ", w).lower())):
                    counts[word] = counts.get(word, 0) + 1
        return frozenset(w for w, n in counts.items() if n >= min_count)


def is_relation_word(token: str, words: frozenset[str]) -> bool:
    """``token`` or its stem without a common inflection is one of ``words``."""
    for suffix in ("", *INFLECTIONS):
        if suffix and not token.endswith(suffix):
            continue
        stem = token[: len(token) - len(suffix)] if suffix else token
        if len(stem) >= 2 and (stem in words or (suffix == "ing" and stem + "e" in words)):
            return True
    return False


@lru_cache(maxsize=1)
def _packaged() -> Bank:
    text = resources.files("engine.understand").joinpath("exemplars.yaml").read_text("utf-8")
    return Bank.parse(text)
