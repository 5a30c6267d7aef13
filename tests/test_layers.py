"""The layers: import-linter contracts (``[tool.importlinter]`` in pyproject.toml) and what
the interpreter actually loads.

The contracts say who may import whom, including imports inside functions; the two runtime
checks catch what a static graph cannot see (imports made by libraries or by ``importlib``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _python(code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True
    )


def test_the_import_contracts_hold() -> None:
    done = _python(
        "import sys; from importlinter.cli import lint_imports; "
        "sys.exit(lint_imports(no_cache=True, no_logo=True))"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_no_package_but_the_app_loads_textual() -> None:
    code = (
        "import sys, importlib, pkgutil\n"
        "import engine, memory, sessions, wiring, prompts, helix_mcp\n"
        "for pkg in (engine, memory, sessions, wiring, prompts, helix_mcp):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(m.name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'textual', 'helix_tui'})\n"
        "print(','.join(bad))\n"
    )
    done = _python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"UI modules imported: {done.stdout}"


def test_the_app_module_loads_neither_the_engine_nor_the_stores_at_import() -> None:
    code = (
        "import helix_tui.app; import sys; "
        "heavy = sorted(m for m in sys.modules if m in ('engine.api', 'torch', 'faiss', "
        "'duckdb', 'sentence_transformers') "
        "or m.split('.')[0] in ('memory', 'sessions', 'wiring')); "
        "assert not heavy, heavy"
    )
    done = _python(code)
    assert done.returncode == 0, done.stderr
