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
- the file may not be read and written by this user (its owner or mode);
- anything else the file does (in use, cannot be opened): named with ``helix-chat doctor``.

Errors of the caller's own (a wrong SQL statement, a constraint) are raised as they are.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from engine.util.faults import MemoryFault

DAMAGED = (
    "corrupt",
    "checksum",
    "not a valid duckdb",
    "malformed",
    "not a database",
    "could not read enough bytes",  # DuckDB's word for a file cut short
)
FULL = ("no space left", "database or disk is full")
READ_ONLY = ("read-only file system", "readonly database")
REFUSED = ("operation not permitted", "cannot open file", "could not write file")
"""The file system refused a file beside the store (DuckDB's WAL in a directory nothing can
be made in): read against the disk and the directory, as a vague I/O error is."""
READ_ONLY_DISK = "its disk is mounted read-only"
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
        return READ_ONLY_DISK
    if st.f_bavail * st.f_frsize < LOW_SPACE:
        return "the disk is full"
    if not os.access(folder, os.W_OK):
        return "its directory is read-only"
    return None


def _usable(path: Path) -> bool:
    """Whether this process may read and write ``path`` (True when it does not exist)."""
    return not path.exists() or os.access(path, os.R_OK | os.W_OK)


DISK_ERRNOS = frozenset({errno.EROFS, errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM})
"""Errors of the file system an ``OSError`` about the store's own files is said as."""


def _ours(exc: BaseException) -> bool:
    """An error of the file rather than of the statement run on it."""
    if isinstance(exc, OSError):
        return exc.errno in DISK_ERRNOS
    if isinstance(exc, sqlite3.Error):
        return type(exc) in (sqlite3.OperationalError, sqlite3.DatabaseError)
    if isinstance(exc, duckdb.Error):
        lower = str(exc).lower()
        return isinstance(exc, duckdb.IOException) or any(
            word in lower for word in (*DAMAGED, *FULL, *READ_ONLY, *REFUSED, "permission denied")
        )
    return False


def fault_of(path: Path, exc: BaseException) -> MemoryFault | None:
    """``exc``, met using the store file at ``path``, as one sentence; None when it is an
    error of the caller's own (raised as it is)."""
    if not _ours(exc):
        return None
    text = _first_line(exc)
    lower = str(exc).lower()
    if isinstance(exc, OSError):  # the driver's words for these, so one reading serves both
        lower += {
            errno.EROFS: " read-only file system",
            errno.ENOSPC: " no space left",
            errno.EDQUOT: " no space left",
            errno.EPERM: " operation not permitted",
        }.get(exc.errno or 0, " permission denied")
    if any(word in lower for word in DAMAGED):
        return MemoryFault(
            f"your memory store {path} is damaged ({text}); run `helix-chat doctor --verify`, "
            "which says how to set it aside"
        )
    cause = None
    beside = blocked(path.parent)
    denied = "permission denied" in lower
    # the file's own owner or mode, unless the directory beside it is what refuses
    if beside != READ_ONLY_DISK and (not _usable(path) or (denied and beside is None)):
        return MemoryFault(
            f"your memory store {path} cannot be opened: this user may not read and write it "
            "(check its owner and mode); nothing in it is lost"
        )
    if any(word in lower for word in FULL):
        cause = "the disk is full"
    elif any(word in lower for word in READ_ONLY):
        cause = beside or "its directory is read-only"
    elif denied or any(w in lower for w in ("i/o error", "unable to open", *REFUSED)):
        cause = beside  # vague words: the disk and the directory say which
    if cause is not None:
        return _cannot_write(path, cause)
    return MemoryFault(
        f"your memory store {path} cannot be used ({text}); run `helix-chat doctor`, which says why"
    )


def _cannot_write(path: Path, cause: str) -> MemoryFault:
    return MemoryFault(
        f"your memory store {path} cannot be written: {cause}; nothing new was kept "
        "(what is stored is intact)"
    )


def unwritable(path: Path) -> MemoryFault | None:
    """Why nothing can be written to the store at ``path`` now (its disk is full or read-only,
    ``blocked``), as the fault a write raises before trying (``unwritten``: nothing of it
    reached the file); None when the disk lets it write."""
    cause = blocked(path.parent)
    if cause is None:
        return None
    fault = _cannot_write(path, cause)
    fault.unwritten = True
    return fault


@contextmanager
def said_truly(path: Path, *, os_errors: bool = False, unwritten: bool = False) -> Iterator[None]:
    """Errors of the store file at ``path`` in the block as a ``MemoryFault`` (``fault_of``);
    with ``os_errors``, also the file system's refusals (a block that only touches the store's
    own files, such as taking its lock file); ``unwritten``: the block comes before any of the
    caller's writes (opening the file), so its fault says nothing was written."""
    try:
        yield
    except (sqlite3.Error, duckdb.Error, OSError) as exc:
        if isinstance(exc, OSError) and not os_errors:
            raise
        fault = fault_of(path, exc)
        if fault is None:
            raise
        fault.unwritten = unwritten
        raise fault from exc


__all__ = ["blocked", "fault_of", "said_truly", "unwritable"]
