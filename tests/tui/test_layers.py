"""The engine, memory and sessions never import Textual (or the TUI)."""

from __future__ import annotations

import subprocess
import sys


def test_core_packages_do_not_import_textual() -> None:
    code = (
        "import engine.api, memory, memory.service, sessions, sessions.store; import sys; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'helix_tui')); "
        "assert not bad, bad"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_app_module_does_not_load_the_engine_at_import() -> None:
    code = (
        "import helix_tui.app; import sys; "
        "heavy = sorted(m for m in ('engine.api', 'torch', 'faiss', 'duckdb', "
        "'sentence_transformers') if m in sys.modules); assert not heavy, heavy"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
