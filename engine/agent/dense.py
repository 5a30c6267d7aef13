"""The dense-only baseline (``mode="dense"``): FAISS over passages and verbalised triples, no
graph walk. An honest comparison point for the hybrid pipeline, not a way of answering.

Built when the engine opens. The verbalised-triple index (``triples.faiss`` under the stores)
is loaded or built by ``prepare``: at construction (``eager``) for an engine opened for dense
questions (``Helix.open(..., modes=...)``), else on the first dense question.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
from rapidfuzz import fuzz

from engine.agent.evidence import attach_passages
from engine.agent.steps import Steps
from engine.graph.store import KGStore
from engine.index.dense import PassageRetriever
from engine.index.triples import load_or_build
from engine.index.vectors import VectorIndex
from engine.providers.embedder.base import Embedder
from engine.providers.embedder.cache import CachedEmbedder
from engine.result import Answer, Evidence, Result, Status, Triple

TRIPLE_HITS = 20
"""Verbalised triples fetched per question."""


class DenseBaseline:
    def __init__(
        self,
        store: KGStore,
        passages: PassageRetriever | None,
        embedder: Embedder | None,
        stores_dir: Path,
        top_n: int,
        *,
        eager: bool = False,
    ) -> None:
        """``passages``: FAISS-only passage retrieval (no BM25, no document grouping);
        ``eager``: load (or build) the verbalised-triple index now, not on the first
        question."""
        self.store = store
        self.passages = passages
        self.embedder = embedder
        self.stores_dir = stores_dir
        self.top_n = top_n
        self.triples: VectorIndex | None = None
        self._preparing = threading.Lock()
        if eager:
            self.prepare()

    def prepare(self) -> None:
        """Load the verbalised-triple index, building (and caching) it when missing."""
        if self.triples is not None or self.embedder is None:
            return
        with self._preparing:  # threads answering at once load it once
            if self.triples is not None:
                return
            cache = CachedEmbedder(self.embedder, self.stores_dir / "embeddings")
            try:
                self.triples = load_or_build(self.store, cache, self.stores_dir / "triples.faiss")
            finally:
                cache.close()

    def answer(self, question: str, steps: Steps) -> Result:
        result = Result(question=question, status=Status.NOT_ANSWERED, mode="dense", intent="dense")
        with steps.step("dense", "dense search") as a:
            if self.embedder is None:
                raise RuntimeError("no embedder")
            qvec = np.asarray(self.embedder.encode([question]), dtype=np.float32)
            hits = self.passages.search(question, qvec, self.top_n) if self.passages else []
            self.prepare()
            triples = self.triples.search(qvec, TRIPLE_HITS)[0] if self.triples else []
            a.update(passages=len(hits), triples=len(triples))
        store = self.store
        answers: dict[str, float] = {}
        for key, score in triples:
            s_id, rel, o_id = key.split("\t")
            t: Triple = (s_id, rel, o_id)
            result.evidence.append(
                Evidence(kind="triple", triple=t, score=score, source="hetionet")
            )
            result.paths.append([t])
            ends = sorted(
                (s_id, o_id),
                key=lambda n: fuzz.partial_ratio(store.name(n).lower(), question.lower()),
            )
            answers.setdefault(ends[0], score)
        result.answers = [
            Answer(id=n, name=store.name(n), score=sc, kind=store.kind(n))
            for n, sc in answers.items()
        ]
        attach_passages(result, store, hits)
        if result.answers or hits:
            result.status = Status.ANSWERED
            result.text = (
                f"Dense retrieval: {', '.join(a.name for a in result.answers[:5])}"
                if result.answers
                else "Dense retrieval found passages."
            )
        else:
            result.text = "Dense retrieval found no passage and no triple for this question."
            result.stop_reason = "nothing retrieved"
        return result
