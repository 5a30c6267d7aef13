"""Memory reads what clinicians and researchers write in their own words (issue 36): drug
classes in questions, projects named by a heading or a compound code, a symptom said with
its cause, telegraphic questions about a value on record.

On the real stores of both back ends (files in ``tmp_path``, PostgreSQL) with the real
embedding model where a meaning is read. The wordings are our own, none from a set scored on.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.config import Settings
from engine.result import Result, Status
from memory.asks import AskScorer
from memory.clock import SimulatedClock
from memory.linking import AliasHit, StatementLinker
from memory.service import UserMemory
from tests.memory.memfakes import ALIASES, NODES

WARFARIN, APIXABAN, FLUOXETINE = "Compound::DB00682", "Compound::DB06605", "Compound::DB00472"
QUETIAPINE, FLUCLOX = "Compound::DB01224", "Compound::DB00301"
ANTICOAGULANTS, ANTI_COAGULANT = "Pharmacologic Class::D000925", "Pharmacologic Class::N1"
VKA = "Pharmacologic Class::N0000175476"
ANTIPSYCHOTICS, SSRI, ANTIDEPRESSANTS = (
    "Pharmacologic Class::D014150",
    "Pharmacologic Class::D017367",
    "Pharmacologic Class::D000928",
)
EXTRA_NODES = {
    WARFARIN: ("Warfarin", "Compound"),
    APIXABAN: ("Apixaban", "Compound"),
    FLUOXETINE: ("Fluoxetine", "Compound"),
    QUETIAPINE: ("Quetiapine", "Compound"),
    FLUCLOX: ("Flucloxacillin", "Compound"),
    ANTICOAGULANTS: ("Anticoagulants", "Pharmacologic Class"),
    ANTI_COAGULANT: ("Anti-coagulant", "Pharmacologic Class"),
    VKA: ("Vitamin K Antagonist", "Pharmacologic Class"),
    ANTIPSYCHOTICS: ("Antipsychotic Agents", "Pharmacologic Class"),
    SSRI: ("Serotonin Uptake Inhibitors", "Pharmacologic Class"),
    ANTIDEPRESSANTS: ("Antidepressive Agents", "Pharmacologic Class"),
}
EXTRA_ALIASES = {
    "warfarin": [WARFARIN],
    "apixaban": [APIXABAN],
    "fluoxetine": [FLUOXETINE],
    "quetiapine": [QUETIAPINE],
    "flucloxacillin": [FLUCLOX],
    "anticoagulants": [ANTICOAGULANTS],
    "anti coagulant": [ANTI_COAGULANT],
    "antipsychotic agents": [ANTIPSYCHOTICS],
    "serotonin uptake inhibitors": [SSRI],
    "antidepressive agents": [ANTIDEPRESSANTS],
}
INCLUDES = {  # the graph's PCiC triples, class -> compounds
    ANTICOAGULANTS: [WARFARIN],
    ANTI_COAGULANT: [APIXABAN],
    VKA: [WARFARIN],
    ANTIPSYCHOTICS: [QUETIAPINE],
    SSRI: [FLUOXETINE],
    ANTIDEPRESSANTS: [FLUOXETINE],
}


def _other_ends(node: str) -> list[str]:
    """Both directions, as the engine's ``triples`` gives them: a class's compounds, a
    compound's classes."""
    if node in INCLUDES:
        return INCLUDES[node]
    return [c for c, drugs in INCLUDES.items() if node in drugs]


def _linker() -> StatementLinker:
    nodes = {**NODES, **EXTRA_NODES}
    aliases = {**ALIASES, **EXTRA_ALIASES}
    return StatementLinker(
        lambda key: [AliasHit(n, primary=True) for n in aliases.get(key, [])],
        lambda node: nodes[node][0] if node in nodes else None,
        lambda node: nodes[node][1] if node in nodes else None,
        members_of=_other_ends,
    )


@pytest.fixture
def mem(settings: Settings, clock: SimulatedClock, asks: AskScorer) -> Iterator[UserMemory]:
    with UserMemory(settings, "u36e", clock=clock, linker=_linker(), asks=asks) as memory:
        yield memory


def _say(mem: UserMemory, clock: SimulatedClock, text: str, session: str = "s1") -> list[str]:
    """State ``text`` half an hour on; the noted facts as "subject rel obj"."""
    clock.advance(minutes=30)
    noted = mem.state_each(text, session)
    return [f"{f.subj} {f.rel} {f.obj}" for f in noted.facts]


def _ask(mem: UserMemory, text: str, session: str = "s2") -> Result:
    result = mem.answer(text, [], session)
    assert result is not None, text
    return result


def _line(result: Result) -> str:
    assert result.status == Status.ANSWERED, result.text
    return result.text.splitlines()[0]


def test_a_drug_class_in_a_question_reads_the_patients_drugs_of_that_class(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "MRN 5501 on fluoxetine 20 mg od and warfarin 3 mg od")
    # by a short form ("blood thinners"), and by a class's name in the singular
    line = _line(_ask(mem, "any blood thinners for MRN 5501?"))
    assert "Warfarin" in line and "Fluoxetine" not in line
    line = _line(_ask(mem, "which anticoagulant is MRN 5501 on?"))
    assert "Warfarin" in line and "Fluoxetine" not in line
    # a class's name of several words in the singular
    line = _line(_ask(mem, "which serotonin uptake inhibitor is MRN 5501 on?"))
    assert "Fluoxetine" in line and "Warfarin" not in line
    # a class none of her drugs is of: none recorded, not her other drugs
    none = _ask(mem, "what antipsychotic is MRN 5501 on?")
    assert none.status != Status.ANSWERED
    assert "no antipsychotic recorded" in none.text
    # every class of the same name counts ("Anti-coagulant" holds apixaban here)
    _say(mem, clock, "MRN 5502 started apixaban 5 mg bd")
    assert "Apixaban" in _line(_ask(mem, "MRN 5502 - anticoagulants?"))


def test_a_drug_the_graph_gives_no_class_is_not_said_to_be_of_none(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "MRN 5503 on flucloxacillin 1 g qds")
    # the graph gives flucloxacillin no class: whether it is one cannot be told, so what is
    # recorded is said rather than "none recorded"
    assert "Flucloxacillin" in _line(_ask(mem, "what antipsychotic is MRN 5503 on?"))


def test_a_project_named_by_its_heading_keeps_its_notes(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    assert _say(mem, clock, "Falcon: lead compound is FN-31. FN-17 shelved (poor solubility).")
    noted = _say(mem, clock, "falcon update - FN-40 replaces FN-31 as lead")
    assert noted == ["note:falcon-project lead_compound FN-40"]
    assert "FN-40" in _line(_ask(mem, "who's the front runner in Falcon?"))
    assert "FN-31" in _line(_ask(mem, "Falcon lead before FN-40?"))
    # a code names its project when no project is named; "why" asks what was said of it
    assert "solubility" in _line(_ask(mem, "why did FN-17 get shelved?"))
    # a long heading is named by the words up to its head, and later by its own word
    _say(mem, clock, "Kestrel screen top hits: SLC7A11, GPX4. GPX4 deprioritized - toxic.")
    assert "GPX4 deprioritized" in _line(_ask(mem, "which Kestrel hit did we deprioritize?"))


def test_a_clinicians_heading_is_no_project(mem: UserMemory, clock: SimulatedClock) -> None:
    _say(mem, clock, "MRN 5510 on metformin 500 mg bd")
    _say(mem, clock, "Plan: metformin up to 1 g bd")
    assert not [s for s in mem.vault.subjects("note:")]


def test_a_clause_of_a_projects_sentence_that_gave_no_value_is_kept(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    noted = _say(mem, clock, "note for the kinase project: lead is KX-7, we killed KX-3 (hERG).")
    assert "note:kinase-project lead_compound KX-7" in noted
    # no project named: KX-3 is written in the kinase project's notes only
    assert "hERG" in _line(_ask(mem, "why did we kill KX-3?", session="s3"))
    # the letters of a code are no gene of it
    assert not [n for n in _say(mem, clock, "KX-7 looks clean off-target") if "Gene" in n]


def test_a_symptom_said_with_its_cause_answers_a_side_effect_question(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "MRN 5520 started midazolam 2 mg today. confusion after the first dose.")
    assert "Confusion" in _line(_ask(mem, "what side effect did MRN 5520 get?"))
    # a symptom said on its own is no side effect, even of a patient on a drug
    _say(mem, clock, "MRN 5521 on metformin 500 mg bd")
    _say(mem, clock, "MRN 5521 complaining of confusion since yesterday")
    assert _ask(mem, "any side effects for MRN 5521?").status != Status.ANSWERED


def test_a_telegraphic_question_asks_about_the_value_it_names(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "MRN 5530 on warfarin 3 mg od")
    _say(mem, clock, "MRN 5530 warfarin down to 2 mg")
    line = _line(_ask(mem, "MRN 5530 warfarin now?"))
    assert "medication" in line and "2 mg" in line


def test_a_change_or_a_harm_written_after_the_dose(mem: UserMemory, clock: SimulatedClock) -> None:
    _say(mem, clock, "MRN 5540 on warfarin 3 mg od, fluoxetine 20 mg od")
    _say(mem, clock, "MRN 5540 fluoxetine 20 mg od stopped (hyponatraemia)")
    assert "Fluoxetine" in _line(_ask(mem, "what did we stop for MRN 5540?"))
    _say(mem, clock, "MRN 5541 on metformin 500 mg bd and warfarin 3 mg od")
    _say(mem, clock, "MRN 5541 metformin swapped for sitagliptin 100 mg od")
    # the value the latest change replaced, not the other drug held beside it
    assert "Metformin" in _line(_ask(mem, "what was MRN 5541 on before?"))
    _say(mem, clock, "MRN 5542 midazolam 2 mg gave him confusion")
    assert "Confusion" in _line(_ask(mem, "what did the midazolam do to MRN 5542?"))
    _say(mem, clock, "MRN 5543 on midazolam 2 mg 4-hourly")
    assert "4-hourly" in _line(_ask(mem, "how often is MRN 5543 getting midazolam?"))


def test_a_bare_number_asked_what_it_is_on_is_a_patient_never_named(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "MRN 5550 on metformin 500 mg bd")
    # another user's patient, or one never named: memory says so, the graph is not asked
    # about the disease named beside it
    unknown = _ask(mem, "what's 36678 on for epilepsy?")
    assert unknown.status != Status.ANSWERED
    assert "nothing in your memory for 36678" in unknown.text
