"""A FAISS index is read mapped from its file: nothing copied at open, the same search."""

from __future__ import annotations

from pathlib import Path

import faiss
import numpy as np
import pytest

from engine.index.vectors import VectorIndex

MAPS = Path("/proc/self/maps")


def test_a_loaded_index_searches_its_file_mapped(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    vecs = rng.standard_normal((300, 16)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    built = VectorIndex.build([f"n{i}" for i in range(300)], vecs)
    path = tmp_path / "names.faiss"
    built.save(path)
    loaded = VectorIndex.load(path)
    query = vecs[:3] + 0.01
    assert loaded.search(query, 5) == built.search(query, 5)
    assert loaded.ids == built.ids
    copied = faiss.read_index(str(path))
    assert copied.ntotal == loaded.index.ntotal == 300
    if not MAPS.exists():
        pytest.skip("no /proc/self/maps to see the mapping")
    assert str(path) in MAPS.read_text()
