"""The model the engine asks for structured replies (``LanguageModel``): an OpenAI-compatible
endpoint (``LLMProvider``) when one is configured, else the built-in local pipeline
(``LocalModel``, no opinion on anything).

``complete_json(prompt, variables, schema)`` is the one call; ``engine.agent.llm_adapters`` holds
the engine-facing functions (edge scores, clarification, fact extraction, review, explanation).
"""

from engine.config import Settings
from engine.providers.llm.base import ChatBackend, LanguageModel, LLMCallError, LLMOutcome
from engine.providers.llm.local import LocalModel
from engine.providers.llm.provider import LLMProvider


def language_model(settings: Settings) -> LanguageModel:
    """The endpoint of ``settings`` when it names one (base URL and model), else the local
    pipeline."""
    return LLMProvider(settings) if settings.llm_configured else LocalModel()


__all__ = [
    "ChatBackend",
    "LLMCallError",
    "LLMOutcome",
    "LLMProvider",
    "LanguageModel",
    "LocalModel",
    "language_model",
]
