"""The eval package stays UI-free: importing it never pulls in textual or helix_tui."""

from __future__ import annotations

import subprocess
import sys


def test_engine_eval_does_not_import_the_ui() -> None:
    code = (
        "import sys, engine.eval; "
        "bad = [m for m in sys.modules if m.split('.')[0] in {'textual', 'helix_tui'}]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
