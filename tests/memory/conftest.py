"""Fixtures for memory tests: tmp homes, a simulated clock and a fake linker."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.config import Settings
from engine.providers.embedder.sentence import SentenceTransformerEmbedder
from memory.asks import AskScorer, load_slots
from memory.clock import SimulatedClock
from memory.linking import StatementLinker
from memory.relations import RelationCatalog, load_catalog
from memory.service import UserMemory
from sessions.store import mention_scrubber
from tests.memory.memfakes import fake_linker

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def asks() -> AskScorer:
    """The bank over the engine's real embedding model (the one ``Helix.embed`` serves)."""
    if not load_slots():
        pytest.skip("the exemplar bank engine/understand/exemplars.yaml is not there")
    return AskScorer(SentenceTransformerEmbedder(Settings().embed_model).encode)


@pytest.fixture
def clock() -> SimulatedClock:
    return SimulatedClock(START)


@pytest.fixture
def settings(tmp_path: Path, backend: str | None) -> Settings:
    return Settings(
        home=tmp_path / "home", user="tester", trace_exporter="none", database_url=backend
    )


@pytest.fixture
def linker() -> StatementLinker:
    return fake_linker()


@pytest.fixture
def catalog() -> RelationCatalog:
    return load_catalog()


@pytest.fixture
def memory(
    settings: Settings, clock: SimulatedClock, linker: StatementLinker
) -> Iterator[UserMemory]:
    scrub = mention_scrubber(settings, "u07", clock)
    mem = UserMemory(settings, "u07", clock=clock, linker=linker, forget_elsewhere=scrub)
    yield mem
    mem.close()


@pytest.fixture
def other(
    settings: Settings, clock: SimulatedClock, linker: StatementLinker
) -> Iterator[UserMemory]:
    mem = UserMemory(settings, "u12", clock=clock, linker=linker)
    yield mem
    mem.close()
