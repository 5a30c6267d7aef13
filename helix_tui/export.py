"""Writing a session as Markdown, JSON (the result objects of the bench contract, with paths
and evidence) or a self-contained HTML page; or the subgraph of its last answer with graph
paths as GraphML, Cytoscape JSON or GEXF (``export_graph.py``)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helix_tui.services import SessionStorePort


@dataclass(frozen=True)
class ExportFormat:
    name: str
    label: str
    suffix: str
    help: str
    graph: bool = False
    """True: the subgraph of the session's last answer with graph paths, not the session."""


LAST_ANSWER = "the last answer's subgraph"
FORMATS: tuple[ExportFormat, ...] = (
    ExportFormat("markdown", "Markdown", ".md", "readable notes"),
    ExportFormat("json", "JSON", ".json", "result objects with paths and evidence"),
    ExportFormat("html", "HTML", ".html", "one page that opens in any browser"),
    ExportFormat("graphml", "GraphML", ".graphml", f"{LAST_ANSWER} (Cytoscape, Gephi)", True),
    ExportFormat("cytoscape", "Cytoscape JSON", ".cyjs", f"{LAST_ANSWER} (Cytoscape)", True),
    ExportFormat("gexf", "GEXF", ".gexf", f"{LAST_ANSWER} (Gephi)", True),
)
BY_NAME = {f.name: f for f in FORMATS} | {
    "md": FORMATS[0],
    "htm": FORMATS[2],
    "cyjs": FORMATS[4],
}
BY_SUFFIX = {f.suffix: f for f in FORMATS} | {".markdown": FORMATS[0], ".htm": FORMATS[2]}
NAMES = "md, json, html, graphml, cytoscape or gexf"
SUFFIXES = ".md, .json, .html, .graphml, .cyjs or .gexf"


class ExportError(ValueError):
    pass


def parse_target(arg: str) -> tuple[ExportFormat | None, str]:
    """``/export`` arguments: ``json``, ``html out/``, ``notes.md`` -> (format or None, path).

    The format is named first, or read from the path's suffix; None when neither says."""
    head, _, rest = arg.strip().partition(" ")
    if head.lower() in BY_NAME:
        return BY_NAME[head.lower()], rest.strip()
    if re.fullmatch(r"[A-Za-z]{1,8}", head) and rest.strip().startswith(("/", "~", ".")):
        raise ExportError(f"unknown export format {head!r}: use {NAMES}")
    target = arg.strip()
    suffix = Path(target).suffix.lower()
    if suffix and suffix not in BY_SUFFIX:
        raise ExportError(f"cannot export to {suffix} files: use {SUFFIXES}")
    return BY_SUFFIX.get(suffix) if target else None, target


def default_export_path(
    session_id: str, directory: Path | None = None, suffix: str = ".md"
) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", session_id).strip("-") or "session"
    return (directory or Path.cwd()) / f"helix-session-{safe}{suffix}"


def export_target(
    session_id: str, target: str | Path = "", fmt: ExportFormat | str | None = None
) -> tuple[Path, ExportFormat]:
    """The file an export writes and its format: ``fmt`` (default: from the suffix, else
    Markdown); a directory target gets the default file name."""
    chosen = BY_NAME.get(fmt, None) if isinstance(fmt, str) else fmt
    if isinstance(fmt, str) and chosen is None:
        raise ExportError(f"unknown export format {fmt!r}: use {NAMES}")
    path = Path(target).expanduser() if str(target) else None
    if chosen is None:
        chosen = BY_SUFFIX.get(path.suffix.lower(), FORMATS[0]) if path else FORMATS[0]
    if path is None or path.is_dir():
        path = default_export_path(session_id, path, chosen.suffix)
    return path, chosen


def export_session(
    store: SessionStorePort,
    session_id: str,
    target: str | Path = "",
    fmt: ExportFormat | str | None = None,
) -> Path:
    """Write the session to ``export_target(session_id, target, fmt)``; returns the path."""
    path, chosen = export_target(session_id, target, fmt)
    text = render(store, session_id, chosen)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def render(store: SessionStorePort, session_id: str, fmt: ExportFormat) -> str:
    if fmt.graph:
        from helix_tui.export_graph import graph_text, last_graph_turn

        return graph_text(last_graph_turn(store, session_id)[1].result, fmt)
    if fmt.name == "markdown":
        return store.export_markdown(session_id)
    data = session_data(store, session_id)
    if fmt.name == "json":
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    from helix_tui.export_html import session_html
    from sessions.store import printable

    return printable(session_html(data))


def session_data(store: SessionStorePort, session_id: str) -> dict[str, Any]:
    """The session and its turns; each turn's ``result`` is the contract object
    (``Result.to_contract()``) with ``id`` = ``<session>-<n>``, plus the answer ``text``."""
    info = store.get(session_id)
    if info is None:
        raise KeyError(session_id)
    turns = []
    for n, turn in enumerate(store.turns(session_id), start=1):
        contract = {"id": f"{session_id}-{n}", **turn.result.to_contract()}
        turns.append(
            {
                "n": n,
                "question": turn.question,
                "names": turn.result.all_names(),
                "result": contract,
            }
        )
    return {
        "format": "helix-session/1",
        "session": {
            "id": info.id,
            "user": info.user,
            "title": info.title,
            "created_at": info.created_at.isoformat(),
            "updated_at": info.updated_at.isoformat(),
        },
        "turns": turns,
    }
