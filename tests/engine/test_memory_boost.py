"""S6: the same question with memory off and on; a verified vault fact boosts its answer."""

from __future__ import annotations

import pytest

from engine.config import Settings
from engine.result import Status

pytestmark = pytest.mark.integration

QUESTION = "What drugs treat Alzheimer's disease?"
FACT = ("Compound::DB01043", "CtD", "Disease::DOID:10652")  # memantine


def test_vault_boost_changes_ranking(helix, small_settings: Settings, tmp_path) -> None:
    from memory.clock import SystemClock
    from memory.service import UserMemory

    off = helix.ask(QUESTION)
    assert off.status is Status.ANSWERED and not off.memory_boosted
    base = {a.id: a.score for a in off.answers}
    assert off.answers[0].id != FACT[0]

    settings = small_settings.model_copy(update={"home": tmp_path})
    with UserMemory(settings, "s6-user", clock=SystemClock()) as memory:
        memory.store_fact(*FACT, evidence="Memantine is what we use for Alzheimer's.")
        on = helix.ask(QUESTION, memory=memory)
    assert on.memory_boosted
    assert on.answers[0].id == FACT[0]
    boosted = {a.id: a.score for a in on.answers}
    assert boosted[FACT[0]] == pytest.approx(base[FACT[0]] * settings.vault_boost, rel=1e-3)
    for node, score in base.items():
        if node != FACT[0]:
            assert boosted[node] == pytest.approx(score, rel=1e-3)

    with UserMemory(settings, "someone-else", clock=SystemClock()) as other:
        stranger = helix.ask(QUESTION, memory=other)
    assert not stranger.memory_boosted
    assert stranger.answers[0].id == off.answers[0].id
