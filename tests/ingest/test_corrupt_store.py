"""A truncated graph store: a clear error naming the file and the fix, and the fix works."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.config import Settings
from engine.graph.store import KGStore, StoreUnreadable
from engine.ingest.build import ingest
from engine.ingest.sources import DataError


@pytest.fixture
def broken_home(small_settings: Settings, tmp_path: Path) -> Settings:
    """A copy of the real slice home whose kg.duckdb is cut to its first 100 kB."""
    home = tmp_path / "home"
    shutil.copytree(small_settings.stores_dir, home / "stores")
    kg = home / "stores" / "kg.duckdb"
    kg.write_bytes(kg.read_bytes()[:100_000])
    return Settings(home=home, data_dir=small_settings.data_dir, user="tester")


def test_opening_a_truncated_store_names_the_file_and_the_fix(broken_home: Settings) -> None:
    with pytest.raises(StoreUnreadable, match=r"kg\.duckdb cannot be read .*ingest --force"):
        KGStore(broken_home.kg_path)


def test_ask_on_a_truncated_store_is_one_clear_sentence(broken_home: Settings) -> None:
    from helix_tui.cli import cli

    env = {"HELIX_HOME": str(broken_home.home), "HELIX_DATA_DIR": str(broken_home.data_dir)}
    res = CliRunner().invoke(cli, ["ask", "What drugs treat asthma?"], env=env, obj={})
    assert res.exit_code == 1
    assert "cannot be read" in res.output and "helix-chat ingest --force" in res.output
    assert "Traceback" not in res.output


def test_ingest_refuses_then_force_rebuilds(broken_home: Settings) -> None:
    with pytest.raises(DataError, match="ingest --force"):
        ingest(broken_home, layers=[])
    report = ingest(broken_home, layers=[], force=True)
    assert "unreadable store rebuilt" in report.steps["recovered"]
    store = KGStore(broken_home.kg_path)
    try:
        assert store.n_triples == report.triples > 0
    finally:
        store.close()
