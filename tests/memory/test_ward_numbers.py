"""Memory as a ward types patients and values (issue 36, third pass): patients by a bare short
number, several values in one line, lab and drug short forms, class words, follow-ons. On the
real stores with the real embedding model; the wordings are our own.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from engine.config import Settings
from engine.result import Status
from memory.asks import AskScorer
from memory.clock import SimulatedClock
from memory.dosing import amount_spans, dose_after
from memory.druglevels import Drug, asked_level, named_levels
from memory.literals import find_measurements, headed_key
from memory.patients import find_mrns
from memory.relations import load_catalog
from memory.router import Router, Temporal
from memory.service import UserMemory
from memory.vault import Fact
from tests.memory.memfakes import fake_linker


# --- pure readings -----------------------------------------------------------------------------
def test_a_short_number_a_sentence_opens_with_is_a_patient_never_a_value() -> None:
    assert [m.mrn for m in find_mrns("732 copd, fev1 1.1 l, on tiotropium")] == ["732"]
    assert [m.mrn for m in find_mrns("ok. 732's sats 91% on air")] == ["732"]
    assert [m.mrn for m in find_mrns("481 sodium?")] == ["481"]
    # a number with a unit, a count of time or inside a measurement names no one
    assert find_mrns("250 ml bolus given") == []
    assert find_mrns("bp fine. 100 mg od") == []
    assert find_mrns("300 days of therapy") == []
    assert find_mrns("150 bpm, bp 90/60") == []
    assert find_mrns("na 131, k 4.2") == []
    # whom a line is for
    assert [m.mrn for m in find_mrns("bloods for 882 - hb 84, plt 90")] == ["882"]
    assert find_mrns("abx for 5 days") == []


def test_an_amount_without_a_unit_is_a_dose_when_a_frequency_follows_it() -> None:
    dose = dose_after("bisoprolol 2.5 od and ramipril 5 bd", len("bisoprolol"))
    assert dose is not None and (dose.text, dose.amount) == ("2.5 od", "2.5")
    dose = dose_after("simvastatin 40mg on.", len("simvastatin"))
    assert dose is not None and dose.text == "40mg on"
    dose = dose_after("apixaban stays 5mg bd", len("apixaban"))
    assert dose is not None and dose.amount == "5mg"
    # a lab's value has no frequency after it
    assert dose_after("inr 2.4 this morning", len("inr")) is None
    assert amount_spans("crp 48 today") == []


# --- on the real stores --------------------------------------------------------------------------
@pytest.fixture
def mem(settings: Settings, clock: SimulatedClock, asks: AskScorer) -> Iterator[UserMemory]:
    with UserMemory(settings, "u36n", clock=clock, linker=fake_linker(), asks=asks) as memory:
        yield memory


def _say(mem: UserMemory, clock: SimulatedClock, text: str, minutes: int = 5) -> tuple[Fact, ...]:
    clock.advance(minutes=minutes)
    return mem.state_each(text, "s1").facts


def _line(mem: UserMemory, text: str) -> str:
    result = mem.answer(text, [], session="s1")
    assert result is not None, text
    return result.text if result.status == Status.ANSWERED else f"NOT ANSWERED: {result.text}"


def test_a_short_number_names_the_patient_and_a_dose_needs_no_unit(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "732 ccf, on lasix 40 od and tacrolimus 2 bd")
    _say(mem, clock, "na 131 today for 732")
    assert "40 od" in _line(mem, "732 furosemide dose?")
    assert "131" in _line(mem, "732 sodium?")
    assert "131" in _line(mem, "what was 732's sodium")


def test_it_in_a_change_of_dose_is_the_drug_said_last_and_a_short_form_finds_it(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "618 renal tx, on tacrolimus 4mg bd")
    _say(mem, clock, "618 also on mycophenolate 750mg bd")
    _say(mem, clock, "cut it to 500mg bd today")
    assert "mycophenolate 500mg bd" in _line(mem, "current mmf dose")
    assert "750mg bd" in _line(mem, "mmf dose before i cut it")
    assert "Tacrolimus 4mg bd" in _line(mem, "618 tacrolimus dose")
    # three letters of a drug's name that are no function word stand for it
    line = _line(mem, "tac dose for 618")
    assert "Tacrolimus 4mg bd" in line and "mycophenolate" not in line
    _say(mem, clock, "618 tac level 12.1 ng/ml, too high")
    _say(mem, clock, "618 level down to 8.0 ng/ml")
    assert "8.0 ng/ml" in _line(mem, "latest tacrolimus level for 618")
    assert "12.1 ng/ml" in _line(mem, "618's first tac level")


def test_a_drugs_level_is_one_series_however_the_drug_and_the_level_are_written() -> None:
    tac = Drug(len("618 on "), len("618 on tacrolimus"), "tacrolimus")
    text = "618 on tacrolimus 4mg bd, level 5.2 ng/ml"
    *_, alone = named_levels(text, find_measurements(text), [tac], [])
    assert (alone.key, alone.literal) == ("tacrolimus level", "tacrolimus level 5.2 ng/ml")
    text = "618 tac trough 9.9 ng/ml today"
    [clipped] = named_levels(text, find_measurements(text), [], ["tacrolimus"])
    assert clipped.literal == "tacrolimus level 9.9 ng/ml"
    assert asked_level("what was 618's tac trough on monday", ["tacrolimus level"]) == (
        "tacrolimus level"
    )
    gent = Drug(len("775: "), len("775: gent"), "gentamicin")
    text = "775: gent 5mg/kg od, trough 0.8 mg/l"
    *_, trough = named_levels(text, find_measurements(text), [gent], [])
    assert trough.literal == "gentamicin level 0.8 mg/l"
    catalog = load_catalog()
    assert catalog.canonical_key("gent trough") == "gent level"
    # a test of the drug's own name stays that test
    assert catalog.canonical_key("lithium level") == "lithium"


def test_a_test_asked_by_its_head_noun_is_the_one_kept_with_a_qualifier() -> None:
    assert headed_key("618 acr?", ["urine acr", "potassium"]) == "urine acr"
    # two kept with the same head: no telling which
    assert headed_key("618 acr?", ["urine acr", "serum acr"]) is None
    assert headed_key("618 sodium?", ["urine acr"]) is None


def test_a_drug_the_graph_does_not_know_replaces_the_one_named_as_old(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "540 on warfarin 3mg od for af")
    _say(mem, clock, "540 changing to edoxaban 60mg od instead of warfarin")
    assert "edoxaban 60mg od" in _line(mem, "540 edoxaban dose?")
    assert "Warfarin" in _line(mem, "what was 540 on before")


def test_a_follow_on_with_its_own_time_asks_the_question_before_at_that_time(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    now = datetime(2026, 11, 19, 13, 0, tzinfo=UTC)
    assert Router().without_time("618 k on monday?", now) == "618 k ?"
    assert Router().without_time("k yesterday for 618", now) == "k for 618"
    assert Router().without_time("618 ketones this morning", now) == "618 ketones"
    _say(mem, clock, "618 k 5.9 mmol/l")
    _say(mem, clock, "618 k 4.6 mmol/l", minutes=60 * 24 * 2)
    assert "5.9" in _line(mem, "618 k 2 days ago?")
    assert "4.6" in _line(mem, "and today")


def test_why_a_person_is_in_a_state_of_care_asks_a_diagnosis_and_a_target_not_pursued() -> None:
    relations = load_catalog().relations

    def best(question: str) -> str:
        return max(relations.values(), key=lambda r: r.score(question, ask=True)).name

    assert best("why is 254 anticoagulated?") == "diagnosed_with"
    assert best("why was she admitted") == "diagnosed_with"
    assert best("why was he switched?") != "diagnosed_with"
    assert best("what are we not pursuing on kestrel") == "dropped_target"


def test_a_drug_that_makes_the_patient_feel_something_gave_it_to_him(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "618 on warfarin 3mg od")
    _say(mem, clock, "618 says the warfarin makes him dizzy")
    assert "Dizziness" in _line(mem, "what's 618 complaining of with the warfarin")


def test_a_short_drug_name_that_ends_like_a_verb_is_still_a_drug(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "618 pred 30mg od from today")
    assert "pred 30mg od" in _line(mem, "618 pred dose")
    # a verb before an amount is no drug
    assert not _say(mem, clock, "618 transfused 2 units")


def test_before_a_change_already_made_asks_the_value_before_it() -> None:
    now = datetime(2026, 11, 19, 13, 0, tzinfo=UTC)
    router = Router()
    assert router.temporal("warfarin dose before i cut it for 618", now).kind == Temporal.PREVIOUS
    assert router.temporal("mmf dose before we halved it", now).kind == Temporal.PREVIOUS
    # a clause of when the user asks is no time
    assert router.temporal("before i switch him, what's 618 on", now).kind == Temporal.CURRENT


def test_a_short_number_after_a_verb_of_the_question_is_the_patient_and_a_line_is_for_whom_it_says(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "503 cellulitis")
    _say(mem, clock, "bloods for 882 - hb 84, plt 90")
    assert "cellulitis" in _line(mem, "what does 503 have")
    assert "plt 90" in _line(mem, "882 plt")
    assert "NOT ANSWERED" in _line(mem, "503 plt")


def test_a_follow_on_with_its_own_relation_takes_only_the_subject_before_it(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "618 on warfarin 3mg od for af")
    _say(mem, clock, "618 warfarin up to 4mg od")
    assert "3mg od" in _line(mem, "618 warfarin dose before i increased it")
    assert "4mg od" in _line(mem, "and now")
    _say(mem, clock, "wren: lead WR-12, backup WR-9")
    assert "WR-9" in _line(mem, "wren backup?")
    assert "WR-12" in _line(mem, "and the lead?")


def test_an_allergen_ends_at_a_dash_and_what_it_does_is_kept(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "882 allergic to penicillin - rash")
    line = _line(mem, "what's 882 allergic to")
    assert "Benzylpenicillin" in line and "(rash)" in line
    # an allergy to a class of drugs, said by its everyday name
    _say(mem, clock, "615 told me he's allergic to sulfa drugs - hives")
    assert "Sulfonamides" in _line(mem, "what's 615 allergic to")


def test_a_harm_given_as_the_reason_of_a_switch_is_what_the_drug_taken_off_did(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "618 on warfarin 3mg od")
    _say(mem, clock, "618: swapped warfarin for mycophenolate mofetil 1g bd - dizzy")
    line = _line(mem, "what side effect did 618 get")
    assert "Dizziness" in line and "Warfarin" in line
    # the drug named right after "swapped" is the one taken off
    assert "Warfarin" in _line(mem, "what was 618 on before")


def test_a_clause_that_stops_it_stops_the_medication_said_last(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "3401 on warfarin 3mg od")
    _say(mem, clock, "3401 inr 6.2 today - bleeding gums, holding it")
    assert "Warfarin" in _line(mem, "what was 3401 on before")


def test_a_complaint_said_by_its_adjective_is_asked_through_what_bothers_him(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "615 on sevelamer 800mg tds")
    _say(mem, clock, "and the sevelamer is making him constipated")
    assert "Constipation" in _line(mem, "what's bothering him about the binder")
    # the drug kept as written that the statement names is what brought it on
    line = _line(mem, "what side effect is 615 getting")
    assert "Constipation" in line and "from sevelamer" in line


def test_a_project_typed_in_lower_case_keeps_its_gene_and_a_lead_said_now(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    _say(mem, clock, "heron: lead HRN-14, backup HRN-9")
    _say(mem, clock, "heron target is ephb3")
    assert "EPHB3" in _line(mem, "heron target?")
    _say(mem, clock, "heron: HRN-21 now lead, HRN-14 dropped")
    assert "HRN-21" in _line(mem, "current heron lead")
    assert "HRN-14" in _line(mem, "heron lead at the start of the week?")


def test_a_word_of_grammar_before_an_amount_is_no_drug(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    noted = _say(mem, clock, "hb 92 -> 104 after 1 unit for 4471")
    assert not any(f.rel == "takes" for f in noted)
