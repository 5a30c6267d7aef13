"""0-hop edge predictor: which relations to follow from a node, given the question.

The local provider turns the planner's metapath distribution into per-node relation
probabilities: P(next relation | relations walked so far, node kind). Probabilities are
temperature-calibrated: ``p' = sigmoid(logit(p) / T)``, with T fitted on dev questions
(``fit_temperature``) and stored with the stores.
"""

from __future__ import annotations

import json
import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.graph.metapaths import Metapath
from engine.graph.relations import DirectedRel
from engine.util.numeric import minimize_log_scale

EPS = 1e-6


def logit(p: float) -> float:
    p = min(1 - EPS, max(EPS, p))
    return math.log(p / (1 - p))


def sigmoid(x: float) -> float:
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def calibrate(p: float, temperature: float) -> float:
    return sigmoid(logit(p) / temperature)


def bce(probs: Sequence[float], labels: Sequence[int], temperature: float) -> float:
    total = 0.0
    for p, y in zip(probs, labels, strict=True):
        q = min(1 - EPS, max(EPS, calibrate(p, temperature)))
        total -= y * math.log(q) + (1 - y) * math.log(1 - q)
    return total / max(1, len(probs))


def fit_temperature(probs: Sequence[float], labels: Sequence[int]) -> float:
    """T minimising BCE of sigmoid(logit(p)/T) against labels (golden-section on log T)."""
    return minimize_log_scale(lambda t: bce(probs, labels, t), 0.05, 20.0, iterations=80)


def ece(probs: Sequence[float], labels: Sequence[int], bins: int = 10) -> float:
    """Expected calibration error with equal-width bins."""
    n = len(probs)
    if n == 0:
        return 0.0
    total = 0.0
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        idx = [i for i, p in enumerate(probs) if lo <= p < hi or (b == bins - 1 and p == 1.0)]
        if idx:
            conf = sum(probs[i] for i in idx) / len(idx)
            acc = sum(labels[i] for i in idx) / len(idx)
            total += len(idx) / n * abs(conf - acc)
    return total


@dataclass(frozen=True)
class Calibration:
    temperature: float = 1.0
    n: int = 0
    ece_before: float | None = None
    ece_after: float | None = None
    provider: str = "local"

    @classmethod
    def load(cls, path: Path) -> Calibration:
        if not path.exists():
            return cls()
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(**data)

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.__dict__, indent=2), encoding="utf-8")


class LocalEdgePredictor:
    """Scores the relation uses leaving a node from the question's metapath distribution."""

    name = "local"

    def __init__(
        self, calibration: Calibration | None = None, top_k: int = 4, cache_size: int = 4096
    ) -> None:
        self.calibration = calibration or Calibration()
        self.top_k = top_k
        self._cache: OrderedDict[tuple[str, str, str], list[tuple[DirectedRel, float]]] = (
            OrderedDict()
        )
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()
        """The cache is shared by the threads answering at once (its order moves on a hit)."""
        self.cache_hits = 0

    def predict(
        self,
        qhash: str,
        node_id: str,
        kind: str,
        prefix: tuple[DirectedRel, ...],
        dist: Sequence[tuple[Metapath, float]],
        calibrated: bool = True,
    ) -> list[tuple[DirectedRel, float]]:
        key = (qhash, node_id, ">".join(u.key for u in prefix))
        with self._cache_lock:
            hit = self._cache.get(key)
            if hit is not None:
                self.cache_hits += 1
                self._cache.move_to_end(key)
                return hit
        d = len(prefix)
        mass: dict[DirectedRel, float] = {}
        total = 0.0
        for mp, p in dist:
            if len(mp) <= d or mp.uses[:d] != prefix or mp.uses[d].src != kind:
                continue
            mass[mp.uses[d]] = mass.get(mp.uses[d], 0.0) + p
            total += p
        ranked = sorted(mass.items(), key=lambda kv: -kv[1])[: self.top_k]
        t = self.calibration.temperature if calibrated else 1.0
        out = [(u, calibrate(m / total, t) if total else 0.0) for u, m in ranked]
        with self._cache_lock:
            self._cache[key] = out
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return out
