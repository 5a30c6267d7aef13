from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.config import Settings
from engine.result import Answer, Evidence, Result, Status
from memory.cache import AnswerCache, admissible, dependencies, is_reviewed
from memory.clock import SimulatedClock
from memory.store.rows import RowDB


def _kg_result(score: float = 0.9) -> Result:
    return Result(
        status=Status.ANSWERED,
        answers=[Answer(id="Compound::DB00843", name="Donepezil", score=score)],
        evidence=[
            Evidence(
                kind="triple",
                score=score,
                source="hetionet",
                triple=("Compound::DB00843", "CtD", "Disease::DOID:10652"),
            )
        ],
        mode="hybrid",
    )


@pytest.fixture
def where(tmp_path: Path, backend: str | None) -> Path | RowDB:
    """The cache's store on the back end under test: a SQLite file or u1's PostgreSQL rows."""
    if backend is None:
        return tmp_path / "c.sqlite"
    from memory.store.pg import PgRows, pg_backend

    return PgRows(pg_backend(Settings(home=tmp_path, database_url=backend)), "u1", "helix_cache")


def _cache(where: Path | RowDB, clock: SimulatedClock, **kw: object) -> AnswerCache:
    return AnswerCache(where, clock, **kw)  # type: ignore[arg-type]


def test_admission_only_for_reviewed_high_score_kg_answers() -> None:
    assert is_reviewed(_kg_result()) and admissible(_kg_result(), 0.5)
    assert not admissible(_kg_result(0.2), 0.5)
    assert not is_reviewed(Result(status=Status.NOT_ANSWERED))
    memory_answer = _kg_result()
    memory_answer.answers[0].source = "memory"
    assert not admissible(memory_answer, 0.5)
    assert dependencies(_kg_result()) == {"Compound::DB00843", "Disease::DOID:10652"}


def test_exact_hit_ttl_and_lru(where: Path | RowDB, clock: SimulatedClock) -> None:
    cache = _cache(where, clock, size=2, ttl_minutes=60)
    assert cache.put("Which drugs treat Alzheimer's disease?", "hybrid", _kg_result())
    hit = cache.get("which drugs treat  alzheimer's disease?", "hybrid")
    assert hit is not None and hit.cached and hit.answers[0].id == "Compound::DB00843"
    assert cache.get("Which drugs treat Alzheimer's disease?", "graph") is None
    clock.advance(minutes=1)
    cache.put("q2", "hybrid", _kg_result())
    clock.advance(minutes=1)
    cache.get("q2", "hybrid")
    clock.advance(minutes=1)
    cache.put("q3", "hybrid", _kg_result())
    assert len(cache) == 2
    assert cache.get("Which drugs treat Alzheimer's disease?", "hybrid") is None  # evicted
    clock.advance(minutes=61)
    assert cache.get("q3", "hybrid") is None  # expired


def test_invalidated_when_a_relied_on_node_changes(
    where: Path | RowDB, clock: SimulatedClock
) -> None:
    cache = _cache(where, clock)
    cache.put("q", "hybrid", _kg_result())
    assert cache.invalidate(["Disease::DOID:9352"]) == 0
    assert cache.invalidate(["Disease::DOID:10652"]) == 1
    assert cache.get("q", "hybrid") is None


def test_an_answer_of_many_nodes_depends_on_each(
    where: Path | RowDB, clock: SimulatedClock
) -> None:
    """Its dependencies are written many rows per statement (``DEPS_PER_INSERT``): the first
    node, one at a chunk's edge and the last are each kept."""
    from memory.cache import DEPS_PER_INSERT

    result = _kg_result()
    genes = [f"Gene::{n}" for n in range(2 * DEPS_PER_INSERT + 7)]
    result.evidence += [
        Evidence(kind="triple", score=0.9, source="hetionet", triple=(g, "GaD", "Disease::X"))
        for g in genes
    ]
    nodes = sorted(dependencies(result))
    for node in (nodes[0], nodes[DEPS_PER_INSERT], nodes[-1]):
        cache = _cache(where, clock)
        assert cache.put("q", "hybrid", result)
        assert cache.invalidate([node]) == 1, node
        assert cache.get("q", "hybrid") is None
        cache.close()


def test_semantic_hit_with_an_injected_embedder(where: Path | RowDB, clock: SimulatedClock) -> None:
    def embed(texts: list[str]) -> np.ndarray:
        rows = [[1.0, 0.0] if "alzheimer" in t.lower() else [0.0, 1.0] for t in texts]
        return np.array(rows, dtype=np.float32)

    cache = _cache(where, clock, embed=embed, similarity=0.95)
    cache.put("Which drugs treat Alzheimer's disease?", "hybrid", _kg_result())
    assert cache.get("What medicines are used for Alzheimer's?", "hybrid") is not None
    assert cache.get("What treats gout?", "hybrid") is None
