"""End to end on real stores ingested from a slice of the shipped data."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from engine.events import StepEvent
from engine.result import Status
from engine.understand.mentions import Candidate, synonyms, tokenize

pytestmark = pytest.mark.integration


def test_treats_question_returns_ctd_evidence(helix) -> None:
    events: list[StepEvent] = []
    r = helix.ask("What drugs treat Alzheimer's disease?", on_event=events.append)
    assert r.status is Status.ANSWERED
    ids = [a.id for a in r.answers]
    assert "Compound::DB00843" in ids  # donepezil
    triples = r.triples()
    assert ("Compound::DB00843", "CtD", "Disease::DOID:10652") in triples
    # a therapy question is walked along treats and palliates, treats first
    assert all(t[1] in {"CtD", "CpD"} and t[2] == "Disease::DOID:10652" for t in triples)
    assert r.paths and r.paths[0][0][1] == "CtD"
    assert "disease-modifying (treats)" in r.text
    assert "Donepezil" in r.text
    steps = {e.step for e in events}
    assert {"plan", "predict_edges", "walk", "review", "fuse", "explain"} <= steps
    assert r.stop_reason == "answered"
    assert set(r.timings) >= {"plan", "walk", "review"}


def test_synonym_and_brand_names_link(helix) -> None:
    r = helix.ask("Which drugs palliate paralysis agitans?")
    assert r.status is Status.ANSWERED
    assert r.linked[0].id == "Disease::DOID:14330"
    assert all(t[1] == "CpD" for t in r.triples())


def test_a_brand_spelled_as_an_everyday_word_is_the_word_unless_capitalised(helix) -> None:
    """DrugBank lists "Epoch" and "Renewal" as brands of one drug; in lower case they are
    the words. A brand that is no everyday word links however it is written."""
    planner = helix.c.planner
    lower = planner.link("Does renewal of the prescription matter in Alzheimer's disease?")
    assert [m.node_ids for m in lower.mentions] == [["Disease::DOID:10652"]]
    capital = planner.link("What does Epoch treat?")
    assert "Compound::DB00936" in capital.mentions[0].node_ids
    assert planner.link("what does aricept treat").mentions[0].node_ids == ["Compound::DB00843"]


def test_an_everyday_looking_alias_that_means_its_node_links_in_lower_case(
    helix, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A word common in the corpus ("autism", "alcohol") links in lower case when it is its
    node's other name, judged by meaning; a brand spelled as a word ("comfort") does not."""
    pairs = [
        ("autism", "Disease::DOID:12849", "autistic disorder"),
        ("alcohol", "Compound::DB00898", "Ethanol"),
        ("comfort", "Compound::DB00898", "Ethanol"),
        ("care", "Compound::DB00898", "Ethanol"),
    ]
    meant = synonyms(pairs, helix.c.embedder.encode)
    assert meant == {("autism", "Disease::DOID:12849"), ("alcohol", "Compound::DB00898")}
    aliases = helix.c.planner.linker.aliases
    monkeypatch.setattr(aliases, "common", frozenset({"autism", "comfort"}))
    monkeypatch.setattr(aliases, "meant", meant)
    autism = Candidate("Disease::DOID:12849", "autism", "disease-ontology", False)
    comfort = Candidate("Compound::DB00898", "comfort", "drugbank", False)
    assert aliases.plausible([autism], tokenize("autism")[0], 3) == [autism]
    assert aliases.plausible([comfort], tokenize("comfort")[0], 3) == []


def test_a_name_where_the_verb_of_a_kind_nouns_clause_stands_is_the_verb(helix) -> None:
    """The word "pain" after "drugs that" is what the drugs do, not the symptom Pain (as
    "fall" in "medicines that fall into class X" is no side effect); as the object of a verb it is
    the symptom."""
    planner = helix.c.planner
    verb = planner.link("Which drugs that pain patients are Biguanides?")
    kinds = {n.split("::")[0] for m in verb.mentions for n in m.node_ids}
    assert kinds == {"Pharmacologic Class"}
    noun = planner.link("Which drugs relieve pain?")
    assert any(n.startswith("Symptom::") for m in noun.mentions for n in m.node_ids)


def test_multi_hop_paths_follow_the_question(helix) -> None:
    r = helix.ask("Which genes are targeted by drugs that treat Alzheimer's disease?")
    assert r.status is Status.ANSWERED
    assert r.paths
    for path in r.paths:
        assert [t[1] for t in path] == ["CtD", "CbG"]
        assert path[0][2] == "Disease::DOID:10652"


def test_negative_claim_gets_no_support(helix) -> None:
    r = helix.ask("Does Memantine treat asthma?")
    assert r.status is Status.NOT_ANSWERED
    assert r.triples() == []
    # a drug the graph records as relieving the disease: a yes for its symptoms, said so
    relief = helix.ask("Does Memantine treat Parkinson's disease?")
    assert relief.status is Status.ANSWERED
    assert relief.triples() == [("Compound::DB01043", "CpD", "Disease::DOID:14330")]
    assert "palliates" in relief.text
    yes = helix.ask("Does Donepezil treat Alzheimer's disease?")
    assert yes.status is Status.ANSWERED
    assert yes.triples() == [("Compound::DB00843", "CtD", "Disease::DOID:10652")]


def test_ambiguous_symbol_asks_back_and_choice_resumes(helix) -> None:
    r = helix.ask("What is known about NEP?")
    assert r.status is Status.NEEDS_CLARIFICATION
    assert {c.id for c in r.candidates} == {"Gene::4311", "Gene::780"}
    assert "NEP" in (r.clarification or "")
    again = helix.ask("What is known about NEP?", choice="Gene::4311")
    assert again.status is not Status.NEEDS_CLARIFICATION
    assert again.linked[0].id == "Gene::4311"


def test_unknown_entity_is_not_answered(helix) -> None:
    for q in (
        "What is emapalumab used for?",
        "Which drugs treat mpox?",
        "What are the symptoms of idiopathic hypersomnia?",
    ):
        r = helix.ask(q)
        assert r.status is Status.NOT_ANSWERED, q
        assert r.answers == [] and r.triples() == []


def _digest(home: Path) -> str:
    h = hashlib.sha256()
    for p in sorted((home / "stores").glob("*")):
        if p.suffix in {".duckdb", ".faiss"}:
            h.update(p.read_bytes())
    return h.hexdigest()


@pytest.mark.parametrize(
    "question, fragment",
    [
        ("", "empty"),
        ("   \n ", "empty"),
        ("x" * 100_000, "limit"),
        ("\x00\x01\x02binary\xff\xfe" * 20, "binary"),
        ("What drugs treat '; DROP TABLE triples; -- \" disease?", ""),
    ],
)
def test_bad_input_is_refused_clearly_and_stores_untouched(
    helix, small_home, question, fragment
) -> None:
    before = _digest(small_home)
    r = helix.ask(question)
    assert r.status is Status.NOT_ANSWERED
    assert fragment in r.text.lower()
    assert r.text
    assert _digest(small_home) == before
    assert helix.ask("What drugs treat Alzheimer's disease?").status is Status.ANSWERED


def test_dense_outage_degrades_to_graph_only(helix, monkeypatch) -> None:
    def broken(*args, **kwargs):
        raise RuntimeError("index offline")

    monkeypatch.setattr(helix.c.passages, "search", broken)
    r = helix.ask("What drugs treat Alzheimer's disease?")
    assert r.status is Status.ANSWERED
    assert any(d.startswith("dense:") for d in r.degraded)
    assert not [e for e in r.evidence if e.kind == "passage"]


def test_modes_graph_and_dense(helix) -> None:
    g = helix.ask("What drugs treat Alzheimer's disease?", mode="graph")
    assert g.status is Status.ANSWERED and not [e for e in g.evidence if e.kind == "passage"]
    d = helix.ask("What drugs treat Alzheimer's disease?", mode="dense")
    assert d.mode == "dense" and d.status is Status.ANSWERED
    assert any(e.kind == "triple" for e in d.evidence)


def test_contract_shape(helix) -> None:
    data = helix.ask("What drugs treat Alzheimer's disease?", qid="q-1").to_contract()
    assert data["id"] == "q-1"
    for key in ("status", "answers", "evidence", "paths", "clarification", "latency_ms"):
        assert key in data
    assert data["evidence"][0]["kind"] in {"triple", "passage"}
    assert isinstance(data["paths"][0][0], list) and len(data["paths"][0][0]) == 3


def test_mechanism_paths_follow_rephetio_metapaths(helix) -> None:
    mechanisms = helix.c.planner.mechanisms
    assert mechanisms, "ingest stores Rephetio's metapaths"
    allowed = {tuple(u.rel for u in mp.uses) for mp, _ in mechanisms}
    r = helix.ask("How might Donepezil work against Alzheimer's disease?")
    assert r.status is Status.ANSWERED and r.intent == "mechanism"
    assert r.paths
    # the answers are what the drug acts through: the node each path passes after the drug
    through = {({t[0], t[2]} - {"Compound::DB00843"}).pop() for t in (p[0] for p in r.paths)}
    assert through <= {a.id for a in r.answers}
    assert "Disease::DOID:10652" not in through
    assert r.text.startswith("**Donepezil may act on Alzheimer's disease through**")
    for path in r.paths:
        assert tuple(t[1] for t in path) in allowed
        assert path != [("Compound::DB00843", "CtD", "Disease::DOID:10652")]
        nodes = {n for t in path for n in (t[0], t[2])}
        assert {"Compound::DB00843", "Disease::DOID:10652"} <= nodes


def test_an_open_engine_keeps_blas_to_one_thread(helix) -> None:
    """numpy's BLAS threads would spin beside torch's and slow every question embedding."""
    from threadpoolctl import threadpool_info

    blas = [p for p in threadpool_info() if p["user_api"] == "blas"]
    assert blas and all(p["num_threads"] == 1 for p in blas)


def test_the_engine_parts_are_built_whole(helix) -> None:
    """Opening builds every part complete: the linker with the settings' thresholds and the
    words that say what is asked (the bank's and the data's), the planner with its speller,
    the local model when no endpoint is configured, the fusion the settings choose."""
    from engine.providers.llm import LocalModel
    from engine.ranking.presets import Fusion

    settings, planner = helix.settings, helix.c.planner
    linker = planner.linker
    assert (linker.fuzzy_accept, linker.embed_accept, linker.embed_reject) == (
        settings.fuzzy_accept,
        settings.embed_accept,
        settings.embed_reject,
    )
    assert planner.data.words <= linker.relation_words
    assert planner.semantic.bank.relation_words() <= linker.relation_words
    assert linker.vocabulary is not None and planner.speller is not None
    assert isinstance(helix.c.llm, LocalModel)
    assert helix.c.fusion == Fusion.of(settings)
