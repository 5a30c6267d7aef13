"""Budgeted best-first walk over the KG, guided by the edge predictor.

Ordering: a min-heap on ``(1 - edge_conf) / (depth + 1)`` where ``edge_conf`` is the calibrated
probability of the relation just taken — confident edges first, and at equal confidence the
deeper partial path first (it is closer to a complete answer path). Ties break on the path's
accumulated confidence, then on insertion order, so walks are deterministic.

Depth is progressive: the walk first completes every path of length 1, asks the reviewer
whether that suffices, and only then admits length-2 expansions, and so on. Budgets (depth,
nodes expanded, wall time) are hard caps; every result says why the walk stopped.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.config import Settings
from engine.graph.edges import LocalEdgePredictor
from engine.graph.metapaths import Metapath
from engine.graph.relations import UNDIRECTED, DirectedRel
from engine.graph.store import KGStore
from engine.result import Triple

MAX_FANOUT = 400
"""Neighbours followed per (node, relation); the least connected are followed first. A seed's
own one-hop answers are never cut by it (the answer ranking orders them)."""


def _default(name: str) -> float:
    default = Settings.model_fields[name].default
    assert isinstance(default, int | float)
    return default


FRONTIER_EMPTY = "frontier empty"
"""A walk's stop reason when no edge of its reading leads on from the seed."""


@dataclass(frozen=True)
class Budget:
    """The hard caps of one walk; the defaults are the settings' (``HELIX_MAX_DEPTH`` ...)."""

    max_depth: int = int(_default("max_depth"))
    max_nodes: int = int(_default("max_nodes"))
    max_ms: float = _default("max_ms")

    @classmethod
    def of(cls, settings: Settings) -> Budget:
        return cls(settings.max_depth, settings.max_nodes, settings.max_ms)


@dataclass(frozen=True)
class WalkPath:
    nodes: tuple[int, ...]
    uses: tuple[DirectedRel, ...]
    conf: float
    specificity: float = 1.0

    @property
    def end(self) -> int:
        return self.nodes[-1]

    def triples(self, store: KGStore) -> list[Triple]:
        return [store.triple(self.nodes[k], u, self.nodes[k + 1]) for k, u in enumerate(self.uses)]


@dataclass
class WalkResult:
    paths: list[WalkPath] = field(default_factory=list)
    expanded: int = 0
    goal_checks: int = 0
    depth: int = 0
    stop_reason: str = FRONTIER_EMPTY
    elapsed_ms: float = 0.0
    per_depth_ms: dict[int, float] = field(default_factory=dict)


Accept = Callable[[list[WalkPath], int], bool]
DepthHook = Callable[[int, int, int], None]


def _extensions(
    dist: Sequence[tuple[Metapath, float]], prefix: tuple[DirectedRel, ...]
) -> tuple[bool, bool, set[DirectedRel]]:
    """(a metapath ends at prefix, one continues past it by 2+ hops, final hops after it)."""
    d = len(prefix)
    ends = deep = False
    finals: set[DirectedRel] = set()
    for mp, _ in dist:
        if mp.uses[:d] == prefix:
            if len(mp) == d:
                ends = True
            elif len(mp) == d + 1:
                finals.add(mp.uses[d])
            else:
                deep = True
    return ends, deep, finals


def reverse(use: DirectedRel) -> DirectedRel:
    if use.rel in UNDIRECTED:
        return use
    return DirectedRel(use.rel, not use.inverse, use.dst, use.src, use.detail)


def _cond(
    dist: Sequence[tuple[Metapath, float]], prefix: tuple[DirectedRel, ...], nxt: DirectedRel
) -> float:
    """P(next hop | prefix) under the metapath distribution."""
    d = len(prefix)
    total = sum(p for mp, p in dist if len(mp) > d and mp.uses[:d] == prefix)
    part = sum(p for mp, p in dist if len(mp) > d and mp.uses[:d] == prefix and mp.uses[d] == nxt)
    return part / total if total else 0.0


class Walker:
    """Walks one store within ``budget`` (given once, at construction)."""

    def __init__(self, store: KGStore, predictor: LocalEdgePredictor, budget: Budget) -> None:
        self.store = store
        self.predictor = predictor
        self.budget = budget

    def walk(
        self,
        seeds: list[int],
        dist: Sequence[tuple[Metapath, float]],
        *,
        qhash: str,
        targets: set[int] | None = None,
        accept: Accept | None = None,
        on_depth: DepthHook | None = None,
        calibrated: bool = True,
    ) -> WalkResult:
        t0 = time.perf_counter()
        res = WalkResult()
        store, budget = self.store, self.budget
        counter = 0
        heap: list[tuple[float, float, int, WalkPath]] = []
        deferred: list[tuple[float, float, int, WalkPath]] = []
        for s in seeds:
            heap.append((0.0, -1.0, counter, WalkPath((s,), (), 1.0)))
            counter += 1
        heapq.heapify(heap)
        limit = 1
        max_depth = min(budget.max_depth, max((len(mp) for mp, _ in dist), default=0))
        complete: dict[tuple[int, ...], WalkPath] = {}
        back: dict[tuple[str, int], set[int]] = {}

        def before_target(use: DirectedRel, t: int) -> set[int]:
            """Nodes one ``use`` step before target t (meet-in-the-middle for the last hop)."""
            key = (use.key, t)
            if key not in back:
                back[key] = set(store.neighbors(t, reverse(use)).tolist())
            return back[key]

        while True:
            while heap:
                if (time.perf_counter() - t0) * 1000 > budget.max_ms:
                    res.stop_reason = "budget: time"
                    return self._finish(res, complete, t0, limit)
                if res.expanded >= budget.max_nodes:
                    res.stop_reason = "budget: nodes"
                    return self._finish(res, complete, t0, limit)
                _, _, _, path = heapq.heappop(heap)
                node = path.end
                depth = len(path.uses)
                preds = self.predictor.predict(
                    qhash, store.ids[node], store.kinds[node], path.uses, dist, calibrated
                )
                if not preds:
                    continue
                res.expanded += 1
                for use, conf in preds:
                    prefix = (*path.uses, use)
                    ends, deep, finals = _extensions(dist, prefix)
                    if not ends and not deep and not finals:
                        continue
                    new_conf = path.conf * conf
                    if targets is not None and ends and not deep and not finals:
                        for t in targets:
                            res.goal_checks += 1
                            if t not in path.nodes and store.has_edge(node, use, t):
                                self._add(complete, path, use, t, new_conf, node)
                        continue
                    if targets is not None and finals:
                        self._meet(
                            complete, path, use, new_conf, finals, targets, dist, before_target, res
                        )
                        if not ends and not deep:
                            continue
                    cont = deep or (bool(finals) and targets is None)
                    nbrs: list[int] = store.neighbors(node, use).tolist()
                    if ends and depth == 0:
                        # the seed's own answers are all kept: the fan-out cap only limits
                        # what is walked on, and the ranking decides which answers show
                        for j in nbrs:
                            if j not in path.nodes and (targets is None or j in targets):
                                self._add(complete, path, use, j, new_conf, node)
                    if len(nbrs) > MAX_FANOUT:
                        degree = {j: store.degree(j, use) for j in nbrs}
                        nbrs = sorted(nbrs, key=degree.__getitem__)[:MAX_FANOUT]
                    for j in nbrs:
                        if j in path.nodes:
                            continue
                        if ends and depth > 0 and (targets is None or j in targets):
                            self._add(complete, path, use, j, new_conf, node)
                        if cont and (targets is None or j not in targets):
                            child = WalkPath((*path.nodes, j), prefix, new_conf)
                            prio = (1.0 - conf) / (depth + 2)
                            entry = (prio, -new_conf, counter, child)
                            counter += 1
                            if depth + 1 < limit:
                                heapq.heappush(heap, entry)
                            else:
                                deferred.append(entry)
            res.per_depth_ms[limit] = (time.perf_counter() - t0) * 1000
            if on_depth:
                on_depth(limit, res.expanded, len(complete))
            if accept is not None and accept(list(complete.values()), limit):
                res.stop_reason = "answered"
                return self._finish(res, complete, t0, limit)
            if not deferred:
                res.stop_reason = "answered" if complete else FRONTIER_EMPTY
                return self._finish(res, complete, t0, limit)
            if limit >= max_depth:
                res.stop_reason = "budget: depth"
                return self._finish(res, complete, t0, limit)
            limit += 1
            heap = deferred
            heapq.heapify(heap)
            deferred = []

    def _meet(
        self,
        complete: dict[tuple[int, ...], WalkPath],
        path: WalkPath,
        use: DirectedRel,
        conf: float,
        finals: set[DirectedRel],
        targets: set[int],
        dist: Sequence[tuple[Metapath, float]],
        before_target: Callable[[DirectedRel, int], set[int]],
        res: WalkResult,
    ) -> None:
        """Complete two-step endings ``use`` then a final hop into a target without expanding."""
        store = self.store
        node = path.end
        nbrs = store.neighbors(node, use)
        for last in finals:
            p_last = _cond(dist, (*path.uses, use), last)
            for t in targets:
                res.goal_checks += 1
                hits = before_target(last, t).intersection(nbrs.tolist())
                for j in sorted(hits):
                    if j in path.nodes or j == t:
                        continue
                    mid = WalkPath(
                        (*path.nodes, j),
                        (*path.uses, use),
                        conf,
                        path.specificity
                        * (max(1, store.degree(node, use)) ** -0.5 if len(path.nodes) > 1 else 1.0),
                    )
                    self._add(complete, mid, last, t, conf * p_last, j)

    def _add(
        self,
        complete: dict[tuple[int, ...], WalkPath],
        path: WalkPath,
        use: DirectedRel,
        j: int,
        conf: float,
        node: int,
    ) -> None:
        nodes = (*path.nodes, j)
        if nodes in complete:
            return
        spec = path.specificity
        if len(path.nodes) > 1:
            spec *= max(1, self.store.degree(node, use)) ** -0.5
        complete[nodes] = WalkPath(nodes, (*path.uses, use), conf, spec)

    @staticmethod
    def _finish(
        res: WalkResult, complete: dict[tuple[int, ...], WalkPath], t0: float, depth: int
    ) -> WalkResult:
        res.paths = sorted(complete.values(), key=lambda p: (-p.conf, -p.specificity, p.nodes))
        res.depth = depth
        res.elapsed_ms = (time.perf_counter() - t0) * 1000
        return res
