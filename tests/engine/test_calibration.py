from __future__ import annotations

import math
import random

from engine.graph.edges import calibrate, ece, fit_temperature, logit, sigmoid


def test_fit_recovers_a_known_temperature() -> None:
    rng = random.Random(3)
    true_t = 2.5
    probs, labels = [], []
    for _ in range(4000):
        p = sigmoid(rng.uniform(-6, 6))
        probs.append(p)
        labels.append(int(rng.random() < sigmoid(logit(p) / true_t)))
    t = fit_temperature(probs, labels)
    assert abs(t - true_t) / true_t < 0.15
    before = ece(probs, labels)
    after = ece([calibrate(p, t) for p in probs], labels)
    assert after < before


def test_calibrate_is_identity_at_t_one_and_monotone() -> None:
    for p in (0.01, 0.3, 0.5, 0.9):
        assert math.isclose(calibrate(p, 1.0), p, rel_tol=1e-9)
    assert calibrate(0.9, 0.5) > 0.9 > calibrate(0.9, 2.0)


def test_ece_of_perfect_calibration_is_small() -> None:
    assert ece([1.0, 1.0, 0.0, 0.0], [1, 1, 0, 0]) == 0.0
    assert math.isclose(ece([0.8] * 10, [1] * 10), 0.2)
