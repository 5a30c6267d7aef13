"""Issue 36, fifth pass: mechanisms read from users the earlier passes had not seen. Pure
readings and the real stores (files and SQLite, the fake linker); the wordings are our own.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.config import Settings
from memory.asks import AskScorer
from memory.circumstance import drug_as_circumstance
from memory.clauses import clauses
from memory.clock import SimulatedClock
from memory.dosing import dose_after, regimen
from memory.extract import Extracted
from memory.notes import asked_label, revived
from memory.patients import find_mrns, said_as_year
from memory.reasons import switched_from, without_susceptibilities
from memory.service import UserMemory
from memory.subjects import _lead_word, _named_by
from memory.tables import as_statements
from tests.memory.memfakes import fake_linker


def _years(text: str) -> list[str]:
    return [m.mrn for m in find_mrns(text) if said_as_year(text, m)]


def test_a_year_said_after_a_word_of_its_own_is_no_patient() -> None:
    assert _years("3310 liver tx 2018, on tacrolimus") == ["2018"]
    assert _years("latex allergy - urticaria 2021") == ["2021"]
    assert _years("on insulin since 2009") == ["2009"]
    # a patient's number after a word of grammar, or opening the sentence, stays a patient
    assert _years("inr for 2031 yesterday?") == []
    assert _years("2031 inr 2.4") == []
    assert _years("mrn 2031 on warfarin") == []


def test_a_question_ending_on_a_drug_as_its_circumstance_asks_what_it_did() -> None:
    assert drug_as_circumstance("what is [Patient] getting with the [Compound]?")
    assert drug_as_circumstance("what's [Patient] struggling with on the [Compound]?")
    assert drug_as_circumstance("any trouble since starting the [PharmacologicClass]?")
    assert not drug_as_circumstance("what dose is [Patient] on with the [Compound]?")
    assert not drug_as_circumstance("what was [Patient] on before the [Compound]?")
    assert not drug_as_circumstance("what else is [Patient] taking with the [Compound]?")
    assert not drug_as_circumstance("is [Patient] still on [Compound]?")


def test_a_dose_shows_how_much_and_how_often_apart_from_what_is_said_besides() -> None:
    assert regimen("30mg od x7d") == ("30mg od", "x7d")
    assert regimen("1.6g tds with meals") == ("1.6g tds", "with meals")
    assert regimen("5mg 2 hrly prn") == ("5mg 2 hrly prn", None)
    assert regimen("2 sachets od") == ("2 sachets od", None)
    assert regimen("as directed") == ("as directed", None)


def test_doses_as_a_ward_writes_them() -> None:
    text = "oxycodone mr 5mg bd"
    dose = dose_after(text, len("oxycodone"))
    assert dose is not None and dose.text == "5mg bd"
    text = "clarithro 1g stat then 500mg bd"
    dose = dose_after(text, len("clarithro"))
    assert dose is not None and dose.text == "500mg bd"
    text = "ipratropium 500mcg nebs 6 hrly"
    dose = dose_after(text, len("ipratropium"))
    assert dose is not None and dose.text == "500mcg nebs 6 hrly"
    # "then" before an amount goes on with the dose; "so" begins a clause
    assert clauses("amox 1g stat then 500mg tds") == ["amox 1g stat then 500mg tds"]
    assert clauses("hives with cefalexin so moved to clinda") == [
        "hives with cefalexin",
        "moved to clinda",
    ]


def test_the_first_word_of_a_projects_name_names_it_where_a_name_stands() -> None:
    words = ["fox", "degrader", "project"]
    assert "fox" in _named_by(["fox", "degrader"])
    assert _lead_word("fox", words, "fox lead?")
    assert _lead_word("fox", words, "primary assay for fox?")
    assert _lead_word("fox", words, "what's the fox backup")
    assert not _lead_word("fox", words, "any fox news?")
    assert not _lead_word("degrader", words, "degrader lead?")


def test_a_switch_that_names_no_old_drug_replaces_the_one_its_sentence_named() -> None:
    allergy = Extracted("patient:7001", "allergic_to", "Compound::DB01053", None, "Penicillin")
    new = Extracted("patient:7001", "takes", "clinda", None, "clinda", supersede_current=True)
    pieces = switched_from([("hives with penicillin", allergy), ("moved to clinda", new)])
    moved = pieces[1][1]
    assert moved.supersedes == ("patient:7001", "takes", "Compound::DB01053")
    assert not moved.supersede_current
    # a drug the sentence names only as a harm's cause ("palpitations with salbutamol")
    salbutamol = "Compound::DB01001"
    [(_, moved)] = switched_from([("moved to clinda", new)], [salbutamol, "clinda"])
    assert moved.supersedes == ("patient:7001", "takes", salbutamol)
    # with no other drug named, the switch is left as it was read
    assert switched_from([("moved to clinda", new)])[0][1].supersede_current


def test_what_a_cultures_organism_is_sensitive_to_is_no_allergy() -> None:
    said = Extracted("patient:7001", "allergic_to", "Compound::DB01053", None, "Penicillin")
    sentence = "wound swab grew staph, sensitive to penicillin"
    kept = without_susceptibilities(sentence, [("sensitive to penicillin", said)])
    assert kept == []
    kept = without_susceptibilities("she's sensitive to penicillin", [("x", said)])
    assert len(kept) == 1


@pytest.fixture
def mem(settings: Settings, clock: SimulatedClock, asks: AskScorer) -> Iterator[UserMemory]:
    with UserMemory(settings, "u36e", clock=clock, linker=fake_linker(), asks=asks) as memory:
        yield memory


def _ask(mem: UserMemory, question: str) -> str:
    result = mem.answer(question, [], session="s1")
    assert result is not None
    return result.text or ""


def test_lab_short_forms_and_a_clipped_drug_are_kept(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    clock.advance(minutes=5)
    mem.state_each("7105 renal tx 2017, tac 5mg bd, alb 29 ur 11.2", "s1")
    assert "tac 5mg bd" in _ask(mem, "tac dose for 7105?")
    assert "alb 29" in _ask(mem, "albumin for 7105?")
    assert "ur 11.2" in _ask(mem, "7105 urea")
    assert not [f for f in mem.facts() if f.subj == "patient:2017"]


def test_a_drug_dropped_back_to_a_dose_goes_on(mem: UserMemory, clock: SimulatedClock) -> None:
    clock.advance(minutes=5)
    mem.state_each("8120 on detemir 18 units at night", "s1")
    clock.advance(minutes=5)
    mem.state_each("dropped detemir back to 14 units", "s1")
    text = _ask(mem, "detemir dose for 8120 now?")
    assert "14 units at night" in text and "current" in text


def test_a_harm_with_it_is_the_drug_said_last(mem: UserMemory, clock: SimulatedClock) -> None:
    clock.advance(minutes=5)
    mem.state_each("6120 on warfarin 3mg od", "s1")
    clock.advance(minutes=5)
    mem.state_each("she's getting bad nosebleeds with it", "s1")
    text = _ask(mem, "what is 6120 getting with the warfarin?")
    assert "side effect" in text and "nosebleeds" in text


def test_a_role_said_after_the_noun_asked_only_says_whose(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    clock.advance(minutes=5)
    mem.state_each("fox degrader: vhl-based, lead FX-12, backup FX-30", "s1")
    assert "FX-12" in _ask(mem, "fox lead?")
    assert "FX-30" in _ask(mem, "what's the backup for the fox lead?")
    # the lead only says whose the issue is: no lead compound stands in for it
    result = mem.answer("solubility issue with the fox lead?", [], session="s1")
    assert result is None or "lead compound" not in (result.text or "")


def test_a_grid_of_results_is_a_sentence_per_patient() -> None:
    keys = {"k": "potassium", "cr": "creatinine", "hb": "Hb", "sats": "sats"}
    grid = "labs 3/12\npt  hb  k\n4410  96  3.9\n5521  121  5.2\nthanks"
    assert as_statements(grid, keys) == "labs 3/12\n4410 hb 96 k 3.9.\n5521 hb 121 k 5.2.\nthanks"
    listed = "hbs: bed 2 (4410) 96, bed 6 (5521) 121"
    assert as_statements(listed, keys) == "bed 2 (4410) hb 96. bed 6 (5521) hb 121."
    assert as_statements("sats: 4410 94, 5521 97", keys) == "4410 sats 94. 5521 sats 97."
    # a heading that is no test, or a row that is no patient's values, is left alone
    assert as_statements("kite: lead KT-2, backup KT-9", keys) == "kite: lead KT-2, backup KT-9"
    assert as_statements("pt hb k\nmr lee 96 3.9", keys) == "pt hb k\nmr lee 96 3.9"


def test_a_grid_stores_each_patients_values(mem: UserMemory, clock: SimulatedClock) -> None:
    clock.advance(minutes=5)
    mem.state_each("renal round\nmrn  k  cr\n4410  5.6  240\n5521  4.1  98", "s1")
    assert "k 5.6" in _ask(mem, "k for 4410?")
    assert "cr 98" in _ask(mem, "5521 creatinine?")


def test_a_target_taken_up_again_is_read_by_its_verb() -> None:
    assert revived("kite: bringing gyrb back, parc shelved instead") == ["gyrb"]
    assert revived("mura back on the table after the new data") == ["mura"]
    assert revived("unparking the dhfr series") == ["dhfr"]
    assert revived("bringing the meeting forward") == []


def test_a_target_the_graph_lacks_is_set_aside_as_written(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    clock.advance(minutes=5)
    mem.state_each("kite: lead KT-2, backup KT-9", "s1")
    clock.advance(minutes=5)
    mem.state_each("we've shelved gyrb on kite, going after parc", "s1")
    assert "gyrb" in _ask(mem, "target we shelved on kite?")
    clock.advance(minutes=5)
    mem.state_each("kite: bringing gyrb back, parc shelved instead", "s1")
    text = _ask(mem, "what target is shelved on kite now")
    assert "parc" in text and "gyrb" not in text
    assert "KT-2" in _ask(mem, "kite lead?")


def test_a_day_of_the_month_said_by_its_ordinal() -> None:
    from datetime import UTC, date, datetime

    from memory.dates import find_dates

    now = datetime(2026, 3, 9, 10, 0, tzinfo=UTC)
    assert [d.day for d in find_dates("psa was 7.2 (thurs 5th)", now)] == [date(2026, 3, 5)]
    assert [d.day for d in find_dates("inr on the 20th?", now)] == [date(2026, 2, 20)]
    assert [d.day for d in find_dates("no date here, 5 mg", now)] == []


def test_the_noun_a_project_is_asked_by() -> None:
    assert asked_label("who's the cro on finch?", "finch") == "cro"
    assert asked_label("finch cro?", "finch") == "cro"
    assert asked_label("what is the primary assay for the finch project?", "finch") == (
        "primary assay"
    )
    assert asked_label("finch lead now?", "finch") is None
    assert asked_label("what did finch give in the rat study?", "finch") is None


def test_a_project_asked_by_a_noun_it_holds_nothing_under_is_refused(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    clock.advance(minutes=5)
    mem.state_each("finch: lead FN-8, backup FN-3, ic50 22 nM", "s1")
    for question in ("who's the cro on finch?", "finch cro?"):
        result = mem.answer(question, [], session="s1")
        assert result is not None and "cro" in (result.text or "")
        assert not result.answers
    clock.advance(minutes=5)
    mem.state_each("finch cro: medchemlab", "s1")
    assert "medchemlab" in _ask(mem, "who's the cro on finch?")


def test_a_day_and_month_after_a_word_no_test_is_named_by_is_no_value() -> None:
    from memory.extract import _dated_heading
    from memory.literals import find_measurements

    [said] = find_measurements("renal bloods 04/12", frozenset())
    assert _dated_heading(said, frozenset())
    [bp] = find_measurements("bp 124/11", frozenset({"bp"}))
    assert not _dated_heading(bp, frozenset({"bp"}))


def test_a_dose_asked_of_a_drug_the_patient_was_never_on_is_refused(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    clock.advance(minutes=5)
    mem.state_each("9120 af, on warfarin 3mg od", "s1")
    result = mem.answer("what dose of metformin is 9120 on?", [], session="s1")
    assert result is not None and not result.answers
    assert "metformin" in (result.text or "")


def test_a_harm_given_as_the_reason_of_a_dose_change_is_that_drugs(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    clock.advance(minutes=5)
    mem.state_each("9130 on warfarin 5mg od", "s1")
    clock.advance(minutes=5)
    mem.state_each("9130 warfarin cut to 3mg od - dizziness", "s1")
    text = _ask(mem, "what side effect has 9130 had?")
    assert "Dizziness" in text and "Warfarin" in text


def test_a_role_no_relation_is_asked_by_is_refused_and_a_verb_of_setting_aside_asks_for_one(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    clock.advance(minutes=5)
    mem.state_each("heron: lead HR-7, backup HR-2", "s1")
    result = mem.answer("who's the chemist on heron?", [], session="s1")
    assert result is not None and not result.answers
    assert "HR-7" in _ask(mem, "who's the front runner on heron?")
    clock.advance(minutes=5)
    mem.state_each("heron: parking the nsp14 series", "s1")
    assert "nsp14" in _ask(mem, "what did heron park?")


def test_a_heading_may_hold_an_aside_and_say_the_project_began() -> None:
    from memory.notes import heading_note

    said = heading_note("kestrel (antifungal) kicked off: lead KS-4, target erg11")
    assert said is not None and said.slug == "kestrel-project"
    assert heading_note("mr ames (bed 2) update: on pred 30mg od") is None


def test_a_stopped_medication_asked_for_is_one_that_ended(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    clock.advance(minutes=5)
    mem.state_each("7310 hf, on bisoprolol 5mg od, furosemide 40mg om", "s1")
    result = mem.answer("what did we stop on 7310?", [], session="s1")
    assert result is not None and not result.answers
    clock.advance(minutes=5)
    mem.state_each("7310 holding furosemide, aki", "s1")
    assert "Furosemide" in _ask(mem, "what did we stop on 7310?")


def test_yesterday_is_the_whole_of_that_day(mem: UserMemory, clock: SimulatedClock) -> None:
    from datetime import UTC, datetime

    clock.set(datetime(2026, 3, 9, 17, 0, tzinfo=UTC))
    mem.state_each("5120 neuts 0.6", "s1")
    clock.set(datetime(2026, 3, 10, 9, 0, tzinfo=UTC))
    mem.state_each("5120 neuts up to 1.1 today", "s1")
    assert "neuts 0.6" in _ask(mem, "neutrophils for 5120 yesterday?")


def test_a_heading_may_sum_up_a_meeting_or_set_the_name_equal_to_a_programme(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    clock.advance(minutes=5)
    mem.state_each("wren planning summary: lead is WR-12, backup WR-40", "s1")
    assert "WR-12" in _ask(mem, "wren lead?")
    clock.advance(minutes=5)
    mem.state_each("plover = our tlr7 programme. lead PL-3, ic50 15 nM", "s2")
    assert "PL-3" in _ask(mem, "what's the plover lead compound?")
    from memory.notes import find_notes

    assert [n.slug for n in find_notes("plover = our tlr7 programme. lead PL-3")] == [
        "plover-project"
    ]


def test_lines_each_led_by_a_patient_are_sentences_of_their_own(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    assert as_statements("bloods:\nmrn 5521 na 138 k 4.4\n6032: na 129 k 5.8", {"na", "k"}) == (
        "bloods:\nmrn 5521 na 138 k 4.4.\n6032: na 129 k 5.8."
    )
    # one line led by a patient is left as it is
    assert as_statements("6032: na 129 k 5.8", {"na", "k"}) == "6032: na 129 k 5.8"
    clock.advance(minutes=5)
    mem.state_each("overnight labs\npt 5521  na 138  k 4.4\npt 6032  na 129  k 5.8", "s1")
    assert "129" in _ask(mem, "6032 sodium?")
    assert "4.4" in _ask(mem, "k for 5521")


def test_a_compound_back_as_lead_is_the_lead(mem: UserMemory, clock: SimulatedClock) -> None:
    clock.advance(minutes=5)
    mem.state_each("plover: lead PL-3, backup PL-9", "s1")
    clock.advance(minutes=5)
    mem.state_each("plover: PL-9 is the new lead", "s1")
    clock.advance(minutes=5)
    mem.state_each("plover: reverting, PL-3 back as lead", "s1")
    assert "PL-3" in _ask(mem, "plover lead?")


def test_care_asked_by_what_it_is_for_is_the_diagnosis_over_fresh_results(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    clock.advance(minutes=5)
    mem.state_each("pt 6610: gout, on colchicine 500mcg bd", "s1")
    clock.advance(minutes=5)
    mem.state_each("6610 wcc 4.2 anc 2.5 plt 98", "s1")
    assert "gout" in _ask(mem, "what are we treating 6610 for").lower()
    assert "gout" in _ask(mem, "what are we managing 6610 for?").lower()


def test_a_date_asked_of_a_project_is_never_its_compound(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    from memory.notes import asks_a_date

    assert asks_a_date("any candidate nomination date for plover?")
    assert not asks_a_date("plover lead?")
    clock.advance(minutes=5)
    mem.state_each("plover: lead PL-3, backup PL-9", "s1")
    result = mem.answer("any candidate selection date for plover?", [], session="s1")
    assert result is not None and not result.answers
    assert "PL-3" in _ask(mem, "plover lead?")


def test_a_named_patients_result_moved_to_a_value_and_a_weight_said_by_its_verb(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    from memory.literals import find_measurements

    [said] = find_measurements("mr patel crp down to 95, febrile less", {"crp"})
    assert said.literal == "crp 95"
    clock.advance(minutes=5)
    mem.state_each("mrn 4471 crp 180", "s1")
    clock.advance(minutes=5)
    mem.state_each("mrn 4471 weighed 77kg", "s1")
    assert "77" in _ask(mem, "what did 4471 weigh?")


def test_a_weekday_said_of_what_is_still_to_come_is_no_time_of_the_value(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    from datetime import UTC, datetime

    from memory.stated import stated_instant

    now = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    said = "7040 hb 101 today, transfusion booked for monday"
    assert stated_instant(said, now, {}, r"(?P<n>\d+) days ago") is None
    assert stated_instant("7040 hb 88 on monday", now, {}, r"(?P<n>\d+) days ago") is not None
    clock.advance(minutes=5)
    mem.state_each("7040 hb 94", "s1")
    clock.advance(minutes=5)
    mem.state_each("7040 hb 101 today, next cycle can go ahead friday", "s1")
    assert "101" in _ask(mem, "7040 hb today?")


def test_a_compound_that_replaces_another_takes_its_role(
    mem: UserMemory, clock: SimulatedClock
) -> None:
    clock.advance(minutes=5)
    mem.state_each("plover: lead PL-3, backup PL-9", "s1")
    clock.advance(minutes=5)
    mem.state_each("plover: PL-9 failed tox, PL-14 replaces it as backup", "s1")
    assert "PL-14" in _ask(mem, "plover backup?")
    clock.advance(minutes=5)
    mem.state_each("plover: PL-21 replaced PL-3 as lead", "s1")
    assert "PL-21" in _ask(mem, "plover lead?")
