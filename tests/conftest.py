"""Shared fixtures: a real data home ingested from a small slice of the Hetionet data."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.config import Settings

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def small_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """HELIX_HOME with stores ingested from a real slice (built once per test session)."""
    from engine.ingest.build import ingest
    from tests.support.kgslice import build_slice, source_files

    if source_files() is None:
        pytest.skip("Hetionet data not found: set HELIX_DATA_DIR or run `helix-chat data pull`")
    root = tmp_path_factory.mktemp("helix")
    data = build_slice(root / "data")
    home = root / "home"
    ingest(Settings(home=home, data_dir=data), layers=[])  # the slice has no pack files
    return home


@pytest.fixture(scope="session")
def small_settings(small_home: Path) -> Settings:
    return Settings(home=small_home, data_dir=small_home.parent / "data", user="tester")


@pytest.fixture(scope="session")
def helix(small_settings: Settings) -> Iterator[object]:
    from engine.api import Helix

    h = Helix.open(small_settings, auto_ingest=False)
    yield h
    h.close()


@pytest.fixture
def shared_bench() -> Path:
    bench = SHARED / "bench"
    if not bench.is_dir():
        pytest.skip("../shared/bench is not available")
    return bench


@pytest.fixture(scope="session")
def pg_server() -> Iterator[object]:
    """A PostgreSQL server for the session (``tests.support.postgres``), or a skip."""
    from tests.support.postgres import find_bindir, start_server

    bindir = find_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL not found (no pg_ctl on PATH or in /usr/lib/postgresql/*/bin)")
    server = start_server(bindir)
    yield server
    from memory.store.pg import close_backends

    close_backends()
    server.stop()


@pytest.fixture(params=["files", "postgres"])
def backend(request: pytest.FixtureRequest) -> str | None:
    """The storage back end a memory/session test runs on: None (files under the data home)
    or the URL of a fresh PostgreSQL database (every table emptied before the test)."""
    if request.param == "files":
        return None
    server = request.getfixturevalue("pg_server")
    server.reset()
    return str(server.app_url)
