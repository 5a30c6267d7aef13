"""How a name was read when the graph holds it under another disease (``ingest.nearest``) or
it is a disease's initials (``mentions.initialisms``) or a clinical short form
(``shortforms.tsv``) or a drug name cut short ("amio"): said first in the answer ("Reading
'lupus' as systemic lupus erythematosus, ...")."""

from __future__ import annotations

from engine.agent.plan import Plan
from engine.ingest.nearest import BROADER, NARROWER
from engine.understand.linking import SHORTENED, STEM_CLASS
from engine.understand.mentions import INITIALISM
from engine.understand.shortforms import SHORT_FORM

SAYS = {
    NARROWER: "the disease the graph holds under that name in the Disease Ontology",
    BROADER: "the nearest broader disease the graph holds",
    INITIALISM: "a disease with these initials",
    SHORT_FORM: "the graph's name for it",
    SHORTENED: "the drug whose name it begins",
    STEM_CLASS: "the class of the drugs whose names end in it",
}


def read_as(plan: Plan) -> list[str]:
    """A line for each of the plan's entities linked only by a nearest-disease alias."""
    notes: list[str] = []
    for e in (*plan.seeds, *plan.targets):
        for m in plan.link.mentions:
            if m.text != e.mention:
                continue
            sources = {c.source for c in m.candidates if c.node_id == e.id}
            if sources and sources <= SAYS.keys():
                how = SAYS[min(sources, key=list(SAYS).index)]
                notes.append(f"Reading '{m.text}' as {e.name}, {how}.")
            break
    return list(dict.fromkeys(notes))
