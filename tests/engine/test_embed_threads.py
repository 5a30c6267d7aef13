"""A question's few texts are embedded on ``query_threads`` torch threads; batches (ingest) and
the setting 0 keep torch's own count, which each call leaves as it found it."""

from __future__ import annotations

import torch

from engine.config import Settings
from engine.providers.embedder.sentence import QUERY_TEXTS, SentenceTransformerEmbedder


def test_a_short_call_uses_the_query_threads_and_restores_the_count() -> None:
    settings = Settings()
    embedder = SentenceTransformerEmbedder(settings.embed_model, 8, query_threads=1)
    torch.set_num_threads(2)
    try:
        with embedder._threads(1):
            assert torch.get_num_threads() == 1
        assert torch.get_num_threads() == 2
        with embedder._threads(QUERY_TEXTS + 1):
            assert torch.get_num_threads() == 2
        untouched = SentenceTransformerEmbedder(settings.embed_model, 8, query_threads=0)
        with untouched._threads(1):
            assert torch.get_num_threads() == 2
        vecs = embedder.encode(["which drugs treat asthma?"])
        assert vecs.shape == (1, embedder.dim) and torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(2)
