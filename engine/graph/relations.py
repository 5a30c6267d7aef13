"""The relation vocabulary: Hetionet's 24 metaedges, with human descriptions and paraphrases.

A *directed use* of a relation is written ``rel`` (subject -> object, as stored) or ``rel^-1``
(object -> subject). The four undirected metaedges (CrC, DrD, GcG, GiG) are walked both ways
under the plain name.

Over 350 lines on purpose: most of it is the table of relations itself (``RELATIONS``), one
entry per metaedge with its descriptions and paraphrases, read as data rather than code.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.graph.actions import action_of


@dataclass(frozen=True)
class Relation:
    rel: str
    source: str
    target: str
    verb: str
    description: str
    forward: tuple[str, ...]
    """Phrases for 'source REL target' (question asks for targets of a source)."""
    backward: tuple[str, ...]
    """Phrases for the reverse reading (question asks for sources of a target)."""
    undirected: bool = False


R = Relation
RELATIONS: tuple[Relation, ...] = (
    R(
        "AdG",
        "Anatomy",
        "Gene",
        "downregulates",
        "Genes under-expressed in an anatomical structure",
        ("genes downregulated in", "genes under-expressed in"),
        ("anatomy where the gene is downregulated", "tissues where it is under-expressed"),
    ),
    R(
        "AeG",
        "Anatomy",
        "Gene",
        "expresses",
        "Genes expressed in an anatomical structure",
        ("genes expressed in", "what does this tissue express"),
        ("where is the gene expressed", "tissues expressing"),
    ),
    R(
        "AuG",
        "Anatomy",
        "Gene",
        "upregulates",
        "Genes over-expressed in an anatomical structure",
        ("genes upregulated in", "genes over-expressed in"),
        ("anatomy where the gene is upregulated", "tissues where it is over-expressed"),
    ),
    R(
        "CbG",
        "Compound",
        "Gene",
        "binds",
        "Compound binds the protein encoded by a gene (drug target)",
        ("gene targets of", "genes the drug binds", "proteins the compound binds to", "targets of"),
        ("drugs that bind", "compounds targeting", "drugs binding the gene product", "ligands of"),
    ),
    R(
        "CcSE",
        "Compound",
        "Side Effect",
        "causes",
        "Side effect caused by a compound",
        ("side effects of", "adverse effects caused by", "adverse reactions to"),
        ("drugs that cause", "compounds causing the side effect"),
    ),
    R(
        "CdG",
        "Compound",
        "Gene",
        "downregulates",
        "Compound decreases a gene's expression",
        ("genes downregulated by", "genes whose expression the drug decreases"),
        ("compounds that downregulate", "drugs decreasing expression of"),
    ),
    R(
        "CpD",
        "Compound",
        "Disease",
        "palliates",
        "Compound relieves symptoms of a disease",
        ("diseases the drug palliates", "conditions relieved by", "symptomatic relief"),
        ("drugs that palliate", "palliative drugs for", "drugs that relieve symptoms of"),
    ),
    R(
        "CrC",
        "Compound",
        "Compound",
        "resembles",
        "Compounds with similar chemical structure",
        ("compounds similar to", "drugs resembling", "structurally similar drugs"),
        ("compounds similar to", "drugs resembling"),
        undirected=True,
    ),
    R(
        "CtD",
        "Compound",
        "Disease",
        "treats",
        "Compound is an approved treatment of a disease",
        (
            "diseases the drug treats",
            "what is the drug used to treat",
            "indications of",
            "conditions it is indicated for",
        ),
        (
            "drugs that treat",
            "medicines used to treat",
            "treatments for",
            "remedy for",
            "therapies indicated for",
        ),
    ),
    R(
        "CuG",
        "Compound",
        "Gene",
        "upregulates",
        "Compound increases a gene's expression",
        ("genes upregulated by", "genes whose expression the drug increases"),
        ("compounds that upregulate", "drugs increasing expression of"),
    ),
    R(
        "DaG",
        "Disease",
        "Gene",
        "associates",
        "Gene associated with a disease (GWAS, curated)",
        ("genes associated with", "genes linked to the disease", "susceptibility genes for"),
        ("diseases associated with the gene", "conditions linked to the gene"),
    ),
    R(
        "DdG",
        "Disease",
        "Gene",
        "downregulates",
        "Gene under-expressed in a disease",
        ("genes downregulated in the disease",),
        ("diseases in which the gene is downregulated",),
    ),
    R(
        "DlA",
        "Disease",
        "Anatomy",
        "localizes",
        "Anatomical structure a disease localizes to",
        ("where does the disease localize", "anatomical structures affected by", "body parts"),
        ("diseases localizing to", "diseases affecting this structure"),
    ),
    R(
        "DpS",
        "Disease",
        "Symptom",
        "presents",
        "Symptom a disease presents with",
        ("symptoms of", "clinical signs of", "how does the disease present"),
        ("diseases presenting with", "conditions whose symptoms include"),
    ),
    R(
        "DrD",
        "Disease",
        "Disease",
        "resembles",
        "Diseases that resemble each other",
        ("diseases similar to", "diseases resembling", "related conditions"),
        ("diseases similar to", "diseases resembling"),
        undirected=True,
    ),
    R(
        "DuG",
        "Disease",
        "Gene",
        "upregulates",
        "Gene over-expressed in a disease",
        ("genes upregulated in the disease",),
        ("diseases in which the gene is upregulated",),
    ),
    R(
        "GcG",
        "Gene",
        "Gene",
        "covaries",
        "Genes whose evolutionary profiles covary",
        ("genes covarying with", "genes that co-vary with"),
        ("genes covarying with",),
        undirected=True,
    ),
    R(
        "GiG",
        "Gene",
        "Gene",
        "interacts",
        "Protein-protein interaction",
        ("genes interacting with", "interaction partners of", "proteins that interact with"),
        ("interaction partners of",),
        undirected=True,
    ),
    R(
        "GpBP",
        "Gene",
        "Biological Process",
        "participates",
        "Gene takes part in a biological process",
        ("biological processes of the gene",),
        ("genes participating in the process",),
    ),
    R(
        "GpCC",
        "Gene",
        "Cellular Component",
        "participates",
        "Gene product located in a cell component",
        ("cellular components of the gene",),
        ("genes in the cellular component",),
    ),
    R(
        "GpMF",
        "Gene",
        "Molecular Function",
        "participates",
        "Gene product has a molecular function",
        ("molecular functions of the gene",),
        ("genes with the molecular function",),
    ),
    R(
        "GpPW",
        "Gene",
        "Pathway",
        "participates",
        "Gene takes part in a pathway",
        ("pathways the gene participates in",),
        ("genes in the pathway",),
    ),
    R(
        "Gr>G",
        "Gene",
        "Gene",
        "regulates",
        "Gene knock-down changes another gene's expression",
        ("genes regulated by", "downstream genes of"),
        ("genes regulating", "upstream regulators of"),
    ),
    R(
        "PCiC",
        "Pharmacologic Class",
        "Compound",
        "includes",
        "Pharmacologic class includes a compound",
        ("drugs in the class", "members of the pharmacologic class", "compounds classified as"),
        ("pharmacologic classes of", "drug classes the compound belongs to"),
    ),
)

LAYER_RELATIONS: tuple[Relation, ...] = (
    R(
        "DsD",
        "Disease",
        "Disease",
        "is a subtype of",
        "Disease is a subclass (subtype) of a broader disease in the Disease Ontology",
        ("broader diseases of", "parent disease of", "what kind of disease is"),
        ("subtypes of", "forms of", "kinds of", "types of"),
    ),
)
"""Relations that only data layers bring (``disease-pack``); stored with the layer's relation
rows, not part of Hetionet's schema that metapaths are enumerated over."""

UNDIRECTED = frozenset(r.rel for r in RELATIONS if r.undirected)
BY_ABBREV: dict[str, Relation] = {r.rel: r for r in RELATIONS}

KIND_ABBREV = {
    "Anatomy": "A",
    "Biological Process": "BP",
    "Cellular Component": "CC",
    "Compound": "C",
    "Disease": "D",
    "Gene": "G",
    "Molecular Function": "MF",
    "Pathway": "PW",
    "Pharmacologic Class": "PC",
    "Side Effect": "SE",
    "Symptom": "S",
}


@dataclass(frozen=True)
class DirectedRel:
    """A relation used from one node kind to another; ``detail`` restricts it to the edges
    whose detail names that action type (``CbG`` edges DrugCentral types 'inhibitor')."""

    rel: str
    inverse: bool
    src: str
    dst: str
    detail: str | None = None

    @property
    def key(self) -> str:
        name = f"{self.rel}[{self.detail}]" if self.detail else self.rel
        return f"{name}^-1" if self.inverse else name

    @property
    def verb(self) -> str:
        """'inhibits' for a typed use whose action has a verb, else the relation's verb."""
        if self.detail:
            action = action_of(self.detail)
            if action.third:
                return action.third
        return verb_phrase(self.rel)

    def orient(self, node: str, other: str) -> tuple[str, str, str]:
        """The stored triple for a step from ``node`` to ``other`` along this use."""
        return (other, self.rel, node) if self.inverse else (node, self.rel, other)


@lru_cache(maxsize=1)
def directed_uses() -> tuple[DirectedRel, ...]:
    uses: list[DirectedRel] = []
    for r in RELATIONS:
        uses.append(DirectedRel(r.rel, False, r.source, r.target))
        if not r.undirected:
            uses.append(DirectedRel(r.rel, True, r.target, r.source))
    return tuple(uses)


@lru_cache(maxsize=1)
def _uses_by_key() -> dict[str, DirectedRel]:
    return {u.key: u for u in directed_uses()}


def use_of(key: str) -> DirectedRel:
    """The directed relation use of a key ("PCiC^-1": a drug to the classes that include it)."""
    return _uses_by_key()[key]


def uses_from(kind: str) -> list[DirectedRel]:
    return [u for u in directed_uses() if u.src == kind]


def verb_phrase(rel: str) -> str:
    r = BY_ABBREV.get(rel) or next((x for x in LAYER_RELATIONS if x.rel == rel), None)
    return r.verb if r else rel.replace("_", " ")


def forward_hop(rel: str) -> str:
    """A relation read from subject to object: ``—treats→``."""
    return f"—{verb_phrase(rel)}→"


def backward_hop(rel: str) -> str:
    """A relation read from object back to subject: ``←treats—``."""
    return f"←{verb_phrase(rel)}—"


def triple_text(triple: Sequence[str], name: Callable[[str], str]) -> str:
    """The one way a triple is written: ``Donepezil —treats→ Alzheimer's disease``."""
    subj, rel, obj = triple
    return f"{name(subj)} {forward_hop(rel)} {name(obj)}"


_THIRD_PERSON = re.compile(r"^[a-z]+[^s]s$")


def use_phrase(use: DirectedRel, seed: str, dst: str, many: bool = False) -> str:
    """What a one-hop question asks, for an answer's summary: 'Compounds that treat X',
    'Genes that X inhibits', 'Mode of inheritance of X' (a KGX predicate read from its
    words), 'Genotypes that are model of X'. ``many``: the seed is several things ('both X
    and Y'), the subject of a plural verb."""
    undirected = use.rel in UNDIRECTED
    if dst == use.dst:  # a kind the caller has no plural for (a KGX kind)
        dst = dst[:-1] + "ies" if dst.endswith("y") else dst + "s"
    if use.detail:
        action = action_of(use.detail)
        if action.verb is None:
            if use.inverse:
                return f"{dst} that are {action.plural} of {seed}"
            article = "an" if action.noun[:1] in "aeiou" else "a"
            return f"{dst} of which {seed} is {article} {action.noun}"
    known = use.rel in BY_ABBREV or any(x.rel == use.rel for x in LAYER_RELATIONS)
    verb = use.verb
    if verb == "associates":  # said of either end alike: 'genes associated with X'
        return f"{dst} associated with {seed}"
    if known or use.detail:
        if use.inverse or undirected:
            return f"{dst} that {verb.removesuffix('s')} {seed}"
        return f"{dst} that {seed} {verb.removesuffix('s') if many else verb}"
    first, _, rest = verb.partition(" ")
    if first == "has" and rest:
        return f"{dst} that have {rest} {seed}" if use.inverse else f"{rest.capitalize()} of {seed}"
    if _THIRD_PERSON.match(first) and first not in {"is", "was"}:
        if use.inverse:
            return f"{dst} that {' '.join([first[:-1], rest]).strip()} {seed}"
        return f"{dst} that {seed} {verb}"
    return f"{dst} that are {verb} {seed}" if use.inverse else f"{dst} that {seed} is {verb}"
