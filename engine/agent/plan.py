"""A plan: what the planner made of a question, and what the retriever and explainer act on."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.graph.metapaths import Metapath
from engine.graph.walk import Budget
from engine.result import Candidate, LinkedEntity
from engine.understand.mentions import LinkResult
from engine.understand.parse import Features
from engine.understand.reading import Reading
from engine.understand.scope import ScopeReading
from engine.understand.sets import SetOp


@dataclass
class Plan:
    question: str
    qhash: str
    intent: str
    features: Features
    link: LinkResult
    seeds: list[LinkedEntity] = field(default_factory=list)
    targets: list[LinkedEntity] = field(default_factory=list)
    dist: list[tuple[Metapath, float]] = field(default_factory=list)
    parse_score: float | None = None
    clarification: str | None = None
    candidates: list[Candidate] = field(default_factory=list)
    unlinked: list[str] = field(default_factory=list)
    budget: Budget = field(default_factory=Budget)
    note: str = ""
    instead: LinkedEntity | None = None
    """A disease a therapy question about a symptom may mean ("meds for anxiety": anxiety
    disorder), asked instead when the symptom has no answer."""
    uncovered: list[str] = field(default_factory=list)
    reading: Reading | None = None
    """What the question means by the exemplar bank (None without an embedder)."""
    members: list[LinkedEntity] = field(default_factory=list)
    """A set question's two entities of the seed's kind, in the order said; the walk answers
    for each and ``set_op`` combines them."""
    set_op: SetOp | None = None
    members_said: str = ""
    """How the answer names ``members`` that the question does not list (the conversation's
    last answers, ``ask(among=...)``; the drugs of a class it names): then those left out are
    not said one by one."""
    set_counts: list[int] = field(default_factory=list)
    set_held: dict[str, int] = field(default_factory=dict)
    """For a set question of any of its entities: answer id -> how many of them reach it."""
    """How many answers the walk from each of ``members`` reached."""
    scope: ScopeReading | None = None
    """The topic the sources do not hold that the question asks for (intent
    ``out_of_scope``)."""
    excluded: list[LinkedEntity] = field(default_factory=list)
    """Names the question sets apart from the answers it wants ("besides epilepsy"): no
    answer, and said in the headline."""
    excluded_said: str = ""
    """How the headline names ``excluded`` when the question names them as a group ("not
    Adrenergic beta-Antagonists"): then they are not said one by one."""
    definition: bool = False
    """The question asks what its one named thing is ("what is SLE", "define sarcoidosis"):
    an overview that names the thing first, with its definition where the data has one."""
    therapy: bool = False
    """The question asks for a therapy: walked along treats and palliates, answered in two
    labelled groups (``therapy``)."""
    action: str | None = None
    """The drug-target action type asked ('inhibitor'), whose edges the walk keeps when the
    seed has any (``note`` says which)."""
