"""Optional LLM provider over any OpenAI-compatible endpoint (off unless configured).

``LLMProvider.complete_json(prompt, variables, schema)`` is the one call; ``adapters`` holds the
engine-facing functions (edge scores, clarification, fact extraction, review, explanation).
"""

from engine.providers.llm.base import ChatBackend, LLMCallError, LLMOutcome
from engine.providers.llm.provider import LLMProvider

__all__ = ["ChatBackend", "LLMCallError", "LLMOutcome", "LLMProvider"]
