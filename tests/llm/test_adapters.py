"""The engine-facing adapters: each checks the LLM's reply against what it was offered."""

from __future__ import annotations

import json

from engine.agent.llm_adapters import (
    llm_clarify,
    llm_edge_scores,
    llm_explain,
    llm_extract_fact,
    llm_review,
    render_evidence,
)
from engine.providers.llm import LLMProvider
from engine.result import Answer, Candidate, Evidence, LinkedEntity, Result, Status

RELS = [("CtD^-1", "Compound treats Disease (drugs that treat)"), ("DaG", "genes associated")]
ALZ = "Disease::DOID:10652"
DONEPEZIL = "Compound::DB00843"


def _result() -> Result:
    return Result(
        status=Status.ANSWERED,
        answers=[Answer(id=DONEPEZIL, name="Donepezil", score=0.9)],
        evidence=[
            Evidence(kind="triple", triple=(DONEPEZIL, "CtD", ALZ), score=0.9),
            Evidence(
                kind="passage", id="pubmedqa:1:0", text="Donepezil  improves\ncognition.", score=0.4
            ),
        ],
    )


NAMES = {DONEPEZIL: "Donepezil", ALZ: "Alzheimer's disease"}


def test_edge_scores_keep_only_offered_relations(llm_server, llm_settings):
    reply = [
        {"rel": "ctd^-1", "prob": 0.8},
        {"rel": "XyZ", "prob": 0.9},
        {"rel": "DaG", "prob": 0.2},
    ]
    llm_server.push(("ok", json.dumps(reply)))
    scores, degraded = llm_edge_scores(
        LLMProvider(llm_settings), "drugs for AD?", "Alzheimer's disease", "Disease", RELS
    )
    assert degraded is None
    assert scores == {"CtD^-1": 0.8, "DaG": 0.2}
    prompt = llm_server.requests[0]["messages"][1]["content"]
    assert "- CtD^-1 - Compound treats Disease (drugs that treat)" in prompt


def test_edge_scores_with_only_invented_relations_degrade(llm_server, llm_settings):
    llm_server.push(("ok", json.dumps([{"rel": "TREATS", "prob": 0.9}])))
    scores, degraded = llm_edge_scores(LLMProvider(llm_settings), "q", "n", "Disease", RELS)
    assert scores is None and degraded == "llm:edges:no-rel"


def test_edge_scores_pass_through_transport_failures(llm_server, llm_settings):
    llm_server.push(("status", 502), ("status", 502))
    scores, degraded = llm_edge_scores(LLMProvider(llm_settings), "q", "n", "Disease", RELS)
    assert scores is None and degraded == "llm:edges:http-502"


CANDS = [
    Candidate(id="Gene::3569", name="IL6", kind="Gene"),
    Candidate(id="Compound::DB06273", name="Tocilizumab", kind="Compound", detail="anti-IL6R"),
]


def test_clarify_ambiguous_with_options(llm_server, llm_settings):
    llm_server.push(
        (
            "ok",
            json.dumps(
                {
                    "ambiguous": True,
                    "question": "The gene IL6 or the drug?",
                    "options": ["Gene::3569"],
                }
            ),
        )
    )
    decision, degraded = llm_clarify(LLMProvider(llm_settings), "what about IL6?", "IL6", CANDS)
    assert degraded is None and decision is not None
    assert decision.ambiguous and decision.options == ["Gene::3569"]
    assert (
        "Compound::DB06273 | Tocilizumab | Compound | anti-IL6R"
        in (llm_server.requests[0]["messages"][1]["content"])
    )


def test_clarify_rejects_an_id_not_offered(llm_server, llm_settings):
    llm_server.push(("ok", json.dumps({"ambiguous": False, "choice": "Gene::1"})))
    decision, degraded = llm_clarify(LLMProvider(llm_settings), "q", "IL6", CANDS)
    assert decision is None and degraded == "llm:clarify:bad-id"


def test_clarify_ambiguous_without_question_is_a_schema_failure(llm_server, llm_settings):
    llm_server.push(("ok", '{"ambiguous": true}'), ("ok", '{"ambiguous": true}'))
    decision, degraded = llm_clarify(LLMProvider(llm_settings), "q", "IL6", CANDS)
    assert decision is None and degraded == "llm:clarify:bad-schema"


MEM_RELS = [("takes", "patient -> Compound"), ("has_allergy", "patient -> Compound, literal")]
METFORMIN, SITAGLIPTIN = "Compound::DB00331", "Compound::DB01261"
LINKED = [
    LinkedEntity(
        mention="metformin",
        id=METFORMIN,
        name="Metformin",
        kind="Compound",
        score=1,
        method="exact",
    ),
    LinkedEntity(
        mention="sitagliptin",
        id=SITAGLIPTIN,
        name="Sitagliptin",
        kind="Compound",
        score=1,
        method="exact",
    ),
]


def test_extract_a_superseding_fact(llm_server, llm_settings):
    known = [("patient:4471", "takes", METFORMIN)]
    llm_server.push(
        (
            "ok",
            json.dumps(
                {
                    "subj": "patient:4471",
                    "rel": "takes",
                    "obj": SITAGLIPTIN,
                    "supersedes": ["patient:4471", "takes", METFORMIN],
                }
            ),
        )
    )
    fact, degraded = llm_extract_fact(
        LLMProvider(llm_settings),
        "Switched MRN 4471 from metformin to sitagliptin.",
        MEM_RELS,
        LINKED,
        known,
    )
    assert degraded is None and fact is not None
    assert (fact.subj, fact.rel, fact.obj) == ("patient:4471", "takes", SITAGLIPTIN)
    assert fact.supersedes == ("patient:4471", "takes", METFORMIN)


def test_extract_rejects_an_invented_supersession(llm_server, llm_settings):
    llm_server.push(
        (
            "ok",
            json.dumps(
                {
                    "subj": "patient:4471",
                    "rel": "takes",
                    "obj": SITAGLIPTIN,
                    "supersedes": ["patient:4471", "takes", "Compound::DB00001"],
                }
            ),
        )
    )
    fact, degraded = llm_extract_fact(LLMProvider(llm_settings), "...", MEM_RELS, LINKED, [])
    assert fact is None and degraded == "llm:extract:bad-supersedes"


def test_extract_rejects_an_unlinked_kg_id_and_unknown_relation(llm_server, llm_settings):
    llm_server.push(
        ("ok", json.dumps({"subj": "patient:1", "rel": "takes", "obj": "Compound::DB99999"})),
        ("ok", json.dumps({"subj": "patient:1", "rel": "likes", "obj": METFORMIN})),
    )
    provider = LLMProvider(llm_settings)
    assert llm_extract_fact(provider, "a", MEM_RELS, LINKED)[1] == "llm:extract:bad-id"
    assert llm_extract_fact(provider, "b", MEM_RELS, LINKED)[1] == "llm:extract:bad-rel"


def test_extract_no_fact(llm_server, llm_settings):
    llm_server.push(("ok", '{"subj": null, "rel": null, "obj": null, "supersedes": null}'))
    fact, degraded = llm_extract_fact(LLMProvider(llm_settings), "hello there", MEM_RELS, [])
    assert degraded is None and fact is not None and fact.empty


def test_review_yes_no(llm_server, llm_settings):
    llm_server.push(("ok", '{"supported": "yes", "confidence": 0.8, "reason": "direct CtD"}'))
    verdict, degraded = llm_review(
        LLMProvider(llm_settings), "Does donepezil treat AD?", _result(), name_of=NAMES.get
    )
    assert degraded is None and verdict is not None and verdict.supported
    shown = llm_server.requests[0]["messages"][1]["content"]
    assert "[1] Donepezil (Compound::DB00843) -treats (CtD)-> Alzheimer's disease" in shown
    assert "[2] passage pubmedqa:1:0: Donepezil improves cognition." in shown


def test_explain_checks_citations(llm_server, llm_settings):
    llm_server.push(
        ("ok", json.dumps({"text": "Donepezil treats Alzheimer's disease [1].", "cites": [1]})),
        ("ok", json.dumps({"text": "It also cures everything [7].", "cites": []})),
    )
    provider = LLMProvider(llm_settings)
    text, degraded = llm_explain(provider, "drugs for AD?", _result())
    assert degraded is None and text == "Donepezil treats Alzheimer's disease [1]."
    text, degraded = llm_explain(provider, "drugs for AD, again?", _result())
    assert text is None and degraded == "llm:explain:bad-cite"


def test_adapters_are_silent_when_disabled(tmp_path):
    from engine.config import Settings

    provider = LLMProvider(Settings(home=tmp_path))
    assert llm_edge_scores(provider, "q", "n", "Disease", RELS) == (None, None)
    assert llm_review(provider, "q", _result()) == (None, None)


def test_render_evidence_without_names():
    assert render_evidence(Result(status=Status.NOT_ANSWERED)) == "(no evidence)"
    assert render_evidence(_result()).startswith(f"[1] {DONEPEZIL} -treats (CtD)-> {ALZ}")
