"""Questions about what the sources do not hold (doses, interactions, guidelines ...) are
said to be so, with what the sources hold about the things named; graph questions are not."""

from __future__ import annotations

from typing import Any

from engine.result import Status
from engine.understand.scope import packaged_topics, parse_topics


def test_the_packaged_topics_each_say_what_they_are_and_have_wordings() -> None:
    topics = packaged_topics()
    assert len(topics) >= 8
    assert all(t.says and len(t.wordings) >= 5 for t in topics)
    assert parse_topics("topics:\n  x:\n    wordings: []\n") == ()


def test_a_dosing_question_is_out_of_scope_and_offers_what_is_held(helix: Any) -> None:
    r = helix.ask("what is the usual starting dose of metformin for an adult")
    assert r.status is Status.NOT_ANSWERED
    assert r.stop_reason == "out of scope"
    assert not r.answers
    assert "doses" in r.text and "About **Metformin**" in r.text


def test_an_interaction_question_is_out_of_scope(helix: Any) -> None:
    r = helix.ask("is it ok to take metformin together with glyburide")
    assert r.stop_reason == "out of scope"
    assert "interactions" in r.text


def test_graph_questions_naming_the_same_drug_stay_graph_questions(helix: Any) -> None:
    for question in ("what does metformin treat", "which genes does metformin bind"):
        r = helix.ask(question)
        assert r.status is Status.ANSWERED, question
        assert r.stop_reason != "out of scope"


def test_a_request_for_paperwork_about_a_drug_is_out_of_scope(helix: Any) -> None:
    r = helix.ask("can you renew my metformin")
    assert r.status is Status.NOT_ANSWERED and r.stop_reason == "out of scope"
    assert "prescriptions" in r.text and "About **Metformin**" in r.text


def test_a_condition_named_as_a_side_effect_is_read_as_what_is_asked(helix: Any) -> None:
    # "pregnancy" is a side effect node: masked as one, the question loses its topic
    for question in ("is lamotrigine safe in pregnancy", "which drugs are safe in pregnancy"):
        r = helix.ask(question)
        assert r.intent == "out_of_scope", question
        assert "safety in pregnancy" in r.text


def test_a_question_in_another_language_is_asked_again_in_english(helix: Any) -> None:
    for question in (
        "¿qué medicamentos tratan la epilepsia?",
        "welche Medikamente behandeln Epilepsie",
    ):
        r = helix.ask(question)
        assert r.intent == "not_english" and r.status is Status.NOT_ANSWERED, question
        assert r.text.startswith("Helix understands questions in English")
    # terse English with shorthand is English
    assert helix.ask("whats tx for epilepsy").intent != "not_english"
