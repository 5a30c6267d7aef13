from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from engine.config import Settings

HERE = Path(__file__).parent
FAKE_ENGINE = HERE / "fake_engine.py"
REPO = HERE.parent.parent


def _load_fake():
    spec = importlib.util.spec_from_file_location("helix_mcp_fake_engine", FAKE_ENGINE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


fake = _load_fake()


@pytest.fixture
def fake_engine_module():
    return fake


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
