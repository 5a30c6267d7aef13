"""Memory reads clinicians' own wording (issue 36): telegraphic notes, clipped drug names,
stops in a few words, several values in one clause, tests by any of their names.

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
from memory.relations import load_catalog
from memory.service import UserMemory
from tests.memory.memfakes import ALIASES, NODES

EXTRA_NODES = {
    "Compound::DB00421": ("Spironolactone", "Compound"),
    "Compound::DB00389": ("Carbimazole", "Compound"),
    "Compound::DB00047": ("Insulin glargine", "Compound"),
    "Compound::DB00687": ("Fludrocortisone", "Compound"),
    "Compound::DB01076": ("Atorvastatin", "Compound"),
    "Compound::DB00390": ("Digoxin", "Compound"),
    "Disease::DOID:0050120": ("alpha-mannosidosis", "Disease"),
    "Disease::DOID:2841": ("asthma", "Disease"),
    "Symptom::D063806": ("Myalgia", "Symptom"),
    "Disease::DOID:1596": ("neutropenia", "Disease"),
}
EXTRA_ALIASES = {
    "spironolactone": ["Compound::DB00421"],
    "carbimazole": ["Compound::DB00389"],
    "insulin glargine": ["Compound::DB00047"],
    "lantus": ["Compound::DB00047"],
    "fludrocortisone": ["Compound::DB00687"],
    "atorvastatin": ["Compound::DB01076"],
    "digoxin": ["Compound::DB00390"],
    "am": ["Disease::DOID:0050120"],  # the graph's initials of a rare disease
    "asthma": ["Disease::DOID:2841"],
    "myalgia": ["Symptom::D063806"],
    "neutropenia": ["Disease::DOID:1596"],
}


def _linker() -> StatementLinker:
    nodes = {**NODES, **EXTRA_NODES}
    aliases = {**ALIASES, **EXTRA_ALIASES}
    return StatementLinker(
        lambda key: [AliasHit(n, primary=False) for n in aliases.get(key, [])],
        lambda node: nodes[node][0] if node in nodes else None,
        lambda node: nodes[node][1] if node in nodes else None,
    )


@pytest.fixture
def mem(settings: Settings, clock: SimulatedClock, asks: AskScorer) -> Iterator[UserMemory]:
    with UserMemory(settings, "u36d", clock=clock, linker=_linker(), asks=asks) as memory:
        yield memory


def _say(mem: UserMemory, clock: SimulatedClock, text: str) -> list[str]:
    """State ``text`` half an hour on; the noted facts as "rel obj [detail]"."""
    clock.advance(minutes=30)
    noted = mem.state_each(text, "s1")
    return [f"{f.rel} {f.obj} [{f.detail}]" for f in noted.facts]


def _line(result: Result | None) -> str:
    assert result is not None and result.status == Status.ANSWERED, result
    return result.text.splitlines()[0]


def test_a_test_is_one_series_whatever_name_it_is_written_by(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "MRN 3390 K 5.9 this morning")
    _say(mem, clock, "MRN 3390 potasium 4.6")  # a letter left out
    _say(mem, clock, "MRN 3390 december LVEF 62%")
    _say(mem, clock, "MRN 3390 HFrEF EF 50%")
    assert "4.6" in _line(mem.answer("latest potassium for MRN 3390?", []))
    assert "5.9" in _line(mem.answer("first K for MRN 3390?", []))
    assert "50%" in _line(mem.answer("MRN 3390 ejection fraction now?", []))
    assert "62%" in _line(mem.answer("baseline LVEF for MRN 3390?", []))
    catalog = load_catalog()
    assert catalog.canonical_key("creat") == catalog.canonical_key("creatinine")
    assert catalog.canonical_key("Na") == "sodium"
    assert catalog.canonical_key("PEF") == catalog.canonical_key("peak flow")


def test_a_patients_number_after_a_test_name_is_the_patient_not_a_value(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    clock.advance(minutes=48 * 60)  # Wednesday 2026-03-04
    _say(mem, clock, "pt 27703 peak flow 320 today, was 210 on monday")
    # said without a question mark, it is still no statement of a value
    assert _say(mem, clock, "latest PEF 27703") == []
    assert "320" in _line(mem.answer("latest PEF 27703", []))
    asof = _line(mem.answer("27703's peak flow on 2026-03-02?", []))
    assert "210" in asof


def test_a_drug_held_in_a_few_words_ends_and_answers_what_was_held(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    noted = _say(mem, clock, "MRN 3395 K 5.9, held his spironolactone")
    assert "lab_value K 5.9 [None]" in noted
    assert any(n.startswith("takes Compound::DB00421") for n in noted)
    assert "Spironolactone" in _line(mem.answer("what did we hold for MRN 3395?", []))
    now = mem.answer("what meds is MRN 3395 on now?", [])
    assert now is not None and now.status != Status.ANSWERED


def test_a_clipped_name_is_the_drug_on_record_and_a_dose_change_alone_is_its_dose(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "pt 20455 carbimazole 20 mg od")
    assert _say(mem, clock, "20455 carbi down to 10 mg od") == [
        "takes Compound::DB00389 [10 mg od]"
    ]
    assert "10 mg" in _line(mem.answer("20455's carbimazole dose now?", []))
    assert "20 mg" in _line(mem.answer("what carbimazole dose did 20455 start on?", []))
    # a change of dose that names no drug is the one drug on record given with a dose; its
    # amount alone keeps the frequency of the dose it changes
    assert _say(mem, clock, "20455 ft4 17. cutting back to 5 mg") == [
        "lab_value ft4 17 [None]",
        "takes Compound::DB00389 [5 mg od]",
    ]


def test_every_value_of_a_clause_is_kept_not_only_the_first_read(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "MRN 20554 fludrocortisone 100 mcg od")
    noted = _say(mem, clock, "20554 Na 136 after fludro went up to 150 mcg")
    assert sorted(noted) == ["lab_value Na 136 [None]", "takes Compound::DB00687 [150 mcg od]"]
    noted = _say(mem, clock, "MRN 43301 K 3.2 so added 40 mmol KCl")
    assert "lab_value K 3.2 [None]" in noted


def test_initials_are_read_as_a_clinician_means_them(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    noted = _say(mem, clock, "MRN 48820 vanc trough 9.2 this am, creat 140")
    assert noted == ["lab_value vanc trough 9.2 [None]", "lab_value creat 140 [None]"]


def test_a_side_effect_noted_as_a_symptom_answers_what_the_drug_did(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "pt 8821 has asthma, on aspirin 75 mg od")
    _say(mem, clock, "8821 complaining of myalgia on the atorva, switched to sitagliptin")
    assert "Myalgia" in _line(mem.answer("what did the atorvastatin do to 8821?", []))
    # without the drug named too: the statement said what brought it on ("on the atorva");
    # a symptom said on its own is no side effect (test_clinicians_own_words)
    assert "Myalgia" in _line(mem.answer("any side effects in 8821?", []))
    # a yes/no question about a value never noted is not answered with the others
    missed = mem.answer("has 8821 had any neutropenia?", [])
    assert missed is not None and missed.status == Status.NOT_ANSWERED
    assert "no neutropenia recorded" in missed.text


def test_an_allergys_reaction_is_kept_and_answers_what_it_does(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "pt 5710 allergic to aspirin (angioedema)")
    line = _line(mem.answer("what reaction does pt 5710 get with aspirin?", []))
    assert "angioedema" in line and "Acetylsalicylic acid (aspirin)" in line


def test_a_drug_is_shown_as_the_user_wrote_it_too(mem: UserMemory, clock: SimulatedClock) -> None:
    _say(mem, clock, "MRN 11873 on lantus 18 units at night")
    line = _line(mem.answer("what insulin is MRN 11873 on?", []))
    assert "Insulin glargine (lantus) 18 units at night" in line


def test_a_surname_alone_finds_the_patient_introduced_with_it(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "bed 4 Mr Okafor (MRN 3398) K was 5.9 this morning")
    assert "5.9" in _line(mem.answer("what was the first potassium for Okafor?", []))


def test_what_states_no_fact_is_kept_as_said_and_answers_a_question_sharing_its_words(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    clock.advance(minutes=30)
    noted = mem.state_each(
        "the Halo project target is EPHB3. We dropped compound HX-114, hepatotox in the mice.",
        "s1",
    )
    # said back as not read (no fact was read from it), and kept as said
    assert noted.unread == ("We dropped compound HX-114, hepatotox in the mice.",)
    kept = [f.obj for f in mem.facts() if f.rel == "project_remark"]
    assert kept == ["We dropped compound HX-114, hepatotox in the mice."]
    line = _line(mem.answer("which compound did we drop for the Halo project?", []))
    assert "HX-114" in line and "note" in line
    # a question that shares no word of its own with a remark is not answered by one
    miss = mem.answer("what cell line is the Halo project using?", [])
    assert miss is None or miss.status != Status.ANSWERED
    # of a patient, what could not be read beside a fact is kept the same way
    _say(mem, clock, "pt 19934 on aspirin 75 mg od. last exacerbation feb, needed doxy.")
    assert "doxy" in _line(mem.answer("what abx did 19934 need in feb?", []))
    # a patient's lone sentence that states nothing is not kept: it may be a question
    assert _say(mem, clock, "19934 anticoagulation now") == []


def test_a_brand_in_brackets_keeps_the_dose_and_what_a_drug_is_for_is_no_cue(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    assert _say(mem, clock, "pt 67012 on metformin (glucophage) 500 mg bd") == [
        "takes Compound::DB00331 [500 mg bd]"
    ]
    _say(mem, clock, "pt 67012 BP 150/90, started doxazosin 2 mg od")
    # "for her BP" says what the drug is for: the medications are asked, not the BP
    line = _line(mem.answer("what's pt 67012 on for her BP?", []))
    assert "Doxazosin 2 mg od" in line and "Metformin" in line
