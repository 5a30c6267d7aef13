"""The local pipeline as a model: every call is "no opinion", asked like an endpoint."""

from __future__ import annotations

from typing import Any

import pytest

import prompts
from engine.agent.llm_adapters import llm_clarify, llm_edge_scores, llm_explain, llm_review
from engine.agent.llm_hooks import LLMSession
from engine.config import Settings
from engine.providers.llm import LanguageModel, LLMProvider, LocalModel, language_model
from engine.providers.llm.schemas import EdgeScores, ReviewVerdict
from engine.result import Candidate, Result, Status

EDGE_VARS = {"question": "q", "node_name": "n", "node_kind": "Disease", "relations": "- CtD"}


def test_the_settings_choose_the_model(tmp_path: Any, llm_settings: Settings) -> None:
    assert isinstance(language_model(Settings(home=tmp_path)), LocalModel)
    assert isinstance(language_model(llm_settings), LLMProvider)
    half = Settings(home=tmp_path, llm_base_url="http://127.0.0.1:9/v1")  # no model named
    assert isinstance(language_model(half), LocalModel)


def test_local_calls_have_no_opinion_and_no_degradation() -> None:
    local: LanguageModel = LocalModel()
    assert not any(local.enabled(f) for f in ("edges", "clarify", "extract", "review", "explain"))
    outcome = local.complete_json("edges", EDGE_VARS, EdgeScores)
    assert outcome.feature == "edges" and outcome.value is None and outcome.degraded is None
    local.close()


def test_local_calls_check_the_prompt_like_an_endpoint() -> None:
    with pytest.raises(prompts.PromptError, match="missing variables"):
        LocalModel().complete_json("edges", {"question": "q"}, EdgeScores)
    with pytest.raises(prompts.PromptError, match="declares response"):
        LocalModel().complete_json("edges", EDGE_VARS, ReviewVerdict)


def test_adapters_over_the_local_model_leave_the_decision_local() -> None:
    local = LocalModel()
    result = Result(status=Status.ANSWERED)
    cands = [Candidate(id="Gene::1", name="IL6", kind="Gene")]
    assert llm_edge_scores(local, "q", "n", "Disease", [("CtD^-1", "treats")]) == (None, None)
    assert llm_clarify(local, "q", "IL6", cands) == (None, None)
    assert llm_review(local, "q", result) == (None, None)
    assert llm_explain(local, "q", result) == (None, None)


def test_a_session_over_the_local_model_records_nothing(tmp_path: Any) -> None:
    result = Result(status=Status.NOT_ANSWERED)
    session = LLMSession(LocalModel(), Settings(home=tmp_path), result)
    assert not session.enabled("edges")
    assert session.edge_dist("q", "n", "Disease", []) is None
    assert session.clarify("q", "IL6", []) is None
    assert session.review("q", lambda _: None) is None
    assert session.explain("q", lambda _: None) is None
    assert result.degraded == []
