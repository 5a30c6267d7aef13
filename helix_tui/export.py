"""Writing a session as Markdown."""

from __future__ import annotations

import re
from pathlib import Path

from helix_tui.services import SessionStorePort


def default_export_path(session_id: str, directory: Path | None = None) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", session_id).strip("-") or "session"
    return (directory or Path.cwd()) / f"helix-session-{safe}.md"


def export_session(store: SessionStorePort, session_id: str, target: str | Path = "") -> Path:
    path = Path(target).expanduser() if str(target) else default_export_path(session_id)
    if path.is_dir():
        path = default_export_path(session_id, path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(store.export_markdown(session_id), encoding="utf-8")
    return path
