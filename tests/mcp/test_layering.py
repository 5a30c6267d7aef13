"""helix_mcp and the engine pieces it uses never pull in the UI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_no_ui_imports():
    code = (
        "import sys, helix_mcp, helix_mcp.__main__, engine.telemetry, engine.telemetry.summary, "
        "engine.providers.llm.adapters, engine.providers.llm.openai_compat\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'textual', 'helix_tui'})\n"
        "print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""
