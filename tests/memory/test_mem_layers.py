"""memory/ and sessions/ never import the UI (checked in a clean interpreter)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MODULES = [
    "memory.service",
    "memory.replay.run",
    "memory.linking",
    "memory.cache",
    "sessions.store",
]


def test_memory_and_sessions_do_not_import_the_ui() -> None:
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in MODULES)
        + "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'textual', 'helix_tui'})\n"
        + "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""


def test_the_engine_does_not_import_memory() -> None:
    engine_files = (REPO / "engine").rglob("*.py")
    offenders = [
        str(p)
        for p in engine_files
        if "import memory" in p.read_text(encoding="utf-8")
        or "from memory" in p.read_text(encoding="utf-8")
    ]
    assert offenders == []
