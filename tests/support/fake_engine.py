"""The one deterministic stand-in for ``engine.api.Helix``, shared by every test that needs one.

A small built-in graph (``NODES``, ``ALIASES``, ``TRIPLES``, ``PASSAGES``) serves ``link``,
``node_name``, ``triples`` and ``dense_search``; it has no embedder (``embed`` is None).
``ask`` records each call (question and the keyword arguments as passed) in ``calls``, then, in
order: raises for a question in ``fail_on``; for the ``slow`` question, sets ``started`` and
emits walk steps until ``release`` is set; emits ``steps``; lets the caller's memory answer;
answers from ``answers`` (a ``Result``, or a function of the question and ``choice``); else
asks ``fallback`` (by default: the treatments of the first disease named, from ``TRIPLES``).
Like the engine, it names every node of the answer it returns (``Result.names``).

Self-contained, so a server subprocess can load it by path:
``--engine-factory tests/support/fake_engine.py:make_engine``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.config import Settings
from engine.events import StepEvent
from engine.ports import AliasEntry
from engine.result import Answer, Evidence, LinkedEntity, Result, Status, Triple
from engine.util.text import alias_key

NODES = {
    "Compound::DB00843": "Donepezil",
    "Compound::DB00331": "Metformin",
    "Compound::DB01261": "Sitagliptin",
    "Disease::DOID:10652": "Alzheimer's disease",
    "Disease::DOID:9352": "type 2 diabetes mellitus",
    "Gene::43": "ACHE",
    "Gene::5468": "PPARG",
}
ALIASES = {name.lower(): nid for nid, name in NODES.items()} | {
    "aricept": "Compound::DB00843",
    "alzheimer": "Disease::DOID:10652",
    "diabetes": "Disease::DOID:9352",
}
TRIPLES = [
    ("Compound::DB00843", "CtD", "Disease::DOID:10652"),
    ("Compound::DB00843", "CbG", "Gene::43"),
    ("Compound::DB00331", "CtD", "Disease::DOID:9352"),
    ("Compound::DB01261", "CtD", "Disease::DOID:9352"),
    ("Compound::DB00331", "CbG", "Gene::5468"),
    ("Disease::DOID:9352", "DaG", "Gene::5468"),
    ("Disease::DOID:10652", "DaG", "Gene::43"),
    ("Disease::DOID:10652", "DrD", "Disease::DOID:9352"),
]
DESCRIPTIONS = {
    "Disease::DOID:10652": "A tauopathy that is characterized by memory lapses, confusion, "
    "emotional instability and progressive loss of mental ability.",
    "Gene::43": "acetylcholinesterase (Cartwright blood group)",
}
PASSAGES = {
    "pubmedqa:1:0": "Donepezil improves cognition in mild Alzheimer's disease.",
    "pubmedqa:2:0": "Metformin lowers hepatic glucose output in type 2 diabetes.",
}

Answering = Result | Callable[[str, str | None], Result]
Fallback = Callable[[str, list[LinkedEntity], Mapping[str, Any]], Result]
"""(question, linked entities, the keyword arguments of ``ask``) → the answer."""


class FakeEngine:
    def __init__(
        self,
        settings: Settings | None = None,
        *,
        answers: Mapping[str, Answering] | None = None,
        fallback: Fallback | None = None,
        names: Mapping[str, str] | None = None,
        steps: Iterable[StepEvent] = (),
        slow: str | None = None,
        fail_on: Iterable[str] = (),
    ) -> None:
        self.settings = settings
        self.answers: dict[str, Answering] = dict(answers or {})
        self.fallback: Fallback = fallback or treatments
        self.names = {**NODES, **(names or {})}
        self.steps = tuple(steps)
        self.slow = slow
        self.fail_on = set(fail_on)
        self.calls: list[dict[str, Any]] = []
        self.started = threading.Event()
        self.release = threading.Event()
        self.closed = False

    def ask(self, question: str, **options: Any) -> Result:
        result = self._ask(question, **options)
        result.name_nodes(self.node_names)
        return result

    def _ask(self, question: str, **options: Any) -> Result:
        self.calls.append({"question": question, **options})
        if question in self.fail_on:
            raise RuntimeError("boom")
        sink = options.get("on_event") or (lambda _e: None)
        linked = self.link(question)
        if question == self.slow:
            self.started.set()
            sink(StepEvent("plan", "start"))
            while not self.release.wait(0.01):
                sink(StepEvent("walk", "start", data={"depth": 1}))
            return self.fallback(question, linked, options)
        for event in self.steps:
            sink(event)
        memory = options.get("memory")
        if memory is not None:
            mine = memory.answer(question, linked, options.get("session"))
            if mine is not None:
                return mine
        given = self.answers.get(question)
        if isinstance(given, Result):
            result = given.model_copy(deep=True)
        elif given is not None:
            result = given(question, options.get("choice"))
        else:
            result = self.fallback(question, linked, options)
        if memory is not None:
            memory.record(question, result, options.get("session"))
        return result

    def link(self, text: str, kinds: set[str] | None = None) -> list[LinkedEntity]:
        found = []
        for alias, nid in ALIASES.items():
            for m in re.finditer(rf"\b{re.escape(alias)}\b", text, re.IGNORECASE):
                kind = nid.split("::")[0]
                if kinds is None or kind in kinds:
                    found.append(
                        LinkedEntity(
                            mention=m.group(0),
                            id=nid,
                            name=NODES[nid],
                            kind=kind,
                            score=1.0,
                            method="exact",
                            start=m.start(),
                            end=m.end(),
                        )
                    )
        return sorted(found, key=lambda e: e.start)

    def fit(self, text: str) -> float | None:
        """No reading is preferred: a follow-up keeps the last subject."""
        return None

    def node_name(self, node_id: str) -> str | None:
        return self.names.get(node_id)

    def node_names(self, node_ids: Iterable[str]) -> dict[str, str]:
        return {n: self.names[n] for n in node_ids if n in self.names}

    def node_kind(self, node_id: str) -> str | None:
        return node_id.split("::")[0] if node_id in NODES else None

    def node_description(self, node_id: str) -> str | None:
        return DESCRIPTIONS.get(node_id)

    def embed(self) -> None:
        return None

    def speller(self, words: Iterable[str]) -> None:
        return None

    def directions(self) -> None:
        return None

    def aliases(self, key: str) -> list[tuple[str, bool, str]]:
        """Exact alias hits for a normalised key (what the memory's statement linker reads)."""
        nid = ALIASES.get(key)
        return [(nid, True, "fake")] if nid else []

    def alias_entries(self) -> list[AliasEntry]:
        """Every alias with its node (what ``--inline`` completes names from)."""
        return [
            AliasEntry(
                alias_key(alias),
                NODES[nid] if alias == NODES[nid].lower() else alias.capitalize(),
                nid,
                NODES[nid],
                nid.split("::")[0],
                alias == NODES[nid].lower(),
            )
            for alias, nid in ALIASES.items()
        ]

    def triples(self, node_id: str, rel: str | None = None, limit: int = 50) -> list[Triple]:
        hits = [t for t in TRIPLES if node_id in (t[0], t[2]) and (rel is None or t[1] == rel)]
        return sorted(hits, key=lambda t: (t[1], t[0], t[2]))[:limit]

    def dense_search(self, text: str, k: int = 10) -> list[Evidence]:
        words = set(re.findall(r"\w+", text.lower()))
        scored = []
        for pid, body in PASSAGES.items():
            overlap = len(words & set(re.findall(r"\w+", body.lower())))
            scored.append(
                Evidence(kind="passage", id=pid, text=body, score=overlap / 10, source="pubmedqa")
            )
        return sorted(scored, key=lambda e: -e.score)[:k]

    def close(self) -> None:
        self.closed = True


def treatments(question: str, linked: list[LinkedEntity], options: Mapping[str, Any]) -> Result:
    """The compounds that treat the first disease named in the question (``CtD`` triples)."""
    diseases = [e for e in linked if e.kind == "Disease"]
    if not diseases:
        return Result(
            question=question,
            status=Status.NOT_ANSWERED,
            linked=linked,
            text="No disease recognised.",
        )
    hits = [t for t in TRIPLES if t[1] == "CtD" and t[2] == diseases[0].id]
    return Result(
        question=question,
        status=Status.ANSWERED if hits else Status.NOT_ANSWERED,
        answers=[Answer(id=s, name=NODES[s], score=0.9) for s, _, _ in hits],
        evidence=[Evidence(kind="triple", triple=t, score=0.9) for t in hits],
        paths=[[t] for t in hits],
        linked=linked,
        mode=options.get("mode") or "hybrid",
        text=f"{len(hits)} treatment(s) found.",
        trace_id="0" * 32,
    )


def make_engine(settings: Settings) -> FakeEngine:
    return FakeEngine(settings)
