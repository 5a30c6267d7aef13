"""Evidence order of one-hop answers: a pure function from what the data holds about each
answer's edge to an evidence score, the order it gives, and a line saying why.

Answers a relation links to the seed all have the same path confidence, so they need another
order than their ids. An answer's evidence score adds up, in this order of weight:

- corroboration: every source beyond the first that states the edge (a layer's DrugCentral or
  DISEASES row on top of Hetionet's), and the best score a source gives it (DISEASES stars);
- action: a pharmacological action type recorded on a drug-target edge (inhibitor, antagonist,
  ...), not a disposition one (substrate);
- links: structural corroboration the graph itself holds (a drug's target associated with a
  disease the drug treats: the target the drug exists for; see ``engine/ranking/signals.py``);
- subtypes: the same relation stated for subtypes of the edge's disease (a drug for allergic
  and for exercise-induced asthma is an asthma drug; a gene of several ovarian cancer types
  is an ovarian cancer gene): the sources agree on the disease, one level down;
- peers: the share of the seed's peers (drugs of its pharmacologic class, diseases resembling
  it) that the relation also links to the answer, times the answer's specificity: agreement of
  the seed's kin counts for much on a rare answer (the class's receptor), little on one the
  relation links to everything (the enzyme every drug passes through);
- specificity: an IDF-like weight, ``log(population / degree) / log(population)``, small for an
  answer the relation links to very many nodes (an enzyme binding 500 drugs);
- mention: a passage retrieved for the question names the answer, scaled by the passage's
  score: the abstracts about a disease name the drugs used for it, yet one abstract says less
  than one more source stating the edge;
- definition: the seed's own definition (the Disease Ontology's) names the answer: "an
  amino acid metabolic disorder ... caused by mutations in the PAH gene", "has_symptom
  wheezing": what the disease is defined by comes first, above any corroboration.

A disease's symptoms (``COMMON_FIRST`` relations) are the exception: asked for the symptoms of a
disease, a clinician expects its typical ones, those the diseases resembling it present too
(tremor of Parkinson's disease), before one that co-occurs with it alone in a few papers. There
the peers' share counts in full, however common the symptom. A drug's side effects
(``COMMONEST_FIRST``) go further: the graph holds a sample of them, where an effect recorded for
one drug alone is as likely an accident of the sample as a telling one, so specificity counts
the other way and the effects many drugs cause come first.

Corroboration and links outweigh specificity: one link or one extra source counts more than
the whole specificity range, so a famous gene that many diseases share still leads when the
data corroborates it, and specificity only orders answers with equal corroboration. Ties break
on the name, never on the id.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

EXTRA_SOURCE_WEIGHT = 1.0
"""Each source stating the edge beyond the first: independent agreement is the strongest sign."""
MAX_EXTRA_SOURCES = 3
"""Extra sources counted at most (a fourth curated copy of the same fact adds nothing new)."""
SOURCE_SCORE_WEIGHT = 0.5
"""The best score a source gives the edge, scaled to [0, 1]: a graded confidence within sources."""
SOURCE_SCORE_SCALE = 5.0
"""The top of the scores sources give (DISEASES confidence stars run 0-5)."""
ACTION_WEIGHT = 0.75
"""A pharmacological action type on the edge: the drug acts on the gene, not the gene on it."""
DISPOSITION_ACTIONS = frozenset({"substrate", "other"})
"""Action types that say how the body handles the drug, not how the drug acts."""
LINK_WEIGHT = 1.0
"""Structural corroboration at saturation: as strong as one more source stating the edge."""
LINK_SATURATION = 4
"""Links at which their weight is full (log-scaled below it; a first link gives half of it)."""
PEER_WEIGHT = 1.0
"""All of the seed's peers sharing a fully specific answer: as strong as one more source."""
SUBTYPE_WEIGHT = 1.0
"""The relation stated for the disease's subtypes, at saturation: as strong as one more source."""
SUBTYPE_SATURATION = 4
"""Subtypes at which their weight is full (log-scaled below it, as links are)."""
MENTION_WEIGHT = 0.75
"""The best retrieved passage naming the answer (a passage's score relative to the best one's):
as strong as an action type, under one more source (the abstracts retrieved for a disease name
the drugs used for it and its typical signs)."""
DEFINED_WEIGHT = 2.0
"""The seed's definition names the answer: above one more source and a link together (the
gene a disease is defined by, the symptoms its definition lists)."""
CLASS_WEIGHT = 1.0
"""All of a drug's class-mates also used for the disease: as strong as one more source (insulin
for type 1 diabetes, a class used for it, before a drug whose class is used for another),
times the drug's specificity: a class used for everything (corticosteroids) says little of
any one disease."""
MIN_CLASS = 3
"""Members a pharmacologic class needs besides the drug for its share to say anything."""
SPECIFICITY_WEIGHT = 0.3
"""Specificity over its whole range, under half of one link: it orders equally corroborated
answers only."""


EVIDENCE_BASE, EVIDENCE_SHARE = 0.8, 0.2
"""A one-hop answer's graph score before fusion: ``score * (EVIDENCE_BASE + EVIDENCE_SHARE *
evidence / top evidence)`` (the two sum to 1): the evidence order survives the fusion with
passage mentions, and a fifth is too little to lift an answer over a likelier reading's."""


@dataclass(frozen=True)
class Signals:
    """What the data holds about one answer's edge to the seed."""

    sources: tuple[str, ...] = ("hetionet",)
    """The distinct sources stating the edge."""
    source_score: float | None = None
    """The best score a source gives the edge, on the source's own scale."""
    action: str | None = None
    """The action type a source records on a drug-target edge ('inhibitor', ...)."""
    links: int = 0
    """Structural corroborations (what they count is ``link_kind``)."""
    link_kind: str = ""
    """What a link is, for the why line: 'treated disease', ..."""
    saturation: int = LINK_SATURATION
    """Links at which their weight is full, for this kind of link."""
    peers: int = 0
    """The seed's peers (same pharmacologic class, resembling diseases) in the data."""
    peers_sharing: int = 0
    """Of those, how many the relation also links to the answer."""
    degree: int = 1
    """How many nodes the relation links the answer to (from the answer's side)."""
    population: int = 1
    """How many nodes of the seed's kind the relation links to anything."""
    commonest_first: bool = False
    """The relation lists a drug's side effects from a sample of them: those many drugs cause
    come first (``COMMONEST_FIRST``), the sample being too thin for a rare one to tell."""
    common_first: bool = False
    """The relation lists a disease's manifestations: its kin's count in full (``COMMON_FIRST``)."""
    subtypes: int = 0
    """Subtypes of the edge's disease the relation also links the edge's other end to."""
    mention: float = 0.0
    """The best score of a retrieved passage naming the answer, in [0, 1] (0: none does)."""
    defined: bool = False
    """The seed's own definition names the answer."""
    class_share: float = 0.0
    """For a drug answering a disease: the largest share of the members of one of its
    pharmacologic classes (of ``MIN_CLASS`` or more) used for the disease too."""


def specificity(degree: int, population: int) -> float:
    """``log(population / degree) / log(population)`` in [0, 1]; 1 for an answer linked to one
    node, 0 for one linked to every node (or with no population to compare with)."""
    if population <= 1:
        return 0.0
    d = min(max(degree, 1), population)
    return math.log(population / d) / math.log(population)


def link_strength(links: int, saturation: int = LINK_SATURATION) -> float:
    """0 without links, 1/2 for one, rising on a log scale to 1 at ``saturation``."""
    if links <= 0:
        return 0.0
    if saturation <= 1:
        return 1.0
    return 0.5 + 0.5 * min(1.0, math.log(links) / math.log(saturation))


def peer_share(s: Signals) -> float:
    """The share of the seed's peers the relation also links to the answer (0 without peers)."""
    return min(1.0, s.peers_sharing / s.peers) if s.peers > 0 else 0.0


def is_pharmacological(action: str | None) -> bool:
    return bool(action) and action not in DISPOSITION_ACTIONS


COMMON_FIRST = frozenset({"DpS", "CcSE"})
"""Relations whose answers are a disease's manifestations or a drug's side effects: those its
kin share first."""
COMMONEST_FIRST = frozenset({"CcSE"})
"""Relations whose commonest answers come first: a drug's side effects, from a sample of
SIDER's, where one listed for a single drug is as likely an oddity of the sample as a telling
effect (rash and nausea before a fracture recorded once)."""


def evidence_score(s: Signals) -> float:
    """The weighted sum of the module docstring (rounded, so equal evidence ties exactly)."""
    extra = min(max(len(s.sources) - 1, 0), MAX_EXTRA_SOURCES)
    graded = min(1.0, s.source_score / SOURCE_SCORE_SCALE) if s.source_score else 0.0
    spec = specificity(s.degree, s.population)
    kin = peer_share(s) if s.common_first else peer_share(s) * spec
    score = (
        EXTRA_SOURCE_WEIGHT * extra
        + SOURCE_SCORE_WEIGHT * graded
        + ACTION_WEIGHT * is_pharmacological(s.action)
        + LINK_WEIGHT * link_strength(s.links, s.saturation)
        + PEER_WEIGHT * kin
        + SUBTYPE_WEIGHT * link_strength(s.subtypes, SUBTYPE_SATURATION)
        + SPECIFICITY_WEIGHT * (1.0 - spec if s.commonest_first else spec)
        + MENTION_WEIGHT * min(1.0, max(0.0, s.mention))
        + DEFINED_WEIGHT * s.defined
        + CLASS_WEIGHT * s.class_share * spec
    )
    return round(score, 6)


def weigh(scores: Mapping[str, float], signals: Mapping[str, Signals]) -> dict[str, float]:
    """Graph scores of one-hop answers weighed by their evidence (``EVIDENCE_BASE`` ...);
    an answer without signals keeps the base share."""
    ev = {n: evidence_score(signals[n]) for n in scores if n in signals}
    top = max(ev.values(), default=0.0)
    if top <= 0:
        return dict(scores)
    return {
        n: sc * (EVIDENCE_BASE + EVIDENCE_SHARE * ev.get(n, 0.0) / top) for n, sc in scores.items()
    }


def evidence_order(signals: Mapping[str, Signals], names: Mapping[str, str]) -> list[str]:
    """Answer ids by evidence score, best first; ties by name (then id, for equal names)."""
    return sorted(signals, key=lambda n: (-evidence_score(signals[n]), names.get(n, n).lower(), n))


def why(s: Signals) -> str:
    """One line saying where the evidence puts the answer: 'sources hetionet + DrugCentral;
    action inhibitor; 2 treated diseases; linked to 3 of 1,552; evidence 2.41'."""
    parts = [f"sources {' + '.join(s.sources)}" if s.sources else "no source recorded"]
    if s.source_score is not None:
        parts.append(f"score {s.source_score:g}")
    if s.action:
        parts.append(f"action {s.action}")
    if s.links:
        parts.append(f"{s.links} {s.link_kind}" if s.link_kind else f"{s.links} links")
    if s.subtypes:
        parts.append(f"{s.subtypes} subtype{'s' if s.subtypes > 1 else ''} too")
    if s.class_share:
        parts.append(f"{s.class_share:.0%} of its class used for it too")
    if s.peers_sharing:
        parts.append(f"shared by {s.peers_sharing} of {s.peers} peers")
    if s.defined:
        parts.append("named in its definition")
    if s.mention:
        parts.append("named in a retrieved passage")
    parts.append(f"linked to {s.degree:,} of {s.population:,}")
    parts.append(f"evidence {evidence_score(s):.2f}")
    return "; ".join(parts)
