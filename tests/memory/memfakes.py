"""A small deterministic linker over a handful of names (for memory tests), and memories
opened over it for replays."""

from __future__ import annotations

from engine.config import Settings
from memory.clock import Clock
from memory.linking import AliasHit, StatementLinker
from memory.replay.run import OpenMemory
from memory.service import UserMemory

NODES: dict[str, tuple[str, str]] = {
    "Compound::DB00331": ("Metformin", "Compound"),
    "Compound::DB01261": ("Sitagliptin", "Compound"),
    "Compound::DB00683": ("Midazolam", "Compound"),
    "Compound::DB01068": ("Clonazepam", "Compound"),
    "Compound::DB04868": ("Nilotinib", "Compound"),
    "Compound::DB00945": ("Acetylsalicylic acid", "Compound"),
    "Compound::DB01053": ("Benzylpenicillin", "Compound"),
    "Compound::DB06209": ("Prasugrel", "Compound"),
    "Compound::DB00590": ("Doxazosin", "Compound"),
    "Compound::DB00457": ("Prazosin", "Compound"),
    "Gene::2049": ("EPHB3", "Gene"),
    "Gene::64805": ("P2RY12", "Gene"),
    "Gene::5426": ("POLE", "Gene"),
    "Gene::50848": ("F11R", "Gene"),
    "Disease::DOID:9352": ("type 2 diabetes mellitus", "Disease"),
    "Disease::DOID:1826": ("epilepsy", "Disease"),
    "Side Effect::C0014544": ("Epilepsy", "Side Effect"),
    "Symptom::D003221": ("Confusion", "Symptom"),
    "Symptom::D011537": ("Pruritus", "Symptom"),
    "Side Effect::C0033774": ("Pruritus", "Side Effect"),
    "Pharmacologic Class::N0000171131": ("Allergens", "Pharmacologic Class"),
    "Disease::DOID:13189": ("gout", "Disease"),
    "Side Effect::C0018099": ("Gout", "Side Effect"),
    "Side Effect::C1619733": ("Gout flare", "Side Effect"),
    "Side Effect::C0036983": ("Septic shock", "Side Effect"),
    "Side Effect::C0017110": ("Gas", "Side Effect"),
    "Disease::DOID:9477": ("pulmonary embolism", "Disease"),
    "Side Effect::C0034065": ("Pulmonary embolism", "Side Effect"),
    "Compound::DB00682": ("Warfarin", "Compound"),
    "Disease::DOID:3488": ("cellulitis", "Disease"),
    "Anatomy::UBERON:0000978": ("leg", "Anatomy"),
    "Compound::DB00688": ("Mycophenolate mofetil", "Compound"),
    "Compound::DB00864": ("Tacrolimus", "Compound"),
    "Compound::DB00695": ("Furosemide", "Compound"),
    "Compound::DB00798": ("Gentamicin", "Compound"),
    "Symptom::D004244": ("Dizziness", "Symptom"),
    "Disease::DOID:0060224": ("atrial fibrillation", "Disease"),
    "Symptom::D003248": ("Constipation", "Symptom"),
    "Pharmacologic Class::N0000008048": ("Sulfonamides", "Pharmacologic Class"),
}
ALIASES: dict[str, list[str]] = {
    "metformin": ["Compound::DB00331"],
    "glucophage": ["Compound::DB00331"],
    "sitagliptin": ["Compound::DB01261"],
    "midazolam": ["Compound::DB00683"],
    "clonazepam": ["Compound::DB01068"],
    "nilotinib": ["Compound::DB04868"],
    "aspirin": ["Compound::DB00945"],
    "penicillin g": ["Compound::DB01053"],
    "penicillin": ["Compound::DB01053"],
    "prasugrel": ["Compound::DB06209"],
    "doxazosin": ["Compound::DB00590"],
    "prazosin": ["Compound::DB00457"],
    "ephb3": ["Gene::2049"],
    "p2ry12": ["Gene::64805"],
    "pole": ["Gene::5426"],
    "jama": ["Gene::50848"],
    "type 2 diabetes": ["Disease::DOID:9352"],
    "type 2 diabetes mellitus": ["Disease::DOID:9352"],
    "epilepsy": ["Side Effect::C0014544", "Disease::DOID:1826"],
    "confusion": ["Symptom::D003221"],
    "pruritus": ["Side Effect::C0033774", "Symptom::D011537"],
    "itching": ["Side Effect::C0033774", "Symptom::D011537"],
    "allergens": ["Pharmacologic Class::N0000171131"],
    "gout": ["Disease::DOID:13189", "Side Effect::C0018099"],
    "gout flare": ["Side Effect::C1619733"],
    "septic shock": ["Side Effect::C0036983"],
    "gas": ["Side Effect::C0017110"],
    "pulmonary embolism": ["Side Effect::C0034065", "Disease::DOID:9477"],
    "warfarin": ["Compound::DB00682"],
    "cellulitis": ["Disease::DOID:3488"],
    "leg": ["Anatomy::UBERON:0000978"],
    "mmf": ["Compound::DB00688"],
    "mycophenolate mofetil": ["Compound::DB00688"],
    "tacrolimus": ["Compound::DB00864"],
    "furosemide": ["Compound::DB00695"],
    "lasix": ["Compound::DB00695"],
    "gentamicin": ["Compound::DB00798"],
    "gent": ["Compound::DB00798"],
    "dizziness": ["Symptom::D004244"],
    "atrial fibrillation": ["Disease::DOID:0060224"],
    "constipation": ["Symptom::D003248"],
    "sulfonamides": ["Pharmacologic Class::N0000008048"],
}


def fake_linker() -> StatementLinker:
    return StatementLinker(
        lambda key: [AliasHit(n) for n in ALIASES.get(key, [])],
        lambda node: NODES[node][0] if node in NODES else None,
        lambda node: NODES[node][1] if node in NODES else None,
    )


def plain_memory(linker: StatementLinker) -> OpenMemory:
    """Opens each user's memory over ``linker`` alone (no embedder, no sessions), for replays."""

    def open_one(settings: Settings, user: str, clock: Clock) -> UserMemory:
        return UserMemory(settings, user, clock=clock, linker=linker)

    return open_one
