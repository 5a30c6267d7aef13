"""Memory as clinicians state it and ask about it (issue 36), on the real stores of both back
ends with the real embedding model.

- words of care, harm or exposure ask for the diagnosis, the side effect, the allergy;
- verbs of change: the value a patient was moved to, the one a series began with;
- project notes asked by role (the lead now, the one set aside), leads named by in-house codes;
- a relation never stated for a subject is reported missing, whatever the words;
- clinical short forms in statements ("dex", "CsA", "lung ca", "high potassium").

The wordings are our own, none of them a wording of the exemplar bank.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.config import Settings
from engine.result import Result, Status
from engine.understand.shortforms import short_forms
from memory.asks import AskScorer
from memory.clock import SimulatedClock
from memory.linking import AliasHit, StatementLinker
from memory.service import UserMemory
from tests.memory.memfakes import ALIASES, NODES

EXTRA_NODES = {
    "Compound::DB01234": ("Dexamethasone", "Compound"),
    "Compound::DB00091": ("Cyclosporine", "Compound"),
    "Disease::DOID:1324": ("lung cancer", "Disease"),
    "Side Effect::C0020461": ("Hyperkalaemia", "Side Effect"),
    "Gene::1161": ("ERCC8", "Gene"),
    "Compound::DB01060": ("Amoxicillin", "Compound"),
}
EXTRA_ALIASES = {
    "dexamethasone": ["Compound::DB01234"],
    "cyclosporine": ["Compound::DB00091"],
    "lung cancer": ["Disease::DOID:1324"],
    "hyperkalaemia": ["Side Effect::C0020461"],
    "csa": ["Gene::1161"],
    "amoxicillin": ["Compound::DB01060"],
}


def _linker() -> StatementLinker:
    nodes = {**NODES, **EXTRA_NODES}
    aliases = {**ALIASES, **EXTRA_ALIASES}
    return StatementLinker(
        lambda key: [AliasHit(n) for n in aliases.get(key, [])],
        lambda node: nodes[node][0] if node in nodes else None,
        lambda node: nodes[node][1] if node in nodes else None,
    )


@pytest.fixture
def mem(settings: Settings, clock: SimulatedClock, asks: AskScorer) -> Iterator[UserMemory]:
    with UserMemory(settings, "u36", clock=clock, linker=_linker(), asks=asks) as memory:
        yield memory


def _say(mem: UserMemory, clock: SimulatedClock, *texts: str) -> None:
    for text in texts:
        clock.advance(minutes=30)
        assert mem.state_each(text, "s1").facts, text


def _top(result: Result | None) -> str | None:
    assert result is not None
    return result.answers[0].id if result.status == Status.ANSWERED else None


def _missing(result: Result | None, label: str) -> bool:
    return (
        result is not None
        and result.status == Status.NOT_ANSWERED
        and not result.answers
        and f"no {label} recorded" in result.text
    )


def test_words_of_care_harm_and_exposure_ask_for_diagnosis_side_effect_and_allergy(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(
        mem,
        clock,
        "MRN 7310 has type 2 diabetes.",
        "MRN 7310 is on metformin.",
        "MRN 7310 developed pruritus on sitagliptin.",
        "MRN 7310 is allergic to penicillin G.",
    )
    assert _top(mem.answer("What condition brings MRN 7310 to clinic?", [])) == (
        "Disease::DOID:9352"
    )
    assert _top(mem.answer("How did sitagliptin hurt MRN 7310?", [])) == "Side Effect::C0033774"
    assert _top(mem.answer("Which harm came to MRN 7310 from the sitagliptin?", [])) == (
        "Side Effect::C0033774"
    )
    assert _top(mem.answer("What must we never give MRN 7310?", [])) == "Compound::DB01053"
    assert _top(mem.answer("Which drug is dangerous for MRN 7310?", [])) == "Compound::DB01053"
    # the medication is still what "treating ... with" asks for
    assert _top(mem.answer("What are we treating MRN 7310 with?", [])) == "Compound::DB00331"


def test_verbs_of_change_ask_for_the_value_moved_to_or_the_one_it_began_with(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(
        mem,
        clock,
        "Lena Park (MRN 7781) was put on metformin this morning.",
        "Switched MRN 7781 from metformin to sitagliptin.",
        "Lena Park: sitagliptin -> clonazepam.",
    )
    assert _top(mem.answer("What was MRN 7781 moved onto?", [])) == "Compound::DB01068"
    assert _top(mem.answer("What did we change MRN 7781 over to most recently?", [])) == (
        "Compound::DB01068"
    )
    assert _top(mem.answer("Which drug did MRN 7781's treatment open with?", [])) == (
        "Compound::DB00331"
    )
    # the gap after a change's "from" is still the value it replaced
    assert _top(mem.answer("What did we take MRN 7781 off most recently?", [])) == (
        "Compound::DB01261"
    )


def test_project_notes_by_role_with_leads_named_by_in_house_codes(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(
        mem,
        clock,
        "Project Lark: lead candidate is LK-12; we dropped LK-4 after a hERG signal.",
        "Lark project: LK-12 out, LK-20 is the new lead.",
    )
    assert _top(mem.answer("Which compound leads Project Lark now?", [])) == "LK-20"
    assert _top(mem.answer("Which one did Project Lark set aside most recently?", [])) == "LK-12"
    assert _top(mem.answer("What was the first lead of Project Lark?", [])) == "LK-4"
    # the project's name alone finds it
    assert _top(mem.answer("Lark lead?", [])) == "LK-20"
    assert _missing(mem.answer("What gene does Project Lark target?", []), "target gene")


def test_a_relation_never_stated_is_missing_whatever_the_words(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "MRN 7320 was started on metformin.")
    assert _missing(mem.answer("What are we treating MRN 7320 for?", []), "diagnosis")
    assert _missing(mem.answer("What did the metformin do to MRN 7320?", []), "side effect")
    assert _missing(mem.answer("What can MRN 7320 not be given?", []), "allergy")
    assert _top(mem.answer("Is MRN 7320 still on metformin?", [])) == "Compound::DB00331"


def test_clinical_short_forms_in_statements_link_through_the_graph_names(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(
        mem,
        clock,
        "Switched MRN 7330 from metformin to dex.",
        "MRN 7331 diagnosed with lung ca.",
        "MRN 7332 is having high potassium, likely from the sitagliptin.",
        "MRN 7333 started on CsA today.",
    )
    assert _top(mem.answer("What is MRN 7330 on at the moment?", [])) == "Compound::DB01234"
    assert _top(mem.answer("What was MRN 7331 diagnosed with?", [])) == "Disease::DOID:1324"
    assert _top(mem.answer("Which side effect did MRN 7332 have?", [])) == ("Side Effect::C0020461")
    assert _top(mem.answer("What medication is MRN 7333 taking?", [])) == "Compound::DB00091"


def test_the_short_forms_file_reads_whole_and_keeps_letter_case_where_it_says() -> None:
    forms = short_forms()
    assert all(f.expansions for readings in forms.values() for f in readings)
    linker = _linker()
    # initials read as the clinician means them, not as the graph's other name they spell
    assert [e.id for e in linker("on CsA 100 mg")] == ["Compound::DB00091"]
    assert [e.id for e in linker("the CSA gene")] == ["Gene::1161"]
    assert [e.id for e in linker("Ca 2.41 today")] == []  # "ca" completes a word before it
    assert [e.id for e in linker("amox 500 mg tds")] == ["Compound::DB01060"]
    assert [e.id for e in linker("co-amox 1.2 g iv")] == []  # a short form is a whole word


def test_a_medication_stopped_with_nothing_in_its_place_ends_and_answers_before(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "MRN 7361 is on metformin.", "stopped MRN 7361's metformin.")
    before = mem.answer("What was MRN 7361 on before?", [])
    assert _top(before) == "Compound::DB00331"
    assert before is not None and "until" in before.text
    assert _top(mem.answer("What is MRN 7361 on now?", [])) is None
    # a drug stopped that was never stated as started is kept as past
    _say(mem, clock, "Discontinued clonazepam in MRN 7362.")
    assert _top(mem.answer("Which drug did MRN 7362 come off?", [])) == "Compound::DB01068"
    # words that start a drug never stop it, nor does a dose
    _say(mem, clock, "MRN 7363 was put on sitagliptin today.", "MRN 7364 metformin 500 mg bd")
    assert _top(mem.answer("What is MRN 7363 on now?", [])) == "Compound::DB01261"
    assert _top(mem.answer("What is MRN 7364 on now?", [])) == "Compound::DB00331"


def test_a_question_of_names_alone_asks_about_the_relation_holding_the_named_value(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "MRN 7370 is on sitagliptin.")
    assert _top(mem.answer("MRN 7370 sitagliptin?", [])) == "Compound::DB01261"
