"""Where a run came from: the code's git commit (and whether it had uncommitted changes) and
the hash of each input file, so two runs' figures can be traced to what produced them."""

from __future__ import annotations

import subprocess
from pathlib import Path

SOURCE_ROOT = Path(__file__).resolve().parents[3]
"""The checkout (or site-packages directory) holding the ``engine`` package."""


def git_state(root: Path = SOURCE_ROOT) -> tuple[str, str]:
    """``(commit, dirty)`` of the code at ``root``: dirty is ``"true"``/``"false"`` (tracked
    files changed); when git cannot tell (no git, not a checkout) both say so in words."""
    try:
        head = _git(root, "rev-parse", "HEAD")
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unknown (git could not run: {exc})", "unknown"
    if head.returncode != 0:
        return "unknown (not a git checkout)", "unknown"
    status = _git(root, "status", "--porcelain", "--untracked-files=no")
    dirty = "unknown" if status.returncode != 0 else str(bool(status.stdout.strip())).lower()
    return head.stdout.strip(), dirty


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=20, check=False
    )
