"""Deterministic stand-ins for the engine and the user memory (sessions use the real store).

Over 350 lines on purpose: the canned results, the fake memory and the harness that wires them
into ``Services`` are read together by every chat-app test."""

from __future__ import annotations

import re
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from engine.config import Settings
from engine.events import StepEvent
from engine.result import (
    Answer,
    Candidate,
    Evidence,
    LinkedEntity,
    Result,
    Status,
    Triple,
)
from helix_tui.services import Services
from memory.clock import SimulatedClock
from sessions.store import SessionStore
from tests.support.fake_engine import FakeEngine

DONEPEZIL = "Compound::DB00843"
GALANTAMINE = "Compound::DB00674"
RIVASTIGMINE = "Compound::DB00989"
ALZHEIMER = "Disease::DOID:10652"
ACHE = "Gene::43"
MS = "Disease::DOID:2377"
MS_GENE = "Gene::4340"
METFORMIN = "Compound::DB00331"
SITAGLIPTIN = "Compound::DB01261"

NAMES = {
    DONEPEZIL: "Donepezil",
    GALANTAMINE: "Galantamine",
    RIVASTIGMINE: "Rivastigmine",
    ALZHEIMER: "Alzheimer's disease",
    ACHE: "ACHE",
    MS: "multiple sclerosis",
    MS_GENE: "MOG",
    METFORMIN: "Metformin",
    SITAGLIPTIN: "Sitagliptin",
    "Symptom::D009103": "Multiple Sclerosis symptoms",
}

ALZ_QUESTION = "Which medicines are used to treat Alzheimer's disease?"
AMBIGUOUS_QUESTION = "What genes are linked to MS?"
SLOW_QUESTION = "slow question"


START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def alzheimer_result(question: str = ALZ_QUESTION, *, boosted: bool = False) -> Result:
    t1: Triple = (DONEPEZIL, "CtD", ALZHEIMER)
    t2: Triple = (GALANTAMINE, "CtD", ALZHEIMER)
    t3: Triple = (RIVASTIGMINE, "CtD", ALZHEIMER)
    t4: Triple = (DONEPEZIL, "CbG", ACHE)
    return Result(
        question=question,
        status=Status.ANSWERED,
        answers=[
            Answer(id=DONEPEZIL, name="Donepezil", score=0.93, kind="Compound"),
            Answer(id=GALANTAMINE, name="Galantamine", score=0.88, kind="Compound"),
            Answer(id=RIVASTIGMINE, name="Rivastigmine", score=0.81, kind="Compound"),
        ],
        evidence=[
            Evidence(kind="triple", triple=t1, score=0.93, source="hetionet"),
            Evidence(kind="triple", triple=t2, score=0.88, source="hetionet"),
            Evidence(kind="triple", triple=t3, score=0.81, source="hetionet"),
            Evidence(
                kind="passage",
                id="pubmedqa:21645374:0",
                score=0.41,
                text="Donepezil improved cognition in patients with mild to moderate "
                "Alzheimer's disease over 24 weeks.",
                source="pubmedqa",
            ),
        ],
        paths=[[t1], [t2], [t3], [t4, (ALZHEIMER, "DaG", ACHE)]],
        text="Three approved drugs treat Alzheimer's disease in the knowledge graph: "
        "Donepezil, Galantamine and Rivastigmine.",
        linked=[
            LinkedEntity(
                mention="Alzheimer's disease",
                id=ALZHEIMER,
                name="Alzheimer's disease",
                kind="Disease",
                score=1.0,
                method="exact",
            )
        ],
        intent="one_hop",
        mode="hybrid",
        stop_reason="reviewer accepted at depth 1",
        timings={"plan": 2.0, "link": 11.0, "walk": 31.0, "review": 4.0, "explain": 1.0},
        latency_ms=84.0,
        memory_boosted=boosted,
    )


def clarification_result(question: str = AMBIGUOUS_QUESTION) -> Result:
    return Result(
        question=question,
        status=Status.NEEDS_CLARIFICATION,
        clarification="“MS” can mean several things. Which one do you mean?",
        candidates=[
            Candidate(
                id=MS,
                name="multiple sclerosis",
                kind="Disease",
                detail="demyelinating disease of the central nervous system",
            ),
            Candidate(
                id="Disease::DOID:0050749",
                name="mitral stenosis",
                kind="Disease",
                detail="narrowing of the mitral valve",
            ),
        ],
        intent="one_hop",
        mode="hybrid",
        stop_reason="ambiguous mention",
        timings={"plan": 2.0, "link": 9.0},
        latency_ms=12.0,
    )


def ms_result(question: str = AMBIGUOUS_QUESTION) -> Result:
    t: Triple = (MS, "DaG", MS_GENE)
    return Result(
        question=question,
        status=Status.ANSWERED,
        answers=[Answer(id=MS_GENE, name="MOG", score=0.9, kind="Gene")],
        evidence=[Evidence(kind="triple", triple=t, score=0.9, source="hetionet")],
        paths=[[t]],
        text="MOG is associated with multiple sclerosis.",
        linked=[
            LinkedEntity(
                mention="MS",
                id=MS,
                name="multiple sclerosis",
                kind="Disease",
                score=1.0,
                method="user",
            )
        ],
        intent="one_hop",
        mode="hybrid",
        stop_reason="reviewer accepted at depth 1",
        timings={"plan": 2.0, "link": 1.0, "walk": 10.0},
        latency_ms=20.0,
    )


def not_found_result(question: str) -> Result:
    return Result(
        question=question,
        status=Status.NOT_ANSWERED,
        text="No entity in the question matches the knowledge graph.",
        mode="hybrid",
        stop_reason="no seed entity",
        latency_ms=5.0,
    )


STEPS = (
    StepEvent("plan", "start", "reading the question", 0.1),
    StepEvent(
        "plan",
        "end",
        "reading the question",
        2.0,
        {"intent": "one_hop", "seeds": [ALZHEIMER], "duration_ms": 2.0},
    ),
    StepEvent("link", "start", "linking entities", 2.1),
    StepEvent("link", "end", "linking entities", 13.0, {"duration_ms": 11.0}),
    StepEvent("walk", "start", "walking the graph", 13.1),
    StepEvent(
        "walk",
        "progress",
        "depth 1: 1 nodes expanded, 4 paths",
        40.0,
        {"depth": 1, "expanded": 1, "paths": 4},
    ),
    StepEvent(
        "walk",
        "end",
        "walking the graph",
        44.0,
        {"depth": 1, "stop_reason": "answered", "paths": 4, "duration_ms": 31.0},
    ),
    StepEvent("review", "start", "checking the paths", 44.1),
    StepEvent(
        "review",
        "end",
        "checking the paths",
        48.0,
        {"accepted": True, "confidence": 0.93, "duration_ms": 4.0},
    ),
    StepEvent("explain", "start", "writing the answer", 48.1),
    StepEvent("explain", "end", "writing the answer", 49.0, {"duration_ms": 1.0}),
)


def not_found(question: str, _linked: object, _options: object) -> Result:
    return not_found_result(question)


def answer_ambiguous(question: str, choice: str | None) -> Result:
    return ms_result(question) if choice == MS else clarification_result(question)


def make_engine() -> FakeEngine:
    """The shared fake engine answering the chat tests' few known questions."""
    return FakeEngine(
        answers={ALZ_QUESTION: alzheimer_result(), AMBIGUOUS_QUESTION: answer_ambiguous},
        fallback=not_found,
        names=NAMES,
        steps=STEPS,
        slow=SLOW_QUESTION,
    )


@dataclass(frozen=True)
class FakeFact:
    subj: str
    rel: str
    obj: str
    t_start: datetime
    t_end: datetime | None = None
    quality: float = 1.0
    subj_name: str | None = None
    obj_name: str | None = None
    source: str = "stated"
    evidence: str | None = None


@dataclass(frozen=True)
class FakeNoted:
    facts: tuple[FakeFact, ...]
    unread: tuple[str, ...]


_SWITCH = re.compile(r"MRN (\d+) from (\w+) to (\w+)", re.IGNORECASE)
_START = re.compile(r"MRN (\d+)\)? (?:was|is) started on (\w+)", re.IGNORECASE)
_DRUGS = {"metformin": METFORMIN, "sitagliptin": SITAGLIPTIN}


class FakeMemory:
    """A user's vault in a list; understands "started on X" and "from X to Y" about an MRN."""

    def __init__(self, user: str, clock: SimulatedClock) -> None:
        self.user = user
        self.clock = clock
        self.rows: list[FakeFact] = []
        self.stated: list[str] = []
        self.residue: str | None = None  # a list leaves no bytes behind

    # MemoryPort
    def answer(
        self, question: str, linked: list[LinkedEntity], session: str | None = None
    ) -> Result | None:
        match = re.search(r"MRN (\d+)", question)
        if not match:
            return None
        subj = f"patient:{match.group(1)}"
        current = [f for f in self.rows if f.subj == subj and f.t_end is None]
        if not current:
            return Result(
                question=question,
                status=Status.NOT_ANSWERED,
                text="No such patient in your memory.",
            )
        fact = current[-1]
        return Result(
            question=question,
            status=Status.ANSWERED,
            answers=[
                Answer(id=fact.obj, name=fact.obj_name or fact.obj, score=1.0, source="memory")
            ],
            evidence=[
                Evidence(
                    kind="memory", triple=(fact.subj, fact.rel, fact.obj), score=1.0, source="vault"
                )
            ],
            text=f"{fact.subj} takes {fact.obj_name}.",
        )

    def boosts(self, triples: list[Triple], question: str | None = None) -> dict[Triple, float]:
        return {}

    def cached(self, question: str, mode: str) -> Result | None:
        return None

    def record(self, question: str, result: Result, session: str | None) -> None:
        return None

    # UserMemory extras
    def state_each(self, text: str, session: str | None = None) -> FakeNoted:
        fact = self.state(text, session)
        return FakeNoted((fact,) if fact is not None else (), () if fact is not None else (text,))

    def state(self, text: str, session: str | None = None) -> FakeFact | None:
        self.stated.append(text)
        if m := _SWITCH.search(text):
            mrn, old, new = m.groups()
            return self._add(f"patient:{mrn}", _DRUGS.get(old.lower()), new)
        if m := _START.search(text):
            mrn, drug = m.groups()
            return self._add(f"patient:{mrn}", None, drug)
        return None

    def store_fact(
        self,
        subj: str,
        rel: str,
        obj: str,
        supersedes: Triple | None = None,
        evidence: str | None = None,
        *,
        session: str | None = None,
    ) -> FakeFact:
        self.stated.append(evidence or "")
        name = next((k.capitalize() for k, v in _DRUGS.items() if v == obj), None)
        return self._put(subj, rel, obj, name, supersedes[2] if supersedes else None)

    def _add(self, subj: str, old: str | None, new: str) -> FakeFact:
        obj = _DRUGS.get(new.lower(), new)
        return self._put(subj, "takes", obj, new.capitalize(), old)

    def _put(self, subj: str, rel: str, obj: str, name: str | None, old: str | None) -> FakeFact:
        now = self.clock.now()
        for i, row in enumerate(self.rows):
            if row.subj == subj and row.t_end is None and (old is None or row.obj == old):
                self.rows[i] = FakeFact(
                    row.subj,
                    row.rel,
                    row.obj,
                    row.t_start,
                    now,
                    row.quality,
                    row.subj_name,
                    row.obj_name,
                    row.source,
                )
        fact = FakeFact(subj, rel, obj, now, None, 1.0, f"MRN {subj.split(':')[-1]}", name)
        self.rows.append(fact)
        return fact

    def facts(self, include_superseded: bool = True) -> list[FakeFact]:
        return [f for f in self.rows if include_superseded or f.t_end is None]

    def search(self, query: str, limit: int = 50) -> list[FakeFact]:
        """Facts about the patient an MRN names, else with ``query`` as an end."""
        mrn = re.search(r"MRN (\d+)", query)
        subj = f"patient:{mrn.group(1)}" if mrn else query
        return [f for f in self.rows if subj in (f.subj, f.obj)][:limit]

    def hold(self) -> AbstractContextManager[object]:
        return nullcontext()

    def close(self) -> None:
        return None

    def forget(self, fact_or_subject: object) -> int:
        if isinstance(fact_or_subject, FakeFact):
            before = len(self.rows)
            self.rows = [r for r in self.rows if r.triple_key != fact_or_subject.triple_key]
            return before - len(self.rows)
        target = str(fact_or_subject)
        mrn = re.search(r"(\d+)", target)
        subj = f"patient:{mrn.group(1)}" if mrn else target
        before = len(self.rows)
        self.rows = [r for r in self.rows if r.subj != subj]
        if before == len(self.rows):
            raise KeyError(f"no subject found in {target!r}")
        return before - len(self.rows)


FakeFact.triple_key = property(lambda self: (self.subj, self.rel, self.obj))  # type: ignore[attr-defined]


@dataclass
class Harness:
    settings: Settings
    services: Services
    engine: FakeEngine
    memories: dict[str, FakeMemory]
    clock: SimulatedClock


def make_harness(home: Path, user: str = "alice") -> Harness:
    settings = Settings(home=home, user=user, _env_file=None)  # type: ignore[call-arg]
    engine = make_engine()
    clock = SimulatedClock(START)
    memories: dict[str, FakeMemory] = {}

    def open_memory(_s: Settings, who: str, _e: object, clk: SimulatedClock) -> FakeMemory:
        return memories.setdefault(who, FakeMemory(who, clk))

    services = Services(
        open_engine=lambda _s: engine,
        open_sessions=lambda s, who, clk: SessionStore(s, who, clock=clk),
        open_memory=open_memory,
        clock=clock,
    )
    return Harness(settings, services, engine, memories, clock)
