"""Follow-ups in a conversation, on the real engine over the slice's stores: a pronoun is the
last subject, a new name alone asks the last question of it, and every front end keeps its
sessions apart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from engine.result import LinkedEntity, Result, Status
from wiring.turn import SessionContext, take_turn

pytestmark = pytest.mark.integration

DONEPEZIL = "Compound::DB00843"
SESSION = ("--session", "s1")


def test_a_pronoun_then_a_new_name_follow_the_last_question(helix: object) -> None:
    from engine.api import Helix

    assert isinstance(helix, Helix)
    first = take_turn(helix, None, "what is donepezil used for")
    assert first.result is not None and first.result.status == Status.ANSWERED
    assert first.context is not None and first.context.subject.id == DONEPEZIL

    binds = take_turn(helix, None, "and which genes does it bind?", context=first.context)
    assert binds.asked == "and which genes does Donepezil bind?"
    assert binds.result is not None and binds.result.status == Status.ANSWERED
    assert binds.result.understood == ["Reading 'it' as Donepezil."]
    assert binds.result.text.startswith("Reading 'it' as Donepezil.")
    genes = {t[2] for t in helix.triples(DONEPEZIL, "CbG", 500)}
    assert binds.result.answers and {a.id for a in binds.result.answers} <= genes

    memantine = helix.link("memantine")[0]
    same = take_turn(helix, None, "same for memantine?", context=binds.context)
    assert same.asked == "and which genes does Memantine bind?"
    assert same.result is not None and same.result.answers
    assert {a.id for a in same.result.answers} <= {
        t[2] for t in helix.triples(memantine.id, "CbG", 500)
    }
    assert same.context is not None and same.context.subject.id == memantine.id


def test_an_answer_named_by_its_place_or_a_closing_demonstrative(helix: object) -> None:
    from engine.api import Helix

    assert isinstance(helix, Helix)
    drugs = take_turn(helix, None, "which drugs treat epilepsy?")
    assert drugs.result is not None and len(drugs.result.answers) >= 2
    assert drugs.context is not None
    first, second = (a.name for a in drugs.result.answers[:2])
    moa = take_turn(helix, None, "which genes does the first one bind?", context=drugs.context)
    assert moa.asked == f"which genes does {first} bind?"
    assert moa.result is not None and moa.result.understood == [
        f"Reading 'the first one' as {first}."
    ]
    other = take_turn(helix, None, "and the second drug, what does it bind?", context=drugs.context)
    assert other.asked is not None and other.asked.startswith(f"and {second},")
    that = take_turn(helix, None, "what else treats that?", context=drugs.context)
    assert that.asked == f"what else treats {drugs.context.subject.name}?"


def test_a_question_that_stands_alone_or_names_a_person_is_asked_as_typed(
    helix: object,
) -> None:
    from engine.api import Helix

    assert isinstance(helix, Helix)
    first = take_turn(helix, None, "what is donepezil used for")
    alone = take_turn(helix, None, "which drugs treat epilepsy?", context=first.context)
    assert alone.asked == "which drugs treat epilepsy?" and alone.result is not None
    assert alone.result.understood == []
    person = take_turn(helix, None, "what is she on now?", context=first.context)
    assert person.asked == "what is she on now?"
    assert take_turn(helix, None, "and its targets?").asked == "and its targets?"


def test_a_context_is_kept_through_a_turn_that_names_nothing(helix: object) -> None:
    from engine.api import Helix

    assert isinstance(helix, Helix)
    first = take_turn(helix, None, "what is donepezil used for")
    lost = take_turn(helix, None, "hmm, not sure about that", context=first.context)
    assert lost.context == first.context
    assert first.result is not None
    assert SessionContext.of("something else entirely", first.result) is None


def test_mcp_keeps_each_session_s_context(helix: object, small_settings: object) -> None:
    from engine.config import Settings
    from helix_mcp.tools import HelixTools

    assert isinstance(small_settings, Settings)
    tools = HelixTools(small_settings, "tester", lambda s: helix, lambda *a: None)  # type: ignore[arg-type, return-value]
    tools.ask("what is donepezil used for", session="a", use_memory=False)
    followed = tools.ask("which genes does it bind?", session="a", use_memory=False)
    assert followed["question"] == "which genes does it bind?"
    assert followed["understood"] == ["Reading 'it' as Donepezil."]
    other = tools.ask("which genes does it bind?", session="b", use_memory=False)
    assert other["understood"] == [] and other["status"] == "NOT_ANSWERED"


def test_ask_session_follows_up_across_processes(small_home: Path) -> None:
    import json

    from helix_tui.cli import cli

    def ask(question: str) -> dict[str, object]:
        done = CliRunner().invoke(
            cli,
            ["--home", str(small_home), "--user", "followup", "ask", "--json", *SESSION, question],
            obj={},
            env={"HELIX_TRACE_EXPORTER": "none"},
        )
        assert done.exit_code == 0, done.output
        return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]

    ask("what is donepezil used for")
    followed = ask("and which genes does it bind?")
    assert followed["understood"] == ["Reading 'it' as Donepezil."]
    assert followed["status"] == "ANSWERED"


def _bound(helix: Any, drugs: list[str]) -> set[str]:
    return {t[2] for d in drugs for t in helix.triples(d, "CbG", 500)}


def test_a_plural_follow_up_asks_of_the_last_answers(helix: Any) -> None:
    drugs = take_turn(helix, None, "which drugs treat epilepsy?")
    assert drugs.result is not None and len(drugs.result.answers) >= 2
    assert drugs.context is not None
    group = [a.id for a in drugs.result.answers[:5]]
    names = [a.name for a in drugs.result.answers[:5]]
    targets = take_turn(helix, None, "what do they bind?", context=drugs.context)
    assert targets.asked == f"what do {', '.join(names[:-1])} or {names[-1]} bind?"
    assert targets.result is not None and targets.result.status == Status.ANSWERED
    assert targets.result.understood == [f"Reading 'they' as the last answers: {', '.join(names)}."]
    got = {a.id for a in targets.result.answers}
    assert got and got <= _bound(helix, group)
    # the answers held by more of the drugs come first
    held = {g: sum(g in _bound(helix, [d]) for d in group) for g in got}
    order = [held[a.id] for a in targets.result.answers]
    assert order == sorted(order, reverse=True)


def test_a_bare_relation_is_asked_of_the_last_subject(helix: Any) -> None:
    first = take_turn(helix, None, "what is donepezil used for")
    assert first.context is not None
    genes = take_turn(helix, None, "targets?", context=first.context)
    assert genes.asked == "targets of Donepezil?"
    assert genes.result is not None and genes.result.status == Status.ANSWERED
    assert {a.id for a in genes.result.answers} <= _bound(helix, [DONEPEZIL])
    remark = take_turn(helix, None, "ok thanks", context=first.context)
    assert remark.asked == "ok thanks"


def test_a_drug_s_mechanism_of_action_alone_is_what_it_binds(helix: Any) -> None:
    for question in ("moa of donepezil", "how does donepezil work"):
        result = helix.ask(question)
        assert result.status == Status.ANSWERED, question
        assert result.answers and {a.id for a in result.answers} <= _bound(helix, [DONEPEZIL])


def test_the_last_answers_narrowed_by_a_new_name_of_the_subject_s_kind(helix: Any) -> None:
    epilepsy, migraine = "Disease::DOID:1826", "Disease::DOID:6364"
    first = take_turn(helix, None, "which drugs treat epilepsy syndrome")
    assert first.result is not None and first.result.answers

    def drugs(disease: str) -> set[str]:
        return {t[0] for rel in ("CtD", "CpD") for t in helix.triples(disease, rel, 500)}

    also = take_turn(
        helix, None, "which of those are also used for migraine?", context=first.context
    )
    assert also.asked == "which drugs treat both epilepsy syndrome and migraine"
    assert also.result is not None and also.result.status == Status.ANSWERED
    got = {a.id for a in also.result.answers}
    assert got and got <= drugs(epilepsy) & drugs(migraine)

    without = take_turn(
        helix, None, "and which of them are not used in migraine", context=also.context
    )
    assert without.asked == "which drugs treat epilepsy syndrome but not migraine"
    assert without.result is not None
    got = {a.id for a in without.result.answers}
    assert got and not got & drugs(migraine)


def test_a_pronoun_beside_a_new_name_is_the_last_subject(helix: Any) -> None:
    first = take_turn(helix, None, "what is donepezil used for")
    assert first.context is not None
    disease = next(
        n
        for (n,) in helix.c.store.con.execute(
            "SELECT n.name FROM nodes n WHERE n.kind = 'Disease' AND n.id NOT IN "
            "(SELECT obj FROM triples WHERE subj = ?) ORDER BY n.name",
            [DONEPEZIL],
        ).fetchall()
    )
    claim = take_turn(helix, None, f"does it treat {disease}?", context=first.context)
    assert claim.asked == f"does Donepezil treat {disease}?"
    assert claim.result is not None and claim.result.intent == "claim"
    assert claim.result.understood == ["Reading 'it' as Donepezil."]
    # a plural word beside a new name is not the last subject
    group = take_turn(helix, None, f"do they treat {disease}?", context=first.context)
    assert "Donepezil" not in group.asked


def test_some_of_the_last_answers_picked_by_a_name_of_another_kind(helix: Any) -> None:
    first = take_turn(helix, None, "which drugs treat epilepsy syndrome")
    assert first.result is not None and first.context is not None
    answers = [a.id for a in first.result.answers]
    assert len(answers) > 10
    binds = {a: {t[2] for t in helix.triples(a, "CbG", 500)} for a in answers}
    # a gene bound by one of the answers a short list leaves out, and by drugs that are none
    # of the answers: every answer is picked from, and nothing else is
    late = set().union(*(binds[a] for a in answers[10:])) - set().union(
        *(binds[a] for a in answers[:10])
    )
    gene = next(
        g for g in sorted(late) if {t[0] for t in helix.triples(g, "CbG", 500)} - set(answers)
    )
    name = helix.c.store.name(gene)
    picked = take_turn(helix, None, f"which of them bind {name}?", context=first.context)
    assert picked.asked == f"which drugs bind {name}?"
    assert picked.result is not None and picked.result.status == Status.ANSWERED
    assert {a.id for a in picked.result.answers} == {d for d, g in binds.items() if gene in g}
    assert picked.result.text.startswith("Reading 'which of them' as the last answers: ")
    # the same question asked alone is not kept to them, and is not served from that answer
    alone = helix.ask(f"which drugs bind {name}?")
    assert {a.id for a in alone.answers} - set(answers)


def test_a_question_that_found_nothing_about_its_subject_still_leaves_it() -> None:
    warfarin = LinkedEntity(
        mention="warfarin",
        id="Compound::DB00682",
        name="Warfarin",
        kind="Compound",
        score=1.0,
        method="exact",
        start=16,
        end=24,
    )
    asked = "side effects of warfarin"

    def result(intent: str) -> Result:
        return Result(
            question=asked, status=Status.NOT_ANSWERED, intent=intent, linked=[warfarin], text="x"
        )

    kept = SessionContext.of(asked, result("one_hop"))
    assert kept is not None and kept.subject.id == warfarin.id and kept.answers == ()
    # a question the sources cannot answer ("how much warfarin ...") still names its subject:
    # "what does it treat?" after it is about warfarin
    scoped = SessionContext.of(asked, result("out_of_scope"))
    assert scoped is not None and scoped.subject.id == warfarin.id
    # one the graph was not asked about a subject at all leaves none
    assert SessionContext.of(asked, result("literature")) is None


def test_other_drugs_of_the_same_target_leave_the_last_drug_out(helix: Any) -> None:
    def binders(gene: str) -> set[str]:
        return {t[0] for t in helix.triples(gene, "CbG", 500)}

    # a drug of the slice whose first target other drugs bind too
    for drug in ("donepezil", "galantamine", "memantine", "rivastigmine", "levodopa"):
        first = take_turn(helix, None, f"which genes does {drug} bind")
        assert first.result is not None and first.context is not None
        top = first.result.answers[0]
        if len(binders(top.id)) > 1:
            break
    subject = first.context.subject
    other = take_turn(helix, None, "other drugs that bind the same target?", context=first.context)
    assert other.asked == f"other drugs that bind {top.name} other than {subject.name}"
    assert other.result is not None and other.result.status == Status.ANSWERED
    assert {a.id for a in other.result.answers} == binders(top.id) - {subject.id}
    assert other.result.understood[0] == f"Reading 'the same target' as {top.name}."


def test_a_name_of_a_claims_other_end_asks_the_claim_of_it(helix: Any) -> None:
    treated = sorted({t[2] for t in helix.triples(DONEPEZIL, "CtD", 50)})
    disease = helix.node_name(treated[0])
    first = take_turn(helix, None, f"does donepezil treat {disease}?")
    assert first.result is not None and first.result.status == Status.ANSWERED
    assert first.context is not None and [e.name for e in first.context.others] == [disease]
    other = next(
        d for d in ("asthma", "psoriasis", "hypertension") if helix.link(d)[0].id not in treated
    )
    again = take_turn(helix, None, f"and {other}?", context=first.context)
    name = helix.link(other)[0].name
    assert again.asked == f"does donepezil treat {name}?"
    assert again.result is not None and again.result.intent == "claim"
    # the next name of the drug's kind replaces the drug, in the claim as last asked
    memantine = take_turn(helix, None, "what about memantine", context=again.context)
    assert memantine.asked == f"does Memantine treat {name}?"


def test_a_pronoun_after_a_relation_word_is_the_thing_of_the_kind_it_leads_to(helix: Any) -> None:
    """After "does donepezil treat X", "what else treats it" asks of X (what a drug treats is
    a disease), while "what does it bind" asks of donepezil."""
    from engine.understand.followup import object_kinds

    assert object_kinds("what else treats it", 16) == {"Disease"}
    assert object_kinds("what does it bind", 10) == frozenset()
    treated = sorted({t[2] for t in helix.triples(DONEPEZIL, "CtD", 50)})
    disease = helix.node_name(treated[0])
    first = take_turn(helix, None, f"does donepezil treat {disease}?")
    assert first.context is not None
    treats = take_turn(helix, None, "what else treats it", context=first.context)
    assert treats.asked == f"what else treats {disease} other than Donepezil", treats.asked
    assert treats.result is not None
    assert DONEPEZIL not in {a.id for a in treats.result.answers}
    binds = take_turn(helix, None, "what does it bind", context=first.context)
    assert binds.asked == "what does Donepezil bind", binds.asked


def test_a_singular_pronoun_after_a_list_is_its_first_answer_when_only_that_fits(
    helix: Any,
) -> None:
    drugs = take_turn(helix, None, "which drugs treat epilepsy?")
    assert drugs.result is not None and len(drugs.result.answers) >= 2
    assert drugs.context is not None
    first = drugs.result.answers[0]
    # a disease binds no genes: "it" is the list's first drug
    binds = take_turn(helix, None, "which genes does it bind?", context=drugs.context)
    assert binds.asked == f"which genes does {first.name} bind?"
    assert binds.result is not None and binds.result.understood == [
        f"Reading 'it' as {first.name}."
    ]
    assert {a.id for a in binds.result.answers} <= _bound(helix, [first.id])
    # a disease has genes: "it" stays the last subject
    genes = take_turn(helix, None, "what genes is it associated with?", context=drugs.context)
    assert genes.asked == f"what genes is {drugs.context.subject.name} associated with?"


def test_what_about_initials_in_lower_case_asks_the_last_question_of_that_disease(
    helix: Any,
) -> None:
    drugs = take_turn(helix, None, "which drugs treat epilepsy?")
    assert drugs.context is not None
    other = take_turn(helix, None, "what about for pd", context=drugs.context)
    assert other.asked is not None and "Parkinson's disease" in other.asked
    assert other.result is not None and other.result.status == Status.ANSWERED
    # alone, two lower-case letters stay a word
    assert take_turn(helix, None, "what about pd").asked == "what about pd"


def test_they_in_a_question_of_what_is_shared_are_the_last_two_subjects(helix: Any) -> None:
    first = take_turn(helix, None, "what does donepezil bind")
    second = take_turn(helix, None, "same for memantine?", context=first.context)
    assert second.context is not None and second.context.before[0].id == DONEPEZIL
    shared = take_turn(helix, None, "do they share any targets?", context=second.context)
    assert shared.asked == "do Donepezil and Memantine share any targets?"
    assert shared.result is not None
    assert shared.result.understood[-1] == "Reading 'they' as Donepezil and Memantine."
    # the last answers, not the last subjects, when only one thing was asked about
    group = take_turn(helix, None, "what do they bind?", context=first.context)
    assert group.asked != "what do Donepezil and Memantine bind?"


def test_an_answer_described_by_part_of_its_name(helix: Any) -> None:
    drugs = take_turn(helix, None, "which drugs treat epilepsy?")
    assert drugs.result is not None and len(drugs.result.answers) >= 3
    names = [a.name for a in drugs.result.answers]
    # a part inside the third name that no earlier name has ("the triptan one")
    third = names[2].lower()
    part = next(
        third[k : k + 5]
        for k in range(2, len(third) - 4)
        if third[k : k + 5].isalpha() and not any(third[k : k + 5] in n.lower() for n in names[:2])
    )
    one = take_turn(helix, None, f"what does the {part} one bind?", context=drugs.context)
    assert one.asked == f"what does {names[2]} bind?"


def test_a_setting_added_to_the_last_question_asks_it_again_and_says_so(helix: object) -> None:
    from engine.api import Helix

    assert isinstance(helix, Helix)
    drugs = take_turn(helix, None, "drugs for psoriasis")
    assert drugs.result is not None and drugs.result.answers and drugs.context is not None
    kids = take_turn(helix, None, "what about in kids?", context=drugs.context)
    assert kids.asked == "drugs for psoriasis"
    assert kids.result is not None
    assert [a.id for a in kids.result.answers] == [a.id for a in drugs.result.answers]
    assert kids.result.text.startswith("The sources record no answers for 'kids' apart")
    # after a question the sources do not hold, the setting changes nothing either
    dose = take_turn(helix, None, "what's the max dose of metformin")
    assert dose.result is not None and dose.result.intent == "out_of_scope"
    again = take_turn(helix, None, "and in CKD pts?", context=dose.context)
    assert again.result is not None and again.result.intent == "out_of_scope"
    assert not again.result.answers
    # and the drug it named is still the subject
    treats = take_turn(helix, None, "what does it treat?", context=again.context)
    assert treats.asked == "what does Metformin treat?"


def test_a_purpose_that_names_nothing_is_a_setting_a_name_after_for_is_not(
    helix: object,
) -> None:
    from engine.api import Helix

    assert isinstance(helix, Helix)
    drugs = take_turn(helix, None, "drugs for psoriasis")
    assert drugs.context is not None and drugs.result is not None
    later = take_turn(helix, None, "and for long term control", context=drugs.context)
    assert later.asked == "drugs for psoriasis"
    assert later.result is not None
    assert later.result.text.startswith("The sources record no answers for 'long term control'")
    epilepsy = take_turn(helix, None, "and for epilepsy?", context=drugs.context)
    assert epilepsy.asked is not None and "epilepsy" in epilepsy.asked.lower()
    assert "psoriasis" not in epilepsy.asked.lower()


def test_a_follow_up_about_the_patient_asks_of_the_unsaid_subject(helix: object) -> None:
    from engine.api import Helix

    assert isinstance(helix, Helix)
    drugs = take_turn(helix, None, "which drugs treat epilepsy?")
    assert drugs.context is not None and drugs.result is not None and drugs.result.answers
    first = drugs.result.answers[0]
    # a disease has no side effects: the patient's drug is the first answer
    warn = take_turn(helix, None, "any side effects I should warn her about", context=drugs.context)
    assert warn.asked is not None and first.name in warn.asked
    assert warn.result is not None and warn.result.understood[0].startswith(
        f"Reading this as about {first.name}"
    )
    assert [e.id for e in warn.result.linked] == [first.id]
    assert all(a.kind == "Side Effect" for a in warn.result.answers)
    # of the last subject when the question fits it
    disease = take_turn(helix, None, "what genes should I test him for", context=drugs.context)
    assert disease.asked is not None and "epilepsy" in disease.asked.lower()


def test_a_modifier_of_the_last_subjects_head_names_the_thing_with_that_head(
    helix: object,
) -> None:
    from engine.api import Helix

    assert isinstance(helix, Helix)
    first = take_turn(helix, None, "genes associated with type 2 diabetes mellitus")
    assert first.context is not None
    other = take_turn(helix, None, "what about type 1", context=first.context)
    assert other.asked == "genes associated with type 1 diabetes mellitus"
    assert other.context is not None and other.context.subject.id == "Disease::DOID:9744"


def test_a_name_added_to_a_set_question_asks_it_of_all_of_them(helix: object) -> None:
    from engine.api import Helix

    assert isinstance(helix, Helix)
    # initials listed beside a disease's name are that disease, where a name is not framed
    assert {e.name for e in helix.link("genes shared by Crohn's disease and UC")} == {
        "Crohn's disease",
        "ulcerative colitis",
    }
    first = take_turn(helix, None, "drugs that treat both psoriasis and rheumatoid arthritis")
    assert first.result is not None and first.result.answers and first.context is not None
    assert [e.name for e in first.context.others] == ["rheumatoid arthritis"]
    more = take_turn(helix, None, "and with psoriatic arthritis too?", context=first.context)
    assert more.asked == (
        "drugs that treat both psoriasis, rheumatoid arthritis and psoriatic arthritis"
    )
    assert more.result is not None
    assert {a.id for a in more.result.answers} <= {a.id for a in first.result.answers}


def test_the_first_answers_counted_out_are_asked_about_by_name(helix: object) -> None:
    from engine.api import Helix

    assert isinstance(helix, Helix)
    drugs = take_turn(helix, None, "which drugs treat epilepsy?")
    assert drugs.result is not None and len(drugs.result.answers) >= 3
    a, b, c = (x.name for x in drugs.result.answers[:3])
    targets = take_turn(helix, None, "what do the first three target", context=drugs.context)
    assert targets.asked == f"what do {a}, {b} or {c} target"
    assert targets.result is not None
    assert targets.result.understood == [f"Reading 'the first three' as {a}, {b} and {c}."]
    both = take_turn(helix, None, "which genes do both of the top two bind", context=drugs.context)
    assert both.asked == f"which genes do both {a} and {b} bind"


def test_a_follow_up_asking_what_is_shared_with_a_new_name_narrows_the_last_answers(
    helix: object,
) -> None:
    from engine.api import Helix

    assert isinstance(helix, Helix)
    genes = take_turn(helix, None, "genes associated with Alzheimer's disease")
    assert genes.context is not None
    shared = take_turn(helix, None, "any overlap with Parkinson's disease?", context=genes.context)
    assert shared.asked is not None and "both Alzheimer's disease and Parkinson's disease" in (
        shared.asked
    )
    assert shared.result is not None
    both = {t[2] for t in helix.triples("Disease::DOID:10652", "DaG", 500)} & {
        t[2] for t in helix.triples("Disease::DOID:14330", "DaG", 500)
    }
    assert {a.id for a in shared.result.answers} <= both


def test_in_and_a_modifier_of_the_last_subjects_head_is_no_setting(helix: object) -> None:
    from engine.api import Helix

    assert isinstance(helix, Helix)
    first = take_turn(helix, None, "genes associated with type 2 diabetes mellitus")
    assert first.context is not None
    other = take_turn(helix, None, "and in type 1?", context=first.context)
    assert other.asked == "genes associated with type 1 diabetes mellitus"
