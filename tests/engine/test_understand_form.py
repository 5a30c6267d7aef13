"""engine.understand.form: the one decision between a question and a statement."""

from __future__ import annotations

import re

import pytest

from engine.understand.form import (
    asked_span,
    asks_for_things,
    declarative_question,
    framed_yes_no,
    is_question,
    is_wh_question,
    polite_request,
    sentences,
    split_turn,
    then_asks_for_things,
    without_frame,
)


@pytest.mark.parametrize(
    "text",
    [
        "Does Mr. Ito have any drug allergies",
        "remind me which gene I logged for the kinase panel.",
        "show me everything about patient 2210",
        "Any new symptoms for Lena Park?",
        "And which one did she come off?",
        "Name the compounds that treat gout",
        "Hasn't 7781 had an MRI yet?",
        "will he need allopurinol",
        "Will Smith need a repeat echo",
        "will you list his meds",
    ],
)
def test_questions_and_requests(text: str) -> None:
    assert is_question(text)


@pytest.mark.parametrize(
    "text",
    [
        "Moved MRN 7781 off lisinopril onto losartan.",
        "Do not give penicillin to pt 3390.",
        "Name: Lena Park, MRN 7781.",
        "Can't tolerate statins, so ezetimibe was started for 3390.",
        "HbA1c for Mr. Ito came back at 8.1% this morning.",
        "will start allopurinol 100mg od in 2 weeks",
        "Will recheck K tomorrow.",
    ],
)
def test_statements(text: str) -> None:
    assert not is_question(text)


def test_split_turn_keeps_abbreviations_and_decimals_inside_a_sentence() -> None:
    text = "Started Mr. Ito on 2.5 mg apixaban. Dr. Shah agreed. What does apixaban treat?"
    assert sentences(text) == [
        "Started Mr. Ito on 2.5 mg apixaban.",
        "Dr. Shah agreed.",
        "What does apixaban treat?",
    ]
    assert split_turn(text) == (
        "Started Mr. Ito on 2.5 mg apixaban. Dr. Shah agreed.",
        "What does apixaban treat?",
    )
    assert split_turn("Which genes does apixaban bind?") == ("", "Which genes does apixaban bind?")


def test_front_ends_share_one_decision() -> None:
    """The front ends' turn and memory import the decision instead of keeping their own copy."""
    import helix_tui.asking as asking
    import memory.router as router
    import memory.service as service
    import wiring.turn as turn

    assert turn.split_turn is split_turn
    assert service.is_question is is_question
    assert not hasattr(router, "looks_like_question")
    assert not hasattr(asking, "looks_like_question")


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        (
            "Could you kindly tell me which genes are expressed in the heart? Thank you so much.",
            "which genes are expressed in the heart?",
        ),
        (
            "Would you be so kind as to list the drugs that treat gout? Many thanks.",
            "the drugs that treat gout?",
        ),
        (
            "I was wondering, could you tell me in which tissues APOE is expressed?",
            "in which tissues APOE is expressed?",
        ),
        ("I am a student. What genes does clozapine bind?", "What genes does clozapine bind?"),
        # a request about a thing is an overview, and a yes/no question stays one
        ("Could you tell me about aspirin?", "Could you tell me about aspirin?"),
        ("Can aspirin treat headache? Thanks.", "Can aspirin treat headache?"),
        ("Could you check if aspirin treats gout?", "Could you check if aspirin treats gout?"),
        ("Could you tell me if aspirin treats gout?", "Could you tell me if aspirin treats gout?"),
        # no question at all: nothing is left out
        ("gout drugs please", "gout drugs please"),
    ],
)
def test_asked_part_leaves_out_courtesy_and_request_frames(text: str, asked: str) -> None:
    names = [
        (m.start(), m.end())
        for m in re.finditer(r"\b(?:APOE|aspirin|clozapine|gout|heart)\b", text)
    ]
    start, end = asked_span(text, names)
    assert text[start:end] == asked


def test_without_a_name_the_other_sentences_are_the_topic() -> None:
    text = "Metered-dose inhalers. Do health care providers know what to teach?"
    assert asked_span(text) == (0, len(text))
    text = "Could you list the studies on inhaler technique?"
    assert text[slice(*asked_span(text))] == "the studies on inhaler technique?"


def test_a_sentence_that_names_something_is_kept() -> None:
    text = "My patient has gout. What else could help? Thanks."
    named = [(text.index("gout"), text.index("gout") + 4)]
    start, end = asked_span(text, named)
    assert text[start:end] == "My patient has gout. What else could help?"


def test_wh_questions_are_never_yes_no() -> None:
    assert is_wh_question("In which tissues is APOE expressed?")
    assert is_wh_question("and what does it bind?")
    assert not is_wh_question("Riluzole for ALS - yes or no?")
    assert not is_wh_question("Does clozapine bind DRD2?")


def test_a_wish_frame_and_a_clause_before_a_semicolon_are_not_asked() -> None:
    q = "I'd like to know which drugs treat psoriasis."
    a, b = asked_span(q, [(q.index("psoriasis"), len(q) - 1)])
    assert q[a:b] == "which drugs treat psoriasis."
    q = "I'm writing a review; which drugs treat psoriasis?"
    a, b = asked_span(q, [(q.index("psoriasis"), len(q) - 1)])
    assert q[a:b] == "which drugs treat psoriasis?"


@pytest.mark.parametrize(
    ("text", "framed"),
    [
        ("Quick q: is fenofibrate known to bind RAF1?", True),
        ("pt on diazepam \u2014 is bradycardia a side effect?", True),
        ("Fenofibrate binds RAF1, yes or no?", True),
        ("Tissue: any genes up there?", False),
        ("Heart: which genes are expressed?", False),
        ("Bradycardia with diazepam \u2014 known side effect or not?", True),
        ("Confirm whether fenofibrate is indicated in gout.", True),
        ("Which drugs treat gout or not-so-rare relatives of it?", False),
        ("metformin treats PCOS, doesn't it?", True),
        ("omeprazole inhibits ATP4A correct?", True),
        ("insulin is a treatment for type 1 diabetes, yes?", True),
        ("is that right?", True),
        ("what is right?", False),
        ("Which drugs are correct for gout?", False),
    ],
)
def test_yes_no_questions_behind_a_label_or_asking_for_yes_or_no(text: str, framed: bool) -> None:
    assert framed_yes_no(text) is framed


@pytest.mark.parametrize(
    ("text", "things"),
    [
        ("Which genes does donepezil bind?", True),
        ("For asthma in children, which inhalers only ease the wheeze?", True),
        ("Working on a grant; what genes go with gout?", True),
        ("List the drugs that bind ESR1.", True),
        ("In which tissues is ESR1 expressed?", True),
        ("Does donepezil bind ACHE?", False),
        ("Alcohol with meals and heart attacks: a benefit?", False),
        ("Statin use after sepsis and mortality", False),
        ("Can you pull up the genes donepezil latches onto?", True),
        ("Could you map donepezil to diseases via its targets?", True),
        ("Can you confirm whether donepezil binds ACHE?", False),
        ("Can donepezil bind ACHE?", False),
    ],
)
def test_a_question_asks_for_things_when_a_clause_opens_with_an_interrogative_or_a_request(
    text: str, things: bool
) -> None:
    assert asks_for_things(text) is things


def test_a_request_put_as_a_question_is_no_yes_no_question() -> None:
    assert polite_request("Can you pull up the genes donepezil latches onto?")
    assert polite_request("ok, would you kindly map aspirin to its targets")
    assert not polite_request("Can you confirm whether donepezil binds ACHE?"), "asks a yes/no"
    assert not polite_request("Can aspirin treat gout?"), "the subject is no 'you'"


@pytest.mark.parametrize(
    ("text", "declarative"),
    [
        ("Fenofibrate treats gout?", True),
        ("ESR1 linked to asthma?", True),
        ("aspirin -> tinnitus?", True),
        ("Alcohol with meals and heart attacks: a benefit?", False),
        ("Which drugs treat gout?", False),
        ("Does fenofibrate treat gout?", False),
        ("gout drugs please", False),
    ],
)
def test_a_statement_said_as_a_question_is_declarative(text: str, declarative: bool) -> None:
    assert declarative_question(text) is declarative


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("Can you check which drug pt 3156 was on?", "which drug pt 3156 was on?"),
        ("Could you please confirm what MRN 4471 is allergic to", "what MRN 4471 is allergic to"),
        ("I need to confirm what pt 12 takes.", "what pt 12 takes."),
        ("Which lab check is due for pt 12?", "Which lab check is due for pt 12?"),
        ("Can you check if pt 12 takes aspirin?", "Can you check if pt 12 takes aspirin?"),
    ],
)
def test_a_frame_round_the_question_is_blanked_with_its_offsets_kept(text: str, asked: str) -> None:
    blanked = without_frame(text)
    assert len(blanked) == len(text) and blanked.strip() == asked


def test_a_sentence_that_goes_on_to_the_next_step_belongs_to_the_request() -> None:
    text = "Step 1: diseases similar to gout. Step 2: drugs that treat each of those."
    named = [(text.index("gout"), text.index("gout") + 4)]
    assert asked_span(text, named) == (0, len(text))


@pytest.mark.parametrize(
    ("text", "then"),
    [
        ("Is LRRK2 worth drugging — which compounds already bind it?", True),
        ("Is X an enzyme or a channel...? What activity does it have?", True),
        ("Is X safe; list the alternatives", True),
        ("Is X, which is a kinase, expressed in the liver?", False),
        ("Which compounds bind LRRK2?", False),
        ("Does X bind Y?", False),
    ],
)
def test_a_later_clause_that_asks_for_things(text: str, then: bool) -> None:
    assert then_asks_for_things(text) is then
