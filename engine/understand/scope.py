"""Questions the sources cannot answer, read by meaning.

The graph holds drugs, diseases, genes and how they relate, and the passages are study
abstracts: doses, half-lives, drug-drug interactions, trials, guidelines, prices, pregnancy
safety, reference ranges and survival figures are in neither. A question is read against
example wordings of those topics (``scope.yaml``, kept as data like the relation bank) and
against the bank's own wordings of what the sources do hold; it is out of scope when a topic
is clearly nearer than anything the sources hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from engine.providers.embedder.base import Embedder
from engine.understand.semantic import cached_vectors
from engine.util.yamltext import safe_load

TOPIC_FLOOR = 0.65
"""A topic counts only when its nearest wordings are at least this similar (cosine): below,
the question is about something else altogether. On the dev question files (1,376 questions
the sources answer) no question reaches it; at 0.55, three literature questions did."""

TOPIC_MARGIN = 0.0
"""...and no less similar than the nearest wordings of what the sources hold: a question about
a drug's targets that mentions its dose stays a graph question."""

TOP_WORDINGS = 2
"""A topic's (or the bank's) score is the mean of its best this-many wording cosines."""


@dataclass(frozen=True)
class Topic:
    id: str
    says: str
    """How the answer names it ("doses and dosing schedules")."""
    wordings: tuple[str, ...]


@dataclass(frozen=True)
class ScopeReading:
    topic: Topic
    score: float
    """Mean cosine of the topic's best wordings."""
    held: float
    """The same for the nearest wordings of what the sources hold."""


def parse_topics(text: str) -> tuple[Topic, ...]:
    data = safe_load(text) or {}
    out: list[Topic] = []
    for tid, body in (data.get("topics") or {}).items():
        if not isinstance(body, dict):
            continue
        wordings = tuple(str(w).strip() for w in body.get("wordings") or () if str(w).strip())
        if wordings:
            out.append(Topic(str(tid), str(body.get("says", tid)), wordings))
    return tuple(out)


@lru_cache(maxsize=1)
def packaged_topics() -> tuple[Topic, ...]:
    return parse_topics(
        resources.files("engine.understand").joinpath("scope.yaml").read_text(encoding="utf-8")
    )


def load_topics(path: Path | None = None) -> tuple[Topic, ...]:
    return parse_topics(path.read_text(encoding="utf-8")) if path else packaged_topics()


def _top_mean(sims: np.ndarray) -> float:
    if sims.size == 0:
        return -1.0
    k = min(TOP_WORDINGS, sims.size)
    return float(np.sort(sims)[-k:].mean())


class ScopeReader:
    """Reads whether a masked question ("What dose of [Compound] ...?") asks for a topic the
    sources do not hold. ``held`` are the vectors of the bank's wordings (what they do hold)."""

    def __init__(
        self,
        embedder: Embedder,
        held: np.ndarray,
        topics: tuple[Topic, ...] | None = None,
        floor: float = TOPIC_FLOOR,
        margin: float = TOPIC_MARGIN,
        cache_dir: Path | None = None,
    ) -> None:
        """``cache_dir`` keeps the topics' vectors between starts (``cached_vectors``)."""
        self.embedder = embedder
        self.topics = topics if topics is not None else packaged_topics()
        self.held = np.asarray(held, dtype=np.float32)
        texts = [w for t in self.topics for w in t.wordings]
        self.rows = np.asarray([i for i, t in enumerate(self.topics) for _ in t.wordings])
        self.matrix = cached_vectors(embedder, texts, cache_dir)
        self.floor = floor
        self.margin = margin

    def read(self, masked_question: str) -> ScopeReading | None:
        """The topic the question asks for, when the sources hold none of it; else None."""
        if not self.topics or not masked_question.strip():
            return None
        vec = np.asarray(self.embedder.encode([masked_question]), dtype=np.float32)[0]
        return self.read_vector(vec)

    def read_vector(self, vec: np.ndarray) -> ScopeReading | None:
        sims = self.matrix @ vec
        scores = [_top_mean(sims[self.rows == i]) for i in range(len(self.topics))]
        best = int(np.argmax(scores))
        held = _top_mean(self.held @ vec) if self.held.size else -1.0
        if scores[best] < self.floor or scores[best] - held < self.margin:
            return None
        return ScopeReading(self.topics[best], scores[best], held)
