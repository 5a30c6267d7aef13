"""Memory as a ward round types it (issue 36): lower case, patients by surname and bed,
several patients in one line, projects by their own names and roles, times said in passing.
On the real stores of both back ends with the real embedding model; the wordings are our own.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, time, timedelta

import pytest

from engine.config import Settings
from engine.result import Result, Status
from memory.asks import AskScorer
from memory.clock import SimulatedClock
from memory.dates import find_dates, part_of_day
from memory.patients import find_placed
from memory.saidnames import said_drugs
from memory.service import UserMemory
from memory.vault import Fact
from tests.memory.memfakes import fake_linker


@pytest.fixture
def mem(settings: Settings, clock: SimulatedClock, asks: AskScorer) -> Iterator[UserMemory]:
    with UserMemory(settings, "u36w", clock=clock, linker=fake_linker(), asks=asks) as memory:
        yield memory


def _say(mem: UserMemory, clock: SimulatedClock, text: str, minutes: int = 5) -> tuple[Fact, ...]:
    clock.advance(minutes=minutes)
    return mem.state_each(text, "s1").facts


def _ask(mem: UserMemory, text: str) -> Result:
    result = mem.answer(text, [], session="s1")
    assert result is not None, text
    return result


def _top(result: Result) -> str | None:
    return result.answers[0].id if result.status == Status.ANSWERED else None


# --- pure readings -----------------------------------------------------------------------------
def test_a_title_and_a_bed_beside_a_record_number_are_that_patients_names() -> None:
    placed = find_placed("bed 4 is mrs lee, mrn 2231. came in overnight")
    assert ("lee", "surname", "2231") in placed and ("bed 4", "bed", "2231") in placed
    assert find_placed("mr byrne, 9071, gout flare") == [("byrne", "surname", "9071")]
    # a title far from any number names no one
    assert find_placed("spoke to mrs lee about the results of the scan this morning") == []


def test_weekdays_short_alone_or_possessive_and_a_part_of_the_day() -> None:
    now = datetime(2026, 3, 6, 20, 0, tzinfo=UTC)  # a Friday
    assert [d.day.isoformat() for d in find_dates("crp was 190 on wed", now)] == ["2026-03-04"]
    assert [d.day.isoformat() for d in find_dates("na 129 on monday's bloods", now)] == [
        "2026-03-02"
    ]
    assert [d.day.isoformat() for d in find_dates("ortiz's sodium tuesday", now)] == ["2026-03-03"]
    assert find_dates("sats on 2L", now) == []
    assert part_of_day("lactate on monday morning") == time(12)
    assert part_of_day("K on tuesday evening") is None


def test_a_word_of_the_question_names_a_drug_by_how_it_was_written() -> None:
    def fact(obj: str, name: str) -> Fact:
        now = datetime(2026, 3, 2, tzinfo=UTC)
        return Fact(
            1,
            "patient:1",
            "takes",
            obj,
            "",
            None,
            name,
            now,
            now,
            0,
            1.0,
            now,
            None,
            None,
            None,
            "stated",
            None,
        )

    drugs = [fact("norad", "norad"), fact("Compound::DB00331", "Metformin")]
    assert [e.id for e in said_drugs("what's his norad rate", drugs)] == ["norad"]
    assert [e.id for e in said_drugs("metf dose?", drugs)] == ["Compound::DB00331"]
    # a word the question asks with is no drug's beginning
    assert said_drugs("what meds is he on", drugs, asks=lambda w: w == "meds") == []


# --- statements and questions ---------------------------------------------------------------------
def test_patients_named_by_surname_and_bed_in_lower_case(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    assert _say(mem, clock, "bed 4 is mrs lee, mrn 2231, on metformin 500 mg bd")
    assert _say(mem, clock, "mr okafor (mrn 58810) started sitagliptin 100 mg od")
    facts = _say(mem, clock, "eve handover - lee k 4.1 mmol/l, okafor k 3.2 mmol/l")
    assert {(f.subj, f.obj) for f in facts} == {
        ("patient:2231", "k 4.1 mmol/l"),
        ("patient:58810", "k 3.2 mmol/l"),
    }
    assert _top(_ask(mem, "what is bed 4 on?")) == "Compound::DB00331"
    assert "3.2" in (_top(_ask(mem, "okafor's potassium?")) or "")
    assert "500 mg bd" in _ask(mem, "how much metformin is mrs lee getting").text


def test_the_patient_a_question_named_is_the_conversations(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "bed 4 is mrs lee, mrn 2231, k 4.1 mmol/l")
    _say(mem, clock, "bed 9 mr okafor, mrn 58810, k 3.2 mmol/l")
    assert "4.1" in (_top(_ask(mem, "lee's potassium?")) or "")
    # "her" is Mrs Lee, asked about last, not Mr Okafor, named last in a statement
    assert "4.1" in (_top(_ask(mem, "and her k now")) or "")


def test_times_said_in_passing_date_the_values(mem: UserMemory, clock: SimulatedClock) -> None:
    # the clock starts on a Monday at 09:00
    _say(mem, clock, "bed 12 mrs duarte, mrn 7342, on metformin 500 mg bd")
    _say(mem, clock, "fyi duarte's crp was 190 mg/l on wed")
    _say(mem, clock, "duarte crp 48 mg/l today")
    assert "190" in (_top(_ask(mem, "what was duarte's crp on wednesday?")) or "")
    assert "48" in (_top(_ask(mem, "duarte's crp now?")) or "")
    _say(mem, clock, "duarte lactate 4.8 mmol/l", minutes=10)
    _say(mem, clock, "duarte lactate 2.9 mmol/l on the evening gas", minutes=10 * 60)
    assert "4.8" in (_top(_ask(mem, "what was her lactate this morning")) or "")
    assert "2.9" in (_top(_ask(mem, "her lactate now")) or "")


def test_verbs_and_tests_before_an_amount_are_no_drugs(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    facts = _say(mem, clock, "mr byrne, 9071: start metformin at 500 mg, egfr 58 ml/min")
    assert {(f.rel, f.obj) for f in facts} == {
        ("takes", "Compound::DB00331"),
        ("lab_value", "egfr 58 ml/min"),
    }
    facts = _say(mem, clock, "his k 3.4 mmol/l, adding 40 mmol kcl per litre")
    assert all(f.obj != "adding" for f in facts)


def test_allergies_stated_by_their_signs(mem: UserMemory, clock: SimulatedClock) -> None:
    _say(mem, clock, "bed 4 is mrs lee, mrn 2231, on metformin 500 mg bd")
    facts = _say(mem, clock, "she gets hives with penicillin g fyi")
    assert [(f.rel, f.obj) for f in facts] == [("allergic_to", "Compound::DB01053")]
    facts = _say(mem, clock, "came up in a rash with the aspirin, documenting it as an allergy")
    assert [(f.rel, f.obj) for f in facts] == [("allergic_to", "Compound::DB00945")]
    assert _top(_ask(mem, "what is bed 4 allergic to")) in {
        "Compound::DB01053",
        "Compound::DB00945",
    }


def test_a_drug_asked_by_how_it_was_written(mem: UserMemory, clock: SimulatedClock) -> None:
    _say(mem, clock, "bed 2 mr petrov mrn 43120, on norad 0.2 mcg/kg/min and metformin 500 mg bd")
    result = _ask(mem, "what's his norad rate")
    assert _top(result) == "norad" and "0.2 mcg/kg/min" in result.text
    _say(mem, clock, "norad weaned to 0.08 mcg/kg/min")
    result = _ask(mem, "norad now on petrov")
    assert _top(result) == "norad" and "0.08" in result.text


def test_projects_by_their_names_and_roles(mem: UserMemory, clock: SimulatedClock) -> None:
    facts = _say(mem, clock, "kestrel update: HLX-204 is our lead now, HLX-188 drops to backup")
    assert {(f.subj, f.rel, f.obj) for f in facts} == {
        ("note:kestrel-project", "lead_compound", "HLX-204"),
        ("note:kestrel-project", "backup_compound", "HLX-188"),
    }
    _say(mem, clock, "kestrel next milestone: rat 14-day tox")
    _say(mem, clock, "osprey: parking EPHB3 for now, selectivity window too narrow")
    assert _top(_ask(mem, "kestrel backup?")) == "HLX-188"
    assert _top(_ask(mem, "what's the lead on kestrel?")) == "HLX-204"
    assert _top(_ask(mem, "what comes next for kestrel")) == "rat 14-day tox"
    assert _top(_ask(mem, "which target did we shelve on osprey")) == "Gene::2049"
    assert _ask(mem, "primary target for osprey?").status == Status.NOT_ANSWERED
    assert mem.answer("lead compound on heron?", [], session="s1") is None


def test_a_follow_on_borrows_the_last_questions_words(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "kestrel update: HLX-204 is our lead now")
    clock.advance(timedelta(days=2))
    _say(mem, clock, "kestrel lead is now HLX-188")
    assert _top(_ask(mem, "kestrel lead as of monday?")) == "HLX-204"
    assert _top(_ask(mem, "and as of wednesday")) == "HLX-188"


def test_it_in_a_follow_on_is_what_the_last_question_asked_about(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "mr hassan (mrn 5502) on metformin 1 g bd, adding sitagliptin 100 mg od")
    _say(mem, clock, "cutting his sitagliptin to 50 mg od", minutes=20)
    assert "50 mg od" in _ask(mem, "hassan's sitagliptin dose now").text
    result = _ask(mem, "and what did we start it at")
    assert _top(result) == "Compound::DB01261" and "100 mg od" in result.text


def test_a_projects_numbers_by_what_a_chemist_asks(mem: UserMemory, clock: SimulatedClock) -> None:
    _say(mem, clock, "osprey: parking EPHB3 for now")
    facts = _say(mem, clock, "osprey lead is OSP-71, ic50 12 nM in the cell assay")
    assert {(f.subj, f.rel) for f in facts} == {
        ("note:osprey-project", "lead_compound"),
        ("note:osprey-project", "key_result"),
    }
    assert "12 nM" in (_top(_ask(mem, "osprey lead potency?")) or "")
    assert _ask(mem, "any tox finding logged on osprey?").status == Status.NOT_ANSWERED


def test_a_compounds_concentration_alone_is_its_potency_and_a_half_life_its_own_key(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "osprey: parking EPHB3 for now")
    _say(mem, clock, "osprey lead is OSP-71, ic50 12 nM in the cell assay")
    facts = _say(mem, clock, "the new batch of OSP-71 reads 4 nM now")
    assert [(f.subj, f.obj) for f in facts] == [("note:osprey-project", "IC50 4 nM")]
    assert "4 nM" in (_top(_ask(mem, "current potency of the osprey lead")) or "")
    facts = _say(mem, clock, "osprey: OSP-71 dog t1/2 came out at 6.5 h")
    assert [f.obj for f in facts] == ["t1/2 6.5 h"]
    assert "6.5 h" in (_top(_ask(mem, "half-life of the osprey lead?")) or "")


def test_a_verb_of_giving_between_a_drug_and_its_dose(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "bed 2 mr petrov mrn 43120, on metformin 500 mg bd")
    facts = _say(mem, clock, "petrov: sitagliptin added, 100 mg od, cultures pending")
    assert [(f.obj, f.detail) for f in facts] == [("Compound::DB01261", "100 mg od")]


def test_a_value_moved_to_with_no_test_named_goes_on_with_the_series_said_last(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "bed 12 mrs duarte, mrn 7342, on metformin 500 mg bd")
    _say(mem, clock, "duarte hb 98 g/l, crp 190 mg/l")
    facts = _say(mem, clock, "down to 48 mg/l this am")
    assert [(f.subj, f.obj) for f in facts] == [("patient:7342", "crp 48 mg/l")]
    assert "48" in (_top(_ask(mem, "and her crp now")) or "")
    # no value of the patient's was said in that unit: nothing is guessed
    assert not _say(mem, clock, "down to 3 mmol/l")


def test_a_name_said_as_part_of_a_word_is_shown_as_said(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "bed 4 is mrs lee, mrn 2231, on metformin 500 mg bd")
    _say(mem, clock, "she gets hives with penicillin fyi")
    allergy = _ask(mem, "what is bed 4 allergic to")
    assert allergy.answers[0].id == "Compound::DB01053"
    assert "Benzylpenicillin (penicillin)" in (allergy.text or "")
    # a graph name said in full, or by its leading words, is shown once
    assert "Metformin (" not in _ask(mem, "what is bed 4 on").text
