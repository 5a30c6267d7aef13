"""A drug's own pharmacological targets, said first in an answer about how it acts on a disease:
"how does methotrexate work in rheumatoid arthritis" is answered by DHFR, the enzyme it inhibits,
before the transporters its paths to the disease pass through. A target is an edge the action
source types with a pharmacological action (inhibitor, agonist, blocker ...; not a substrate);
Hetionet alone types none, so a build without that source answers as before."""

from __future__ import annotations

from engine.graph.actions import TYPED_REL
from engine.graph.relations import DirectedRel
from engine.graph.store import KGStore
from engine.ranking.evidence import is_pharmacological
from engine.ranking.signals import edge_action
from engine.result import Answer, Evidence, Result, Triple

ASSOCIATES = "DaG"
OWN_TARGETS = 3
"""At most this many of the drug's targets lead a mechanism answer."""


def own_targets(
    store: KGStore, drug: str, disease: str | None = None, most: int = OWN_TARGETS
) -> list[tuple[Triple, str]]:
    """The drug's binding edges with a pharmacological action type, with that action: those
    to genes ``disease`` is associated with first (imatinib's ABL1 in chronic myeloid
    leukemia), then those that fewer drugs bind (the target the drug exists for before an
    enzyme hundreds of drugs bind), then by name."""
    i = store.index.get(drug)
    if i is None:
        return []
    d = store.index.get(disease) if disease is not None else None
    associates = DirectedRel(ASSOCIATES, False, "Disease", "Gene")
    of_disease = set(store.neighbors(d, associates).tolist()) if d is not None else set()
    binds = DirectedRel(TYPED_REL, False, "Compound", "Gene")
    bound = DirectedRel(TYPED_REL, True, "Gene", "Compound")
    triples = [store.triple(i, binds, j) for j in store.neighbors(i, binds).tolist()]
    sources = store.edge_sources(triples)
    acted = [(t, a) for t in triples if is_pharmacological(a := edge_action(sources.get(t, [])))]
    ranked = sorted(
        acted,
        key=lambda ta: (
            store.index[ta[0][2]] not in of_disease,
            store.degree(store.index[ta[0][2]], bound),
            store.name(ta[0][2]).lower(),
        ),
    )
    return [(t, a or "") for t, a in ranked[:most]]


def lead_with_targets(result: Result, store: KGStore, targets: list[tuple[Triple, str]]) -> None:
    """``result``'s answers and paths led by the drug's own targets, each its binding edge
    (an answer already there moves up); the others keep their order."""
    if not targets:
        return
    ids = [t[2] for t, _ in targets]
    have = {a.id: a for a in result.answers}
    top = max((a.score for a in result.answers), default=1.0)
    lead = [have.get(g) or Answer(id=g, name=store.name(g), score=top, kind="Gene") for g in ids]
    for (_, action), answer in zip(targets, lead, strict=True):
        answer.why = f"the drug's target ({action})" + (f"; {answer.why}" if answer.why else "")
    result.answers = lead + [a for a in result.answers if a.id not in set(ids)]
    result.paths = [[t] for t, _ in targets] + result.paths
    result.evidence = [
        Evidence(kind="triple", triple=t, score=1.0) for t, _ in targets
    ] + result.evidence
