"""A content-addressed cache of embeddings, so re-ingest and repeated texts cost nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import duckdb
import numpy as np

from engine.providers.embedder.base import Embedder, Vectors
from engine.util.text import content_hash


class CachedEmbedder:
    """Wraps an embedder; vectors are stored in a DuckDB file keyed by (model, text) hash."""

    def __init__(self, inner: Embedder, path: Path) -> None:
        self.inner = inner
        self.name = inner.name
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._con = duckdb.connect(str(path))
        self._con.execute("CREATE TABLE IF NOT EXISTS emb (h VARCHAR PRIMARY KEY, v FLOAT[])")

    @property
    def dim(self) -> int:
        return self.inner.dim

    def encode(
        self,
        texts: list[str],
        chunk: int = 512,
        progress: Callable[[int], None] | None = None,
    ) -> Vectors:
        keys = [content_hash(self.name, t) for t in texts]
        found: dict[str, list[float]] = {}
        uniq = sorted(set(keys))
        for i in range(0, len(uniq), 5000):
            part = uniq[i : i + 5000]
            for h, v in self._con.execute(
                "SELECT h, v FROM emb WHERE list_contains(?, h)", [part]
            ).fetchall():
                found[h] = v
        missing = [(k, t) for k, t in dict(zip(keys, texts, strict=True)).items() if k not in found]
        if progress:
            progress(len(texts) - len(missing))
        for i in range(0, len(missing), chunk):
            batch = missing[i : i + chunk]
            vecs = self.inner.encode([t for _, t in batch])
            self._con.executemany(
                "INSERT OR REPLACE INTO emb VALUES (?, ?)",
                [(k, v.tolist()) for (k, _), v in zip(batch, vecs, strict=True)],
            )
            for (k, _), v in zip(batch, vecs, strict=True):
                found[k] = v.tolist()
            if progress:
                progress(len(batch))
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.asarray([found[k] for k in keys], dtype=np.float32)

    def close(self) -> None:
        self._con.close()
