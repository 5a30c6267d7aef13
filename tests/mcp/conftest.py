from __future__ import annotations

from pathlib import Path

import pytest

from engine.config import Settings
from tests.support import fake_engine


@pytest.fixture
def fake_engine_module():
    return fake_engine


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(home=tmp_path, trace_exporter="none")


@pytest.fixture
def real_home(request, tmp_path) -> Path:
    """A private copy of the lead's ``small_home`` stores (skips until that fixture exists)."""
    import shutil

    try:
        home = request.getfixturevalue("small_home")
    except pytest.FixtureLookupError:
        pytest.skip("needs the small_home fixture (tests/conftest.py)")
    home = Path(home.home if isinstance(home, Settings) else home)
    shutil.copytree(home / "stores", tmp_path / "stores")
    return tmp_path
