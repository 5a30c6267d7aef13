"""UserMemory end to end: statements in, answers out, isolation, boosts, forgetting."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from engine.config import Settings
from engine.result import Answer, Evidence, Result, Status
from memory.clock import SimulatedClock
from memory.service import UserMemory, delete_user
from sessions.store import SessionStore
from tests.memory.memfakes import fake_linker


def _say(mem: UserMemory, clock: SimulatedClock, *texts: str) -> None:
    for text in texts:
        clock.advance(minutes=5)
        assert mem.state(text, "s1") is not None, text


def _top(result: Result | None) -> str | None:
    assert result is not None
    return result.answers[0].id if result.status == Status.ANSWERED else None


def test_current_previous_first_and_before(memory: UserMemory, clock: SimulatedClock) -> None:
    _say(
        memory,
        clock,
        "Patient Ada Moreno (MRN 4471) was started on metformin today.",
        "Switched MRN 4471 from metformin to sitagliptin.",
        "Ada Moreno: sitagliptin -> clonazepam.",
    )
    assert _top(memory.answer("What is MRN 4471 on at the moment?", [])) == "Compound::DB01068"
    assert _top(memory.answer("What was Ada Moreno on previously?", [])) == "Compound::DB01261"
    assert _top(memory.answer("What was MRN 4471 originally started on?", [])) == (
        "Compound::DB00331"
    )
    assert _top(memory.answer("What was she on before sitagliptin? (MRN 4471)", [])) == (
        "Compound::DB00331"
    )
    assert (
        _top(memory.answer("Which medication did clonazepam replace for Ada Moreno?", []))
        == "Compound::DB01261"
    )
    result = memory.answer("What did we switch MRN 4471 to?", [])
    assert result is not None and result.answers[0].source == "memory"
    assert result.evidence[0].kind == "memory" and result.evidence[0].triple is not None


def test_lab_values_by_test_name_and_latest_overall(
    memory: UserMemory, clock: SimulatedClock
) -> None:
    _say(
        memory,
        clock,
        "Got patient 5170's results back, HbA1c 6.9%.",
        "LDL 130 mg/dL for pt 5170 today.",
        "New HbA1c for pt 5170: HbA1c 7.5%, previously HbA1c 6.9%.",
    )
    assert _top(memory.answer("What's the current HbA1c on pt 5170?", [])) == "HbA1c 7.5%"
    assert _top(memory.answer("Most recent LDL for MRN 5170?", [])) == "LDL 130 mg/dL"
    assert _top(memory.answer("Latest lab value for pt 5170?", [])) == "HbA1c 7.5%"
    assert _top(memory.answer("What was pt 5170's HbA1c before the latest one?", [])) == (
        "HbA1c 6.9%"
    )
    missing = memory.answer("What was pt 5170's last CRP result?", [])
    assert missing is not None and missing.status == Status.NOT_ANSWERED


def test_entities_notes_and_titles(memory: UserMemory, clock: SimulatedClock) -> None:
    _say(
        memory,
        clock,
        "Record this: EPHB3 is inhibited by Nilotinib.",
        "POLE is the target gene for the CRISPR screen.",
        "For our CRISPR screen, the lead compound is doxazosin.",
        "Dropping doxazosin in our CRISPR screen; prazosin is the lead now.",
        "Seeing Victor Costa (6328) in clinic; working diagnosis is epilepsy.",
        "Mr. Costa is allergic to aspirin.",
    )
    assert _top(memory.answer("In my notes, nilotinib inhibits which gene?", [])) == "Gene::2049"
    assert _top(memory.answer("What's the target for our CRISPR screen?", [])) == "Gene::5426"
    assert _top(memory.answer("Top candidate for the CRISPR screen right now?", [])) == (
        "Compound::DB00457"
    )
    assert (
        _top(memory.answer("Which compound did the CRISPR screen start with as lead?", []))
        == "Compound::DB00590"
    )
    # a note named without a determiner is found where it stands, as one name, not as a
    # shorter note inside it (its span is masked when the question is read)
    _say(memory, clock, "For the CRISPR project, the lead compound is aspirin.")
    question = "CRISPR screen: lead compound?"
    (note,) = memory.answerer.resolver.notes(question)
    assert note.id == "note:crispr-screen"
    assert question[note.start : note.end] == "CRISPR screen"
    assert _top(memory.answer("What is Victor Costa allergic to?", [])) == "Compound::DB00945"
    assert _top(memory.answer("Which condition does Mr. Costa have?", [])) == ("Disease::DOID:1826")


def test_users_are_isolated_even_with_the_same_mrn(
    memory: UserMemory, other: UserMemory, clock: SimulatedClock
) -> None:
    _say(memory, clock, "Switched MRN 4471 from metformin to sitagliptin.")
    _say(other, clock, "Put MRN 4471 on midazolam, will review in two weeks.")
    assert _top(memory.answer("What is MRN 4471 on at the moment?", [])) == "Compound::DB01261"
    assert _top(other.answer("What is MRN 4471 on at the moment?", [])) == "Compound::DB00683"
    unknown = other.answer("What is MRN 9999 on at the moment?", [])
    assert unknown is not None and unknown.status == Status.NOT_ANSWERED and not unknown.answers
    assert other.answer("Which allergy did we record for MRN 4471?", []).status == (  # type: ignore[union-attr]
        Status.NOT_ANSWERED
    )


def test_kg_questions_are_left_to_the_engine(memory: UserMemory, clock: SimulatedClock) -> None:
    _say(memory, clock, "Record this: EPHB3 is inhibited by Nilotinib.")
    assert memory.answer("How could metformin act on type 2 diabetes?", []) is None
    assert memory.answer("What does nilotinib treat?", []) is None
    assert memory.state("What is MRN 4471 on at the moment?") is None


def test_follow_up_uses_the_sessions_last_subject(
    memory: UserMemory, clock: SimulatedClock
) -> None:
    _say(memory, clock, "Switched MRN 4471 from metformin to sitagliptin.")
    memory.answer("What is MRN 4471 on at the moment?", [], session="s1")
    first = memory.answer("What is MRN 4471 on at the moment?", [], session="s1")
    assert first is not None
    memory.record("What is MRN 4471 on at the moment?", first, "s1")
    clock.advance(minutes=1)
    assert _top(memory.answer("And what was she on before that?", [], session="s1")) == (
        "Compound::DB00331"
    )
    clock.advance(minutes=45)  # past the episodic TTL: no more context, so memory asks who
    later = memory.answer("And what was she on before that?", [], session="s1")
    assert later is not None and later.status == Status.NOT_ANSWERED
    assert later.text.startswith("No patient has been named in this conversation")


def _kg(triple: tuple[str, str, str], score: float) -> Result:
    return Result(
        question="q",
        status=Status.ANSWERED,
        mode="hybrid",
        answers=[Answer(id=triple[0], name=triple[0], score=score)],
        evidence=[Evidence(kind="triple", triple=triple, score=score, source="hetionet")],
    )


def test_vault_boost_changes_ranking_only_for_quality_one_facts(memory: UserMemory) -> None:
    a = ("Compound::DB00843", "CtD", "Disease::DOID:10652")
    b = ("Compound::DB00674", "CtD", "Disease::DOID:10652")
    memory.record("Which drugs treat Alzheimer's disease?", _kg(b, 0.85), "s1")
    memory.vault.add(*a, source="reviewed", quality=0.5)  # refused: not accepted
    boosts = memory.boosts([a, b])
    assert boosts == {b: memory.settings.vault_boost}
    scores = {a: 0.9, b: 0.85}
    ranked = sorted(scores, key=lambda t: -scores[t] * boosts.get(t, 1.0))
    assert ranked == [b, a]  # 0.85 * 1.15 = 0.9775 > 0.9
    hit = memory.cached("Which drugs treat Alzheimer's disease?", "hybrid")
    assert hit is not None and hit.cached


def test_forget_a_patient_everywhere(
    settings: Settings, memory: UserMemory, clock: SimulatedClock
) -> None:
    _say(
        memory,
        clock,
        "Patient Ada Moreno (MRN 4471) was started on metformin today.",
        "MRN 5170 is allergic to aspirin.",
    )
    asked = memory.answer("What is Ada Moreno on at the moment?", [], session="s1")
    assert asked is not None and _top(asked) == "Compound::DB00331"
    memory.record("What is Ada Moreno on at the moment?", asked, "s1")
    with SessionStore(settings, "u07", clock) as store:
        store.add_turn("s1", "What is Ada Moreno on at the moment?", asked)
        store.add_turn("s1", "unrelated", Result(status=Status.NOT_ANSWERED))
    assert memory.forget("Ada Moreno") == 1
    assert memory.search("Ada Moreno") == [] and memory.search("4471") == []
    gone = memory.answer("What is MRN 4471 on at the moment?", [])
    assert gone is not None and gone.status == Status.NOT_ANSWERED
    assert memory.answer("What is Ada Moreno on at the moment?", []) is None or (
        memory.answer("What is Ada Moreno on at the moment?", []).status  # type: ignore[union-attr]
        == Status.NOT_ANSWERED
    )
    assert memory.vault.aliases("patient:4471") == []
    assert all("4471" not in t.query and "Ada" not in t.query for t in memory.episodic.all())
    with SessionStore(settings, "u07", clock) as store:
        assert [t.question for t in store.turns("s1")] == ["unrelated"]
    assert _top(memory.answer("What is MRN 5170 allergic to?", [])) == "Compound::DB00945"


def test_forget_one_fact_and_delete_a_user(
    settings: Settings, memory: UserMemory, other: UserMemory, clock: SimulatedClock
) -> None:
    _say(memory, clock, "MRN 5170 is allergic to aspirin.", "MRN 5170 is allergic to latex.")
    fact = next(f for f in memory.facts() if f.obj == "latex")
    assert memory.forget(fact) == 1
    assert [f.obj for f in memory.facts()] == ["Compound::DB00945"]
    _say(other, clock, "MRN 5170 is allergic to latex.")
    memory.close()
    delete_user(settings, "u07")
    assert not settings.user_dir("u07").exists()
    fresh = UserMemory(settings, "u07", clock=clock)
    try:
        assert fresh.facts() == [] and fresh.search("5170") == []
        assert fresh.answer("What is MRN 5170 allergic to?", []).status == (  # type: ignore[union-attr]
            Status.NOT_ANSWERED
        )
    finally:
        fresh.close()
    assert [f.obj for f in other.facts()] == ["latex"]


def test_summary_when_no_relation_is_asked(memory: UserMemory, clock: SimulatedClock) -> None:
    _say(
        memory,
        clock,
        "Seeing Victor Costa (6328) in clinic; working diagnosis is epilepsy.",
        "put #6328 on midazolam, will review in two weeks.",
    )
    summary = memory.answer("What do we know about Victor Costa?", [])
    assert summary is not None and summary.intent == "memory:summary:current"
    assert {a.id for a in summary.answers} == {"Disease::DOID:1826", "Compound::DB00683"}
    assert memory.forget("Nobody Known") == 0


def test_a_looked_up_fact_never_boosts_the_answer_that_produced_it(memory: UserMemory) -> None:
    b = ("Compound::DB00674", "CtD", "Disease::DOID:10652")
    memory.record("Which drugs treat Alzheimer's disease?", _kg(b, 0.85), "s1")
    (kept,) = memory.facts()
    assert kept.source == "reviewed" and kept.triple == b
    assert memory.boosts([b], "which drugs treat alzheimer's disease") == {}
    assert memory.boosts([b], "What treats Alzheimer's disease?") == {
        b: memory.settings.vault_boost
    }


def test_warming_works_out_the_shared_cues_once_for_every_user(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import numpy as np

    from memory.asks import AskScorer
    from memory.relations import RelationCatalog

    worked: list[int] = []
    real = RelationCatalog.shared_cues

    def counted(catalog: RelationCatalog, wordings: Any) -> Any:
        worked.append(1)
        return real(catalog, wordings)

    monkeypatch.setattr(RelationCatalog, "shared_cues", counted)
    asks = AskScorer(lambda texts: np.zeros((len(texts), 4), dtype=np.float32))
    settings = Settings(home=tmp_path, trace_exporter="none")
    clock = SimulatedClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    first = UserMemory(settings, "ana", clock=clock, linker=fake_linker(), asks=asks)
    first.warm()
    assert worked == [1]
    temporal = first.router.rules.temporal
    assert {"compiled", "asking_clause_re"} <= set(vars(temporal))  # compiled now
    second = UserMemory(settings, "ben", clock=clock, linker=fake_linker(), asks=asks)
    second.warm()
    assert worked == [1]  # the scorer and the rules are shared: nothing worked out again
    first.close()
    second.close()
