"""Typed drug-target actions: the action types a source records and their surface forms.

The vocabulary is the data's: the action types a source records on ``CbG`` edges
(DrugCentral's INHIBITOR, AGONIST, POSITIVE ALLOSTERIC MODULATOR ..., stored lower-case as the
edge's detail). Each gets its surface forms by rule, not by a list of questions: the agent noun
and its plural ("inhibitor(s)"); for one-word types a verb made from the noun (-or -> inhibit,
-ator -> activate, -ist -> agonize, -er -> block) with its inflections and nominalisation
("inhibits", "inhibited", "inhibiting", "inhibition", "agonism"). A multi-word type is asked
by its whole name ("partial agonists of DRD2"); the longest form found wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

TYPED_REL = "CbG"
"""The relation whose edges carry an action type."""
ACTION_SOURCE = "DrugCentral"
"""The source whose ``CbG`` details are action types (the disease pack's drug targets)."""


@dataclass(frozen=True)
class Action:
    name: str
    """As stored in the edge's detail: 'inhibitor', 'partial agonist'."""
    noun: str
    plural: str
    verb: str | None = None
    """Base form ('inhibit'), for one-word types whose noun names an agent."""
    third: str | None = None
    """Third person singular ('inhibits')."""
    forms: tuple[str, ...] = ()
    """Every surface form, lower-case."""


def _verb(head: str) -> str | None:
    for suffix, repl in (("ator", "ate"), ("or", ""), ("ist", "ize"), ("er", "")):
        if head.endswith(suffix) and len(head) - len(suffix) >= 3:
            return head[: len(head) - len(suffix)] + repl
    return None


def _inflect(verb: str) -> tuple[str, ...]:
    stem = verb[:-1] if verb.endswith("e") else verb
    forms = [verb, verb + "s", stem + "ed", stem + "ing"]
    if verb.endswith("ize"):
        forms += [verb[:-3] + "ise", verb[:-3] + "ises", verb[:-3] + "ism"]
    elif verb.endswith("ate"):
        forms.append(verb[:-1] + "ion")
    elif verb.endswith("it"):
        forms.append(verb + "ion")
    return tuple(forms)


@lru_cache(maxsize=256)
def action_of(name: str) -> Action:
    """The forms of one stored action type ('inhibitor' -> inhibit, inhibits, ...)."""
    name = " ".join(name.lower().split())
    words = name.split()
    head = words[-1] if words else name
    plural = name + ("es" if head.endswith(("s", "x")) else "s")
    verb = _verb(head) if len(words) == 1 else None
    forms = (name, plural, *(_inflect(verb) if verb else ()))
    third = verb + "s" if verb else None
    return Action(name, name, plural, verb, third, tuple(dict.fromkeys(forms)))
