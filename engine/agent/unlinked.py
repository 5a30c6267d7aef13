"""When a named thing links to no node: the node names spelled inside the phrase (for the
not-found note), and seeds found among the entities of the top passages."""

from __future__ import annotations

from engine.agent.plan import Plan
from engine.agent.planner import Planner
from engine.agent.steps import Steps
from engine.config import Settings
from engine.graph.store import KGStore
from engine.index.dense import PassageHit
from engine.providers.embedder.base import Embedder
from engine.result import LinkedEntity

MAX_PASSAGE_ENTITIES = 200
"""Passage entities compared with the unlinked mention."""


def contained(store: KGStore, planner: Planner, phrases: list[str]) -> dict[str, list[str]]:
    """Node names spelled inside each phrase (exact aliases, as the linker reads them)."""
    linker = planner.linker
    return {
        p: [store.name(m.node_ids[0]) for m in linker.link(p, fallback=False).mentions]
        for p in phrases
    }


def dense_seed(
    plan: Plan,
    hits: list[PassageHit],
    steps: Steps,
    *,
    store: KGStore,
    planner: Planner,
    embedder: Embedder | None,
    settings: Settings,
) -> None:
    """Linking failed: look for the missing entity among entities named in top passages.

    A passage entity becomes a seed only if its name embeds within ``embed_accept`` of the
    unlinked mention; otherwise the question stays unanswered. Seeds make ``plan`` one-hop.
    """
    if embedder is None or not plan.unlinked:
        return
    with steps.step("dense", "seeding from passages") as a:
        texts = store.passages([h.id for h in hits[: settings.dense_top_n]])
        found: dict[str, str] = {}
        for _, text, _ in texts.values():
            for m in planner.linker.link(text, fallback=False).mentions:
                if len(m.node_ids) == 1:
                    found.setdefault(m.node_ids[0], m.text)
        a["passage_entities"] = len(found)
        if not found:
            return
        ids = list(found)[:MAX_PASSAGE_ENTITIES]
        names = [store.name(n) for n in ids]
        vecs = embedder.encode([*plan.unlinked, *names])
        q, cand = vecs[: len(plan.unlinked)], vecs[len(plan.unlinked) :]
        sims = (cand @ q.T).max(axis=1)
        ranked = sorted(zip(ids, sims.tolist(), strict=True), key=lambda x: -x[1])
        seeds = [(n, s) for n, s in ranked if s >= settings.embed_accept]
        seeds = seeds[: settings.max_seeds_from_dense]
        a["seeds"] = [n for n, _ in seeds]
        if seeds:
            plan.seeds = [
                LinkedEntity(
                    mention=plan.unlinked[0],
                    id=n,
                    name=store.name(n),
                    kind=store.kind(n),
                    score=float(s),
                    method="dense-seed",
                )
                for n, s in seeds
            ]
            plan.intent = "one_hop"
            plan.dist = planner.dist_for(plan.seeds[0].kind, plan)
