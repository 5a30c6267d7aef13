"""Small numeric helpers shared by the planner, the semantic reader and calibration."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence


def softmax(scores: Sequence[float], temperature: float = 1.0) -> list[float]:
    """Probabilities of ``scores`` at ``temperature`` (max-shifted, so large scores are safe)."""
    if not scores:
        return []
    m = max(scores)
    ex = [math.exp((s - m) / temperature) for s in scores]
    z = sum(ex)
    return [e / z for e in ex]


def minimize_log_scale(
    loss: Callable[[float], float], lo: float, hi: float, iterations: int
) -> float:
    """The ``x`` in ``[lo, hi]`` minimising a unimodal ``loss(x)``, by golden-section search on
    ``log x`` (the midpoint of the final bracket)."""
    a_lo, a_hi = math.log(lo), math.log(hi)
    g = (math.sqrt(5) - 1) / 2
    a, b = a_hi - g * (a_hi - a_lo), a_lo + g * (a_hi - a_lo)
    fa, fb = loss(math.exp(a)), loss(math.exp(b))
    for _ in range(iterations):
        if fa < fb:
            a_hi, b, fb = b, a, fa
            a = a_hi - g * (a_hi - a_lo)
            fa = loss(math.exp(a))
        else:
            a_lo, a, fa = a, b, fb
            b = a_lo + g * (a_hi - a_lo)
            fb = loss(math.exp(b))
    return math.exp((a_lo + a_hi) / 2)


def tilt(probs: dict[str, float], signs: dict[str, int], weight: float) -> dict[str, float]:
    """``probs`` with each slot of ``signs`` scaled by exp(``weight`` x its sign), the slots
    of ``signs`` keeping their total mass and every other slot its own. Pure."""
    weighted = {s: probs[s] * math.exp(weight * sign) for s, sign in signs.items()}
    total, mass = sum(weighted.values()), sum(probs[s] for s in signs)
    if total <= 0:
        return probs
    return probs | {s: w * mass / total for s, w in weighted.items()}
