"""The sentences of an article's conclusion that answer the question, for a literature answer."""

from __future__ import annotations

import re

import numpy as np

from engine.providers.embedder.base import Embedder

SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[])")
KEEP = 2
"""Sentences quoted: an abstract's conclusion states its finding in one or two; a third is
most often the usual call for further study."""


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END.split(text.strip()) if s.strip()]


def closest(question: str, parts: list[str], embedder: Embedder, keep: int = KEEP) -> list[int]:
    """Indices of the ``keep`` parts closest in meaning to the question, in text order."""
    vecs = embedder.encode([question, *parts])
    sims = np.asarray(vecs[1:]) @ np.asarray(vecs[0])
    best = sorted(range(len(parts)), key=lambda i: (-float(sims[i]), i))[:keep]
    return sorted(best)


def quote(conclusion: str, question: str, embedder: Embedder | None) -> str:
    """The conclusion's sentences that answer ``question`` (chosen by meaning when an embedder
    is at hand; else its first sentences), joined."""
    parts = sentences(conclusion)
    if len(parts) <= KEEP:
        return " ".join(parts)
    picked = closest(question, parts, embedder) if embedder is not None else list(range(KEEP))
    return " ".join(parts[i] for i in picked)
