"""Hostile questions through the real engine (``Helix.ask`` over the small real stores): no
exception escapes, every result has a status and a sentence, and the stores are unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from engine.result import Status
from tests.reliability.conftest import store_digest
from tests.reliability.strategies import NASTY, nasty_text

FUZZ = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)


def _check(result, question: str) -> None:
    assert isinstance(result.status, Status)
    assert result.text.strip(), f"no sentence for {question!r}"
    json.dumps(result.to_contract(), ensure_ascii=True)
    if any("\ud800" <= ch <= "\udfff" for ch in question):
        assert result.status is Status.NOT_ANSWERED
        assert "not valid Unicode" in result.text


@pytest.fixture(scope="module")
def digest_before(small_home: Path) -> dict[str, str]:
    return store_digest(small_home)


@pytest.mark.parametrize("question", NASTY, ids=range(len(NASTY)))
def test_hand_picked_questions(helix, digest_before, question: str) -> None:
    _check(helix.ask(question), question)


@FUZZ
@given(question=nasty_text)
def test_fuzzed_questions(helix, question: str) -> None:
    _check(helix.ask(question), question)


@FUZZ
@given(question=nasty_text)
def test_fuzzed_questions_in_graph_mode_with_a_bogus_choice(helix, question: str) -> None:
    _check(helix.ask(question, mode="graph", choice="Compound::NOPE"), question)


def test_stores_unchanged_by_questions(helix, small_home: Path, digest_before) -> None:
    for question in NASTY[:8]:
        helix.ask(question)
    assert store_digest(small_home) == digest_before


def test_a_normal_question_still_answers(helix) -> None:
    result = helix.ask("What drugs treat Alzheimer's disease?")
    assert result.status is Status.ANSWERED and result.answers
    assert result.degraded == []
