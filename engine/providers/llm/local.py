"""The built-in local pipeline as a model: no endpoint, and no opinion on anything.

``LocalModel`` answers every call with an outcome that has neither a value nor a degradation
reason, which is what an endpoint with the feature switched off answers: the engine's own local
steps (the edge predictor, the planner's clarification, the path reviewer, the templated
explanation) decide. It is the model of an engine opened without ``HELIX_LLM_BASE_URL``, the way
httpx's ``MockTransport`` is a transport: a provider in its own right, not a missing one.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.providers.llm.base import LLMOutcome, T
from engine.providers.llm.provider import render


class LocalModel:
    """The no-LLM ``LanguageModel``: every feature off, every call "no opinion"."""

    def enabled(self, feature: str) -> bool:
        return False

    def complete_json(
        self,
        prompt_name: str,
        variables: Mapping[str, object],
        schema: type[T],
        *,
        timeout: float | None = None,
    ) -> LLMOutcome[T]:
        """No opinion; the prompt is still rendered, so a call with the wrong variables fails
        here as it would before an endpoint."""
        _, _, feature = render(prompt_name, variables, schema)
        return LLMOutcome(feature=feature)

    def close(self) -> None:
        return None
