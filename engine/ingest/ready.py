"""Whether the stores of a data home are built: asked at every start, so it imports nothing of
the build (``build.py``)."""

from __future__ import annotations

from engine.config import Settings


def stores_ready(settings: Settings) -> bool:
    d = settings.stores_dir
    return all((d / n).exists() for n in ("kg.duckdb", "names.faiss", "passages.faiss"))
