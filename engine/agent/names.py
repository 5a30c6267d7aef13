"""How a name was read when the graph holds it under another disease (``ingest.nearest``) or
it is a disease's initials (``mentions.initialisms``) or a clinical short form
(``shortforms.tsv``) or a drug name cut short ("amio"): said first in the answer ("Reading
'lupus' as systemic lupus erythematosus, ...")."""

from __future__ import annotations

from collections.abc import Iterable

from engine.agent.plan import Plan
from engine.ingest.nearest import BROADER, NARROWER
from engine.result import LinkedEntity
from engine.understand.linking import SHORTENED, STEM_CLASS
from engine.understand.mentions import INITIALISM
from engine.understand.shortforms import SHORT_FORM
from engine.util.text import alias_key

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
            elif not sources and e.kind == "Disease":
                # a symptom's name read as the disease it names ("bulimia": bulimia nervosa)
                notes.append(f"Reading '{m.text}' as {e.name}, the disease its name says.")
            break
    return list(dict.fromkeys(notes))


def named_query(question: str, entities: Iterable[LinkedEntity]) -> str:
    """``question`` with the graph's name of each entity said otherwise put after what was
    said ("first line for T2DM (type 2 diabetes mellitus)"): passages are searched with the
    names abstracts use, not only with initials, brands or misspellings; ``question`` itself
    when every entity is named as the graph names it."""
    out = question
    for e in entities:
        said = e.mention.strip()
        at = out.lower().find(said.lower()) if said else -1
        if at < 0 or alias_key(e.name) in alias_key(said) or e.name.lower() in out.lower():
            continue
        end = at + len(said)
        out = f"{out[:end]} ({e.name}){out[end:]}"
    return out
