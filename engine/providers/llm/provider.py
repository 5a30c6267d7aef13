"""The one high-level LLM call: prompt by name -> validated pydantic object, or a fallback signal.

Every call renders its prompt file (a missing variable raises ``PromptError``: a programming
error, not a degradation), then - when the feature is enabled - consults the cache, calls the
backend inside a time budget with bounded retries, parses and validates the reply. Any failure
ends in ``LLMOutcome(value=None, degraded="llm:<feature>:<kind>")``: the caller falls back to
its local provider and records the reason. Nothing here raises on a bad endpoint.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

import prompts
from engine.config import Settings
from engine.providers.llm.base import ChatBackend, ChatMessage, LLMCallError, LLMOutcome, T
from engine.providers.llm.cache import LLMCache, cache_key
from engine.providers.llm.schemas import RESPONSE_SCHEMAS

log = logging.getLogger(__name__)

DEFAULT_SYSTEM = (
    "You are a careful biomedical assistant inside a knowledge-graph question answering "
    "system. Reply with one JSON value only, no prose, no code fences."
)
MIN_ATTEMPT_S = 0.05
"""An attempt is not started with less time than this left in the budget."""

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


class LLMProvider:
    """LLM calls for the features enabled in ``settings`` (``llm_enabled(feature)``); a
    ``LanguageModel``."""

    def __init__(
        self,
        settings: Settings,
        backend: ChatBackend | None = None,
        cache: LLMCache | None = None,
        *,
        use_cache: bool = True,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.settings = settings
        self._backend = backend
        self._cache = cache
        self._use_cache = use_cache
        self._monotonic = monotonic
        self._sleep = sleep
        self._lock = threading.Lock()

    # --- configuration -----------------------------------------------------------------
    def enabled(self, feature: str) -> bool:
        return self.settings.llm_enabled(feature)

    @property
    def model(self) -> str:
        return self.settings.llm_model or ""

    def backend(self) -> ChatBackend:
        with self._lock:
            return self._backend_locked()

    def _backend_locked(self) -> ChatBackend:
        if self._backend is None:
            from engine.providers.llm.openai_compat import OpenAICompatBackend

            if not (self.settings.llm_base_url and self.settings.llm_model):
                raise RuntimeError("no LLM endpoint configured (llm_base_url, llm_model)")
            self._backend = OpenAICompatBackend(
                self.settings.llm_base_url, self.settings.llm_model, self.settings.llm_api_key
            )
        return self._backend

    def cache(self) -> LLMCache | None:
        with self._lock:
            if self._use_cache and self._cache is None:
                self._cache = LLMCache(self.settings.home / "cache" / "llm.sqlite")
            return self._cache

    # --- the call ----------------------------------------------------------------------
    def complete_json(
        self,
        prompt_name: str,
        variables: Mapping[str, object],
        schema: type[T],
        *,
        timeout: float | None = None,
    ) -> LLMOutcome[T]:
        """Render ``prompts/<prompt_name>.md`` and return the reply validated as ``schema``.

        ``timeout`` is the wall budget of the whole call, retries included (default
        ``settings.llm_timeout_s``); pass what is left of the question's budget.
        """
        prompt, rendered, feature = render(prompt_name, variables, schema)
        if not self.enabled(feature):
            return LLMOutcome(feature=feature)
        system = str(prompt.meta.get("system") or DEFAULT_SYSTEM)
        messages: list[ChatMessage] = [
            {"role": "system", "content": system},
            {"role": "user", "content": rendered},
        ]
        started = self._monotonic()
        key = cache_key(prompt_name, system + "\x00" + rendered, self.model)
        hit = self._cached(key, schema)
        if hit is not None:
            return LLMOutcome(feature=feature, value=hit, cached=True, elapsed_ms=self._ms(started))

        budget = self.settings.llm_timeout_s if timeout is None else timeout
        deadline = started + max(0.0, budget)
        attempts, kind = 0, "timeout"
        for attempt in range(1 + max(0, self.settings.llm_retries)):
            remaining = deadline - self._monotonic()
            if remaining < MIN_ATTEMPT_S:
                break  # out of budget: the reason is the last failure (or "timeout")
            if attempt:
                self._sleep(min(0.05 * 2 ** (attempt - 1), remaining / 4))
                remaining = deadline - self._monotonic()
            attempts += 1
            try:
                text = self.backend().chat(
                    messages, timeout=min(self.settings.llm_timeout_s, remaining)
                )
            except LLMCallError as exc:
                kind = exc.kind
                log.info("llm %s attempt %d failed: %s", feature, attempts, exc)
                if not exc.retryable:
                    break
                continue
            except Exception as exc:  # a backend bug must not crash a question
                kind = "error"
                log.warning("llm %s backend raised %r", feature, exc)
                continue
            value, kind = _parse(text, schema)
            if value is not None:
                cache = self.cache()
                if cache is not None:
                    cache.put(key, prompt_name, self.model, value.model_dump_json())
                return LLMOutcome(
                    feature=feature, value=value, attempts=attempts, elapsed_ms=self._ms(started)
                )
        reason = f"llm:{feature}:{kind}"
        log.warning("llm %s falls back to the local provider (%s)", feature, reason)
        return LLMOutcome(
            feature=feature, degraded=reason, attempts=attempts, elapsed_ms=self._ms(started)
        )

    def close(self) -> None:
        if self._backend is not None:
            self._backend.close()
        if self._cache is not None:
            self._cache.close()

    # --- helpers -----------------------------------------------------------------------
    def _cached(self, key: str, schema: type[T]) -> T | None:
        cache = self.cache()
        raw = cache.get(key) if cache is not None else None
        if raw is None:
            return None
        try:
            return schema.model_validate_json(raw)
        except ValidationError:  # the schema changed since: treat as a miss
            return None

    def _ms(self, started: float) -> float:
        return (self._monotonic() - started) * 1000.0


def render(
    prompt_name: str, variables: Mapping[str, object], schema: type[BaseModel]
) -> tuple[prompts.Prompt, str, str]:
    """``(prompt, rendered text, feature)`` of ``prompts/<prompt_name>.md``; a missing variable
    or a schema the prompt does not declare raises ``PromptError``, whichever model answers."""
    prompt = prompts.load(prompt_name)
    _check_schema(prompt, schema)
    rendered = prompt.render(**variables)
    return prompt, rendered, str(prompt.meta.get("feature") or prompt_name)


def _check_schema(prompt: prompts.Prompt, schema: type[BaseModel]) -> None:
    name = prompt.meta.get("response")
    expected = RESPONSE_SCHEMAS.get(str(name)) if name else None
    if expected is not schema:
        raise prompts.PromptError(
            f"prompt {prompt.name!r} declares response {name!r}, called with {schema.__name__}"
        )


def extract_json(text: str) -> Any:
    """The JSON value in a reply; tolerates code fences and prose around one object/list."""
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    text = text.strip()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    if not starts:
        raise ValueError("no JSON value in the reply")
    value, _ = json.JSONDecoder().raw_decode(text[min(starts) :])
    return value


def _parse(text: str, schema: type[T]) -> tuple[T | None, str]:
    try:
        data = extract_json(text)
    except ValueError:  # JSONDecodeError is a ValueError
        return None, "bad-json"
    try:
        return schema.model_validate(data), ""
    except ValidationError:
        return None, "bad-schema"
