"""The engine, memory and sessions packages never import the UI."""

from __future__ import annotations

import subprocess
import sys

CODE = (
    "import sys, importlib, pkgutil\n"
    "import engine, memory, sessions, prompts\n"
    "for pkg in (engine, memory, sessions, prompts):\n"
    "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
    "        importlib.import_module(m.name)\n"
    "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'textual', 'helix_tui'})\n"
    "print(','.join(bad))\n"
)


def test_engine_memory_sessions_never_import_textual() -> None:
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"UI modules imported: {out.stdout}"
