"""Which disease a shared name means: the one the graph holds far more facts about, and a
subtype that holds several times its parent's (the ontology's grouping name); which kinds a
yes/no question's ends may be."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.agent.senses import (
    CENTRAL_RATIO,
    DRUG_DISEASE,
    SUBTYPE_RATIO,
    central,
    claim_kinds,
    resolve,
)
from engine.understand.lexicon import STRONG, WEAK, Cue
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


@dataclass
class KindUse:
    rel: str
    src: str
    dst: str


@dataclass
class Features:
    cues: tuple[Cue, ...] = ()
    mechanism: bool = False


class Kinds:
    """A graph whose relations are drug-causes-side effect and drug-treats-disease."""

    def uses(self) -> list[KindUse]:
        return [
            KindUse("CcSE", "Compound", "Side Effect"),
            KindUse("CcSE", "Side Effect", "Compound"),
            KindUse("CtD", "Compound", "Disease"),
            KindUse("CtD", "Disease", "Compound"),
        ]


def test_a_yes_no_questions_ends_are_the_kinds_its_relation_joins() -> None:
    store = Kinds()
    causes = Features((Cue(("CcSE",), 11, 16, "cause", WEAK),))
    # "do statins cause myopathy": a side effect, not the disease of that name
    assert claim_kinds(store, causes) == {"Compound", "Side Effect"}  # type: ignore[arg-type]
    treats = Features((Cue(("CtD",), 8, 13, "treat", STRONG),))
    assert claim_kinds(store, treats) == {"Compound", "Disease"}  # type: ignore[arg-type]
    # no relation named, or how a drug acts: a drug and a disease
    assert claim_kinds(store, Features()) == DRUG_DISEASE  # type: ignore[arg-type]
    assert claim_kinds(store, Features(causes.cues, mechanism=True)) == DRUG_DISEASE  # type: ignore[arg-type]


@dataclass
class Remedy:
    cues: tuple[Cue, ...]
    mechanism: bool = False
    yes_no: bool = False
    target_kind: str | None = None


class GeneOrDisease(Kinds):
    def kind(self, node_id: str) -> str:
        return node_id.split("::")[0]


def test_a_remedy_asked_for_a_name_of_a_gene_and_a_disease_means_the_disease() -> None:
    # "what is given for CML": the leukaemia, not the gene with that synonym
    cml = Mention(
        "CML",
        17,
        20,
        4,
        4,
        [
            Candidate("Gene::613", "CML", "ncbi-gene", False),
            Candidate("Disease::D", "CML", "x", False),
        ],
    )
    given = Remedy((Cue(("CtD",), 8, 17, "given for", WEAK),))
    assert resolve(GeneOrDisease(), cml, given, None, lambda kind, m: 1.0) == ["Disease::D"]  # type: ignore[arg-type]
