"""Fixtures for the reliability suite: private copies of the small real stores, and checks that
a run changed nothing it should not have."""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def store_digest(home: Path) -> dict[str, str]:
    """sha256 of every file under ``home/stores``."""
    stores = home / "stores"
    return {
        str(p.relative_to(stores)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(stores.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def home_copy(small_home: Path, tmp_path: Path) -> Path:
    """A data home holding a private copy of the small real stores (free to break)."""
    home = tmp_path / "home"
    shutil.copytree(small_home / "stores", home / "stores")
    return home


def subprocess_env(home: Path, sandbox: Path, **extra: str) -> dict[str, str]:
    """Environment for a ``helix-chat`` child: this worktree's code, ``home`` as HELIX_HOME,
    and HOME/TMPDIR/XDG dirs inside ``sandbox`` so anything written outside the home shows."""
    for name in ("home", "tmp", "cache", "config", "data"):
        (sandbox / name).mkdir(parents=True, exist_ok=True)
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(REPO),
        "HELIX_HOME": str(home),
        "HOME": str(sandbox / "home"),
        "TMPDIR": str(sandbox / "tmp"),
        "XDG_CACHE_HOME": str(sandbox / "cache"),
        "XDG_CONFIG_HOME": str(sandbox / "config"),
        "XDG_DATA_HOME": str(sandbox / "data"),
        "HF_HUB_OFFLINE": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    for key in ("HF_HOME", "SENTENCE_TRANSFORMERS_HOME", "TRANSFORMERS_CACHE"):
        if key in os.environ:
            env[key] = os.environ[key]
    env.update(extra)
    return env


def files_under(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


HELIX = [sys.executable, "-m", "helix_tui.cli"]
"""The ``helix-chat`` command of this worktree."""


@pytest.fixture
def small_disk(tmp_path: Path):
    """A 4 MB tmpfs (root only): a disk that can be filled and remounted read-only."""
    import subprocess

    mnt = tmp_path / "disk"
    mnt.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mnt)], capture_output=True
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.decode().strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)
