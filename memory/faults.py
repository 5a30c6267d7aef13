"""A user's store file that fails, said as one sentence naming the file and what to do.

The DuckDB vault and the SQLite files (episodic turns, answer cache, chat sessions) fail in
their drivers' words ("database disk image is malformed", "disk I/O error", "IO Error: …
checksum"). ``said_truly(path)`` turns such an error into a ``MemoryFault`` that says which of
these happened, so the front ends show it as it is and a graph question is answered without
memory:

- the file is damaged (its own check fails): ``helix-chat doctor --verify`` says how to set
  it aside;
- the disk is full, or the file's directory or disk is read-only: nothing new was kept, what
  is stored is intact (a vague "disk I/O error" is read against the disk and the directory);
- anything else the file does (in use, cannot be opened): named with ``helix-chat doctor``.

Errors of the caller's own (a wrong SQL statement, a constraint) are raised as they are.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from engine.util.faults import MemoryFault

DAMAGED = ("corrupt", "checksum", "not a valid duckdb", "malformed", "not a database")
FULL = ("no space left", "database or disk is full")
READ_ONLY = ("read-only file system", "readonly database")
LOW_SPACE = 256 * 1024
"""Free bytes under which a vague write error is taken for a full disk."""


def _first_line(exc: BaseException, most: int = 200) -> str:
    """The error's first line; a long one keeps its start and its end, where drivers put the
    cause ('… vault.duckdb.wal": No space left on device')."""
    text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return text if len(text) <= most else f"{text[: most // 2]} … {text[-most // 2 :]}"


def blocked(folder: Path) -> str | None:
    """Why nothing can be written in ``folder`` as far as the file system says (its disk is
    full or mounted read-only, or the directory is not writable), or None."""
    try:
        st = os.statvfs(folder)
    except OSError:
        return None
    if st.f_flag & os.ST_RDONLY:
        return "its disk is mounted read-only"
    if st.f_bavail * st.f_frsize < LOW_SPACE:
        return "the disk is full"
    if not os.access(folder, os.W_OK):
        return "its directory is read-only"
    return None


def _ours(exc: BaseException) -> bool:
    """An error of the file rather than of the statement run on it."""
    if isinstance(exc, sqlite3.Error):
        return type(exc) in (sqlite3.OperationalError, sqlite3.DatabaseError)
    if isinstance(exc, duckdb.Error):
        lower = str(exc).lower()
        return isinstance(exc, duckdb.IOException) or any(
            word in lower for word in (*DAMAGED, *FULL, *READ_ONLY)
        )
    return False


def fault_of(path: Path, exc: BaseException) -> MemoryFault | None:
    """``exc``, met using the store file at ``path``, as one sentence; None when it is an
    error of the caller's own (raised as it is)."""
    if not _ours(exc):
        return None
    text = _first_line(exc)
    lower = str(exc).lower()
    if any(word in lower for word in DAMAGED):
        return MemoryFault(
            f"your memory store {path} is damaged ({text}); run `helix-chat doctor --verify`, "
            "which says how to set it aside"
        )
    cause = None
    if any(word in lower for word in FULL):
        cause = "the disk is full"
    elif any(word in lower for word in READ_ONLY):
        cause = blocked(path.parent) or "its directory is read-only"
    elif "i/o error" in lower or "unable to open" in lower:
        cause = blocked(path.parent)
    if cause is not None:
        return MemoryFault(
            f"your memory store {path} cannot be written: {cause}; nothing new was kept "
            "(what is stored is intact)"
        )
    return MemoryFault(
        f"your memory store {path} cannot be used ({text}); run `helix-chat doctor`, which says why"
    )


@contextmanager
def said_truly(path: Path) -> Iterator[None]:
    """Errors of the store file at ``path`` in the block as a ``MemoryFault`` (``fault_of``)."""
    try:
        yield
    except (sqlite3.Error, duckdb.Error) as exc:
        fault = fault_of(path, exc)
        if fault is None:
            raise
        raise fault from exc


__all__ = ["blocked", "fault_of", "said_truly"]
