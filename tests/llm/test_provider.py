"""LLMProvider against a real loopback HTTP server through the real ``openai`` client."""

from __future__ import annotations

import json
import time

import pytest

import prompts
from engine.config import Settings
from engine.providers.llm import LLMProvider
from engine.providers.llm.cache import LLMCache
from engine.providers.llm.provider import extract_json
from engine.providers.llm.schemas import EdgeScores, ReviewVerdict

EDGE_VARS = {
    "question": "Which drugs treat Alzheimer's disease?",
    "node_name": "Alzheimer's disease",
    "node_kind": "Disease",
    "relations": "- CtD^-1 - treats\n- DaG - associates",
}
GOOD = json.dumps([{"rel": "CtD^-1", "prob": 0.92}, {"rel": "DaG", "prob": 0.1}])


def test_valid_reply_is_validated_and_cached(llm_server, llm_settings):
    llm_server.push(("ok", GOOD))
    provider = LLMProvider(llm_settings)
    first = provider.complete_json("edges", EDGE_VARS, EdgeScores)
    assert first.ok and not first.cached and first.degraded is None
    assert [(e.rel, e.prob) for e in first.value.root] == [("CtD^-1", 0.92), ("DaG", 0.1)]
    second = provider.complete_json("edges", EDGE_VARS, EdgeScores)
    assert second.cached and second.value == first.value
    assert len(llm_server.requests) == 1  # the second call never reached the server
    sent = llm_server.requests[0]
    assert sent["model"] == "scripted-model"
    assert sent["messages"][0]["role"] == "system"
    assert (
        'We are at the node "Alzheimer\'s disease" (kind: Disease)'
        in sent["messages"][1]["content"]
    )
    provider.close()


def test_cache_survives_a_new_provider_and_is_keyed_by_model(llm_server, llm_settings):
    llm_server.push(("ok", GOOD), ("ok", GOOD))
    LLMProvider(llm_settings).complete_json("edges", EDGE_VARS, EdgeScores)
    again = LLMProvider(llm_settings).complete_json("edges", EDGE_VARS, EdgeScores)
    assert again.cached
    other = llm_settings.model_copy(update={"llm_model": "another-model"})
    third = LLMProvider(other).complete_json("edges", EDGE_VARS, EdgeScores)
    assert third.ok and not third.cached
    assert len(llm_server.requests) == 2
    assert len(LLMCache(llm_settings.home / "cache" / "llm.sqlite")) == 2


def test_garbage_json_retries_then_degrades(llm_server, llm_settings):
    llm_server.push(("ok", "Sure! Here are the relations: CtD, DaG"), ("ok", "{not json"))
    outcome = LLMProvider(llm_settings).complete_json("edges", EDGE_VARS, EdgeScores)
    assert outcome.value is None
    assert outcome.degraded == "llm:edges:bad-json"
    assert outcome.attempts == 2 == len(llm_server.requests)


def test_out_of_range_probability_is_a_schema_failure(llm_server, llm_settings):
    bad = json.dumps([{"rel": "CtD^-1", "prob": 1.7}])
    llm_server.push(("ok", bad), ("ok", bad))
    outcome = LLMProvider(llm_settings).complete_json("edges", EDGE_VARS, EdgeScores)
    assert outcome.degraded == "llm:edges:bad-schema"


def test_http_500_then_success(llm_server, llm_settings):
    llm_server.push(("status", 500), ("ok", GOOD))
    outcome = LLMProvider(llm_settings).complete_json("edges", EDGE_VARS, EdgeScores)
    assert outcome.ok and outcome.attempts == 2


def test_http_500_twice_degrades(llm_server, llm_settings):
    llm_server.push(("status", 500), ("status", 500), ("ok", GOOD))
    outcome = LLMProvider(llm_settings).complete_json("edges", EDGE_VARS, EdgeScores)
    assert outcome.degraded == "llm:edges:http-500"
    assert len(llm_server.requests) == 2  # bounded by llm_retries=1


def test_client_errors_are_not_retried(llm_server, llm_settings):
    llm_server.push(("status", 400), ("ok", GOOD))
    outcome = LLMProvider(llm_settings).complete_json("edges", EDGE_VARS, EdgeScores)
    assert outcome.degraded == "llm:edges:http-400"
    assert len(llm_server.requests) == 1


def test_a_hang_times_out_inside_the_budget(llm_server, llm_settings):
    llm_server.push(("hang", 5.0), ("hang", 5.0))
    started = time.monotonic()
    outcome = LLMProvider(llm_settings).complete_json("edges", EDGE_VARS, EdgeScores, timeout=0.4)
    elapsed = time.monotonic() - started
    assert outcome.degraded == "llm:edges:timeout"
    assert elapsed < 1.5  # the whole call, retries included, stays near its budget


def test_unreachable_endpoint_is_a_connection_failure(tmp_path):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = Settings(
        home=tmp_path, llm_base_url=f"http://127.0.0.1:{port}/v1", llm_model="m", llm_retries=0
    )
    outcome = LLMProvider(settings).complete_json("edges", EDGE_VARS, EdgeScores, timeout=1.0)
    assert outcome.degraded == "llm:edges:connection"


def test_non_json_http_body_degrades(llm_server, llm_settings):
    llm_server.push(("raw", b"<html>gateway</html>"), ("raw", b"<html>gateway</html>"))
    outcome = LLMProvider(llm_settings).complete_json("edges", EDGE_VARS, EdgeScores)
    assert outcome.value is None and outcome.degraded is not None
    assert outcome.degraded.startswith("llm:edges:")


def test_disabled_feature_makes_no_call_and_no_degradation(llm_server, llm_settings):
    settings = llm_settings.model_copy(update={"llm_features": "review"})
    outcome = LLMProvider(settings).complete_json("edges", EDGE_VARS, EdgeScores)
    assert outcome.value is None and outcome.degraded is None
    assert llm_server.requests == []


def test_no_endpoint_means_disabled(tmp_path):
    outcome = LLMProvider(Settings(home=tmp_path)).complete_json("edges", EDGE_VARS, EdgeScores)
    assert outcome.value is None and outcome.degraded is None


def test_missing_variable_is_a_loud_programming_error(tmp_path):
    provider = LLMProvider(Settings(home=tmp_path))  # even with the LLM off
    with pytest.raises(prompts.PromptError, match="missing variables"):
        provider.complete_json("edges", {"question": "q"}, EdgeScores)


def test_wrong_schema_for_the_prompt_is_a_loud_error(tmp_path):
    with pytest.raises(prompts.PromptError, match="declares response"):
        LLMProvider(Settings(home=tmp_path)).complete_json("edges", EDGE_VARS, ReviewVerdict)


def test_code_fenced_and_wrapped_replies_are_accepted(llm_server, llm_settings):
    fenced = "```json\n" + json.dumps({"edges": [{"rel": "CtD^-1", "prob": 0.5}]}) + "\n```"
    llm_server.push(("ok", fenced))
    outcome = LLMProvider(llm_settings).complete_json("edges", EDGE_VARS, EdgeScores)
    assert outcome.ok and outcome.value.root[0].rel == "CtD^-1"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[{"a": 1}]', [{"a": 1}]),
        ('Answer: {"a": 1} hope this helps', {"a": 1}),
        ("```\n[1, 2]\n```", [1, 2]),
    ],
)
def test_extract_json(text, expected):
    assert extract_json(text) == expected


def test_extract_json_rejects_prose():
    with pytest.raises(ValueError):
        extract_json("no json here")


@pytest.mark.parametrize("name", ["edges", "clarify", "extract", "review", "explain_llm"])
def test_every_prompt_declares_a_known_schema_and_feature(name):
    from engine.providers.llm.schemas import RESPONSE_SCHEMAS

    prompt = prompts.load(name)
    assert prompt.meta["response"] in RESPONSE_SCHEMAS
    assert prompt.meta["feature"] in {"edges", "clarify", "extract", "review", "explain"}
    rendered = prompt.render(**{v: f"<{v}>" for v in prompt.variables})
    assert all(f"<{v}>" in rendered for v in prompt.variables)
