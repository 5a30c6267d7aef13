from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory.router import Router, Temporal

NOW = datetime(2026, 3, 9, 10, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "kind", "anchor"),
    [
        ("What is MRN 4471 on at the moment?", Temporal.CURRENT, None),
        ("Most recent LDL for MRN 4212?", Temporal.CURRENT, None),
        ("What was MRN 8976's last PASI result?", Temporal.CURRENT, None),
        ("What did we switch MRN 2557 to?", Temporal.CURRENT, None),
        ("What was MRN 4036's second-to-last CA 19-9?", Temporal.PREVIOUS, None),
        ("What was the previous result for our biobank cohort study?", Temporal.PREVIOUS, None),
        ("What was Lena Lindqvist's HbA1c on the earlier check?", Temporal.PREVIOUS, None),
        ("What was Amina Kim originally started on?", Temporal.FIRST, None),
        ("What was the baseline FEV1 for pt 5304?", Temporal.FIRST, None),
        ("Which compound did the biobank cohort start with as lead?", Temporal.FIRST, None),
        (
            "What did we have patient 1601 on prior to levothyroxine?",
            Temporal.BEFORE,
            "levothyroxine",
        ),
        (
            "Which medication did felodipine replace for Priya Nakamura?",
            Temporal.BEFORE,
            "felodipine",
        ),
        (
            "Before Gefitinib, which compound led our neuroinflammation work?",
            Temporal.BEFORE,
            "Gefitinib",
        ),
        ("What replaced metformin for MRN 4471?", Temporal.AFTER, "metformin for MRN 4471"),
        # a clause after "before" sets no time: it is when the user asks, not a value
        ("Before we refill it, what is MRN 4471 taking?", Temporal.CURRENT, None),
        ("Before I dose her: which drugs is pt 2210 allergic to?", Temporal.CURRENT, None),
        # before every change there was the first value
        ("What was pt 2210 on prior to all the switches?", Temporal.FIRST, None),
        ("Which lead did the screen use before any change?", Temporal.FIRST, None),
        ("the kinase screen old lead?", Temporal.PREVIOUS, None),
        ("How old is the latest HbA1c for pt 2210?", Temporal.CURRENT, None),
        # "did ... use to" is "used to" under do-support; "use to treat" is no time
        ("Which statin did MRN 4471 use to take?", Temporal.PREVIOUS, None),
        ("What do we use to treat gout in MRN 4471?", Temporal.CURRENT, None),
        ("What did MRN 4471's creatinine come back as most recently?", Temporal.CURRENT, None),
        ("second latest LDL for pt 2210?", Temporal.PREVIOUS, None),
        # a "pre-" glued to a name says "before" it; "pre-op" names no value
        ("the pre-Warfarin regimen of MRN 4471", Temporal.BEFORE, "Warfarin"),
        ("pre-op creatinine of MRN 4471", Temporal.CURRENT, None),
        (
            "Which HbA1c result preceded pt 2210's current one?",
            Temporal.BEFORE,
            "pt 2210's current one",
        ),
    ],
)
def test_temporal_intent(question: str, kind: Temporal, anchor: str | None) -> None:
    intent = Router().temporal(question, NOW)
    assert intent.kind == kind
    assert intent.anchor == anchor


def test_before_the_latest_one_falls_back_to_previous() -> None:
    intent = Router().temporal("What was MRN 2646's CEA before the latest one?", NOW)
    assert intent.kind == Temporal.BEFORE and intent.fallback == Temporal.PREVIOUS


def test_before_with_nothing_to_anchor_on_yields_to_a_current_word_elsewhere() -> None:
    router = Router()
    errand = router.temporal("Before surgery I need pt 7710's newest ALT.", NOW)
    assert errand.kind == Temporal.CURRENT, "'before' here dates the errand, not the value"
    aside = router.temporal(
        "Ahead of rounds and before surgery, give me pt 7710's newest ALT.", NOW
    )
    assert aside.kind == Temporal.BEFORE and aside.fallback == Temporal.CURRENT
    bare = router.temporal("Before surgery we reviewed pt 7710's ALT. Which value was it?", NOW)
    assert bare.kind == Temporal.PREVIOUS
    anchored = router.temporal("Most recent log says pt 7710 had what before the clinic?", NOW)
    assert anchored.kind == Temporal.BEFORE and anchored.fallback == Temporal.CURRENT
    inside = router.temporal("pt 7710's ALT prior to the newest one?", NOW)
    assert inside.kind == Temporal.BEFORE and inside.fallback == Temporal.PREVIOUS


def test_last_alone_reads_current_softly_and_a_current_word_firmly() -> None:
    last = Router().temporal("What was MRN 8976's last PASI result?", NOW)
    assert last.kind == Temporal.CURRENT and last.explicit and last.soft
    now = Router().temporal("What is MRN 8976 on right now, since the last switch?", NOW)
    assert now.kind == Temporal.CURRENT and now.explicit and not now.soft
    assert Router().temporal("pt 5170 last-but-one CRP?", NOW).kind == Temporal.PREVIOUS


def test_as_of_intents_use_the_given_now() -> None:
    intent = Router().temporal("What was she on last week?", NOW)
    assert intent.kind == Temporal.AS_OF and intent.as_of == NOW - timedelta(days=7)
    assert Router().temporal("labs 3 days ago", NOW).as_of == NOW - timedelta(days=3)


def test_routes_from_rules_and_from_the_alias_index() -> None:
    router = Router(resolve=lambda q: ["patient:6328"] if "Victor Costa" in q else [])
    assert router.route("What is MRN 4471 on now?", NOW).rule == "patient"
    assert router.route("In my notes, avanafil inhibits which gene?", NOW).rule == "own-notes"
    hit = router.route("Current med for Victor Costa?", NOW)
    assert hit.rule == "subject-hit" and hit.subjects == ("patient:6328",) and hit.memory
    mech = router.route("How could metformin act on type 2 diabetes?", NOW)
    assert mech.rule == "mechanism" and not mech.memory
    assert router.route("Which drugs treat gout?", NOW).rule == "default"
