"""The LLM interface: the model the engine asks (``LanguageModel``), a chat backend that turns
messages into text, and the outcome of a call.

A backend raises ``LLMCallError`` with a short ``kind`` ("timeout", "http-500", "connection",
...); the provider turns that into a degradation reason ``llm:<feature>:<kind>`` that the
engine records in ``Result.degraded`` before falling back to the local provider.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Generic, Protocol, TypedDict, TypeVar

from pydantic import BaseModel

T = TypeVar("T", bound=BaseModel)


class ChatMessage(TypedDict):
    role: str
    content: str


class LLMCallError(Exception):
    """One failed call to a backend; ``kind`` names the failure for the degradation reason."""

    def __init__(self, kind: str, detail: str = "", *, retryable: bool = True) -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind
        self.detail = detail
        self.retryable = retryable


class ChatBackend(Protocol):
    """Something that answers a list of chat messages with the assistant's text."""

    model: str

    def chat(self, messages: list[ChatMessage], *, timeout: float) -> str:
        """The assistant's reply; raises ``LLMCallError`` on any failure."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class LLMOutcome(Generic[T]):
    """What one high-level call produced.

    ``value`` is the validated object, or None when the caller must use its local provider.
    ``degraded`` is set (``llm:edges:timeout``) when that fallback is due to a failure; it is
    None when the feature is simply not configured (the local provider is then the normal path).
    """

    feature: str
    value: T | None = None
    degraded: str | None = None
    cached: bool = False
    attempts: int = 0
    elapsed_ms: float = 0.0

    @property
    def ok(self) -> bool:
        return self.value is not None

    def attributes(self) -> dict[str, object]:
        """Flat attributes for a step event / span (``llm_cached``, ``llm_attempts``, ...)."""
        attrs: dict[str, object] = {
            "llm_feature": self.feature,
            "llm_ok": self.ok,
            "llm_cached": self.cached,
            "llm_attempts": self.attempts,
            "llm_ms": round(self.elapsed_ms, 2),
        }
        if self.degraded:
            attrs["llm_degraded"] = self.degraded
        return attrs


class LanguageModel(Protocol):
    """What the engine asks for structured replies: ``LLMProvider`` over an endpoint, or
    ``LocalModel``, the built-in pipeline that has no opinion (the engine's local steps decide)."""

    def enabled(self, feature: str) -> bool:
        """Whether calls for ``feature`` (``edges``, ``clarify``...) may give an opinion."""
        ...

    def complete_json(
        self,
        prompt_name: str,
        variables: Mapping[str, object],
        schema: type[T],
        *,
        timeout: float | None = None,
    ) -> LLMOutcome[T]:
        """``prompts/<prompt_name>.md`` rendered with ``variables`` and the reply validated as
        ``schema``; an outcome without a value leaves the decision to the local step."""
        ...

    def close(self) -> None: ...
