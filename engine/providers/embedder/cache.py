"""A content-addressed cache of embeddings, so re-ingest and repeated texts cost nothing.

Vectors live in ``.npz`` shards (keys + matrix) under one directory; each batch that is embedded
is written as a new shard (atomically), so an interrupted ingest resumes where it stopped.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from pathlib import Path

import numpy as np

from engine.providers.embedder.base import Embedder, Vectors
from engine.util.text import content_hash


class CachedEmbedder:
    def __init__(self, inner: Embedder, path: Path) -> None:
        self.inner = inner
        self.name = inner.name
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self._rows: dict[str, np.ndarray] = {}
        for shard in sorted(path.glob("*.npz")):
            try:
                with np.load(shard) as data:
                    for k, v in zip(data["keys"].tolist(), data["vecs"], strict=True):
                        self._rows[str(k)] = v
            except (OSError, ValueError, KeyError):
                shard.unlink(missing_ok=True)

    @property
    def dim(self) -> int:
        return self.inner.dim

    def _write_shard(self, keys: list[str], vecs: Vectors) -> None:
        tmp = self.path / f".{uuid.uuid4().hex}.tmp.npz"
        np.savez(tmp, keys=np.asarray(keys), vecs=vecs.astype(np.float32))
        os.replace(tmp, self.path / f"{uuid.uuid4().hex}.npz")

    def encode(
        self,
        texts: list[str],
        chunk: int = 512,
        progress: Callable[[int], None] | None = None,
    ) -> Vectors:
        keys = [content_hash(self.name, t) for t in texts]
        missing = [
            (k, t) for k, t in dict(zip(keys, texts, strict=True)).items() if k not in self._rows
        ]
        if progress:
            progress(len(texts) - len(missing))
        for i in range(0, len(missing), chunk):
            batch = missing[i : i + chunk]
            vecs = self.inner.encode([t for _, t in batch])
            self._write_shard([k for k, _ in batch], vecs)
            for (k, _), v in zip(batch, vecs, strict=True):
                self._rows[k] = v
            if progress:
                progress(len(batch))
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.asarray([self._rows[k] for k in keys], dtype=np.float32)

    def close(self) -> None:
        return None
