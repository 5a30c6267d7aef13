"""A chat backend over any OpenAI-compatible endpoint (vLLM, llama.cpp, Ollama, OpenAI...).

The ``openai`` client does no retries of its own (``max_retries=0``): retries, the time budget
and the fallback are the provider's business, so that they are counted and bounded in one place.
"""

from __future__ import annotations

from typing import Any

import openai

from engine.providers.llm.base import ChatMessage, LLMCallError

NO_KEY = "not-needed"
"""Sent when no API key is configured: local servers accept anything, the client needs one."""


class OpenAICompatBackend:
    """``POST {base_url}/chat/completions`` through the official client."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        json_mode: bool = False,
        temperature: float = 0.0,
        max_tokens: int = 512,
    ) -> None:
        self.model = model
        self.json_mode = json_mode
        self.temperature = temperature
        self.max_tokens = max_tokens
        self._client = openai.OpenAI(
            base_url=base_url, api_key=api_key or NO_KEY, max_retries=0, timeout=30.0
        )

    def chat(self, messages: list[ChatMessage], *, timeout: float) -> str:
        extra: dict[str, Any] = {}
        if self.json_mode:
            extra["response_format"] = {"type": "json_object"}
        try:
            response = self._client.chat.completions.create(
                model=self.model,
                messages=[{"role": m["role"], "content": m["content"]} for m in messages],  # type: ignore[misc]
                temperature=self.temperature,
                max_tokens=self.max_tokens,
                timeout=timeout,
                **extra,
            )
        except openai.APITimeoutError as exc:
            raise LLMCallError("timeout", str(exc)) from exc
        except openai.APIConnectionError as exc:
            raise LLMCallError("connection", str(exc)) from exc
        except openai.APIStatusError as exc:
            code = exc.status_code
            retryable = code >= 500 or code in (408, 429)
            raise LLMCallError(f"http-{code}", str(exc), retryable=retryable) from exc
        except openai.OpenAIError as exc:
            raise LLMCallError("error", str(exc)) from exc
        if not response.choices:
            raise LLMCallError("empty", "no choices in the reply")
        content = response.choices[0].message.content
        if not content:
            raise LLMCallError("empty", "the reply has no text")
        return content

    def close(self) -> None:
        self._client.close()
