"""Which disease a shared name means: the one the graph holds far more facts about, and a
subtype that holds several times its parent's (the ontology's grouping name)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.agent.senses import CENTRAL_RATIO, SUBTYPE_RATIO, central
from engine.understand.mentions import Candidate, Mention

LE, SLE, OTHER = "Disease::LE", "Disease::SLE", "Disease::OTHER"


@dataclass
class Use:
    src: str = "Disease"


@dataclass
class Store:
    """A graph of diseases with a number of facts each, and subtype edges."""

    facts: dict[str, int]
    parents: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.ids = list(self.facts)
        self.index = {n: i for i, n in enumerate(self.ids)}

    def kind(self, node_id: str) -> str:
        return "Disease"

    def uses(self) -> list[Use]:
        return [Use()]

    def degree(self, i: int, use: Use) -> int:
        return self.facts[self.ids[i]]

    def objects(self, node_id: str, rel: str) -> list[str]:
        return self.parents.get(node_id, []) if rel == "DsD" else []


def _lupus() -> Mention:
    # "lupus" is lupus erythematosus's own synonym; systemic lupus erythematosus a narrower one
    cands = [Candidate(LE, "lupus", "disease-ontology", False), Candidate(SLE, "lupus", "n", False)]
    return Mention("lupus", 0, 5, 0, 0, cands)


def test_a_subtype_with_several_times_its_parents_facts_is_the_disease_meant() -> None:
    facts = {LE: 49, SLE: 49 * SUBTYPE_RATIO + 67}
    store = Store(facts, {SLE: [LE]})
    assert central(store, _lupus(), [LE, SLE]) == [SLE]  # type: ignore[arg-type]
    # unrelated senses need the larger margin, and are asked about below it
    unrelated = Store(facts)
    assert central(unrelated, _lupus(), [LE, SLE]) == [LE, SLE]  # type: ignore[arg-type]
    far = Store({LE: 10, SLE: 10 * CENTRAL_RATIO})
    assert central(far, _lupus(), [LE, SLE]) == [SLE]  # type: ignore[arg-type]


def test_a_subtype_with_about_as_many_facts_is_asked_about() -> None:
    store = Store({LE: 49, SLE: 49 * SUBTYPE_RATIO - 1}, {SLE: [LE]})
    assert central(store, _lupus(), [LE, SLE]) == [LE, SLE]  # type: ignore[arg-type]
