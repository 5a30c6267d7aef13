"""Files computed from the stores and read at open instead of computed again ("prepared").

A prepared file starts with its fingerprint (what it was made from: the store file's size and
modification time, the active layers, the code that made it, the model) and is only ever used
when that fingerprint is the current one; otherwise the caller computes the value, says why,
and saves it for the next open when the data home is writable.
"""

from __future__ import annotations

import gc
import hashlib
import importlib.util
import logging
import mmap
import os
import pickle
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

log = logging.getLogger(__name__)

FORMAT = 1
"""Bumped when what prepared files hold changes shape."""


SEP = "\x00"


def pack(texts: list[str]) -> str | list[str]:
    """``texts`` as one string to pickle (read back by one ``split``, not one object each),
    or as they are when there are none or one holds the separator."""
    joined = SEP.join(texts)
    return joined if texts and joined.count(SEP) == len(texts) - 1 else texts


def unpack(packed: str | list[str]) -> list[str]:
    """The list ``pack`` packed."""
    return packed if isinstance(packed, list) else packed.split(SEP)


def code_digest(modules: tuple[str, ...]) -> str:
    """A digest of the source of ``modules`` (their name when no source file is shipped); a
    module not imported yet is found, not imported (a library only the build uses)."""
    h = hashlib.sha256()
    for name in modules:
        module = sys.modules.get(name)
        if module is not None:
            path = getattr(module, "__file__", None)
        else:
            spec = importlib.util.find_spec(name)
            path = spec.origin if spec is not None and spec.has_location else None
        try:
            h.update(Path(path).read_bytes() if path else name.encode())
        except OSError:
            h.update(name.encode())
    return h.hexdigest()[:16]


def file_sha256(path: Path) -> str:
    """The sha256 hex digest of a file's bytes, read a megabyte at a time."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def file_fingerprint(path: Path) -> dict[str, Any]:
    """What identifies a store file's content without reading it: its path, size and
    modification time (ingest swaps in a new file; opening reads it read-only), and those of
    a write-ahead log left beside it."""
    st = path.stat()
    wal = path.with_name(path.name + ".wal")
    wal_stat = wal.stat() if wal.exists() else None
    return {
        "format": FORMAT,
        "store": str(path.resolve()),
        "size": st.st_size,
        "mtime_ns": st.st_mtime_ns,
        "wal": [wal_stat.st_size, wal_stat.st_mtime_ns] if wal_stat else None,
    }


def layers_tag(layers: tuple[str, ...]) -> str:
    """A short file-name tag of a layer selection (each selection keeps its own files)."""
    return hashlib.sha256("\x00".join(layers).encode()).hexdigest()[:12]


@contextmanager
def no_gc() -> Iterator[None]:
    """The cycle collector off while long-lived objects are made: unpickling or building a
    hundred thousand small objects triggers it over and over (3x the time), and none of them
    is garbage. (Nothing is frozen: an engine closed later is collected as before.)"""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def write_atomic(path: Path, write: Callable[[BinaryIO], object]) -> bool:
    """Write ``path`` through a temporary file beside it; False (logged) when the data home
    cannot be written (a read-only home still works, computing at every open)."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tmp.open("wb") as f:
            write(f)
        os.replace(tmp, path)
        return True
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        log.info("cannot save %s (%s); it is computed again at the next open", path, exc)
        return False


def read_pickled(path: Path, fingerprint: dict[str, Any], what: str) -> tuple[Any, str]:
    """(the payload saved at ``path``, "") when it was made with ``fingerprint``, else
    (None, why not: missing, stale naming what changed, or unreadable)."""
    if not path.exists():
        return None, f"no prepared {what} at {path} (`helix-chat ingest` prepares it)"
    try:
        with path.open("rb") as f, no_gc():
            header = pickle.load(f)
            if header != fingerprint:
                old = header if isinstance(header, dict) else {}
                changed = sorted(k for k in fingerprint if old.get(k) != fingerprint[k])
                return None, f"the prepared {what} is stale ({', '.join(changed)} changed)"
            return pickle.load(f), ""
    except Exception as exc:  # a truncated or foreign file is recomputed, never trusted
        return None, f"the prepared {what} cannot be read ({type(exc).__name__}: {exc})"


def write_pickled(path: Path, fingerprint: dict[str, Any], payload: Any) -> bool:
    """Save ``payload`` at ``path`` behind ``fingerprint`` (``read_pickled`` reads it)."""

    def write(f: BinaryIO) -> None:
        pickle.dump(fingerprint, f, protocol=pickle.HIGHEST_PROTOCOL)
        pickle.dump(payload, f, protocol=pickle.HIGHEST_PROTOCOL)

    return write_atomic(path, write)


ALIGN = 64
"""Where each mapped buffer starts in a file of ``write_mapped``: a multiple of this."""


def write_mapped(path: Path, fingerprint: dict[str, Any], payload: Any) -> bool:
    """Save ``payload`` at ``path`` behind ``fingerprint`` with its large arrays (numpy's,
    pickled out of band) written raw after it, each aligned, so ``read_mapped`` maps them from
    the file instead of copying them."""
    buffers: list[pickle.PickleBuffer] = []
    body = pickle.dumps(payload, protocol=5, buffer_callback=buffers.append)
    raws = [b.raw() for b in buffers]

    def write(f: BinaryIO) -> None:
        pickle.dump(fingerprint, f, protocol=pickle.HIGHEST_PROTOCOL)
        pickle.dump((len(body), [r.nbytes for r in raws]), f, protocol=pickle.HIGHEST_PROTOCOL)
        f.write(body)
        for raw in raws:
            f.write(b"\0" * (-f.tell() % ALIGN))
            f.write(raw)

    return write_atomic(path, write)


def read_mapped(path: Path, fingerprint: dict[str, Any], what: str) -> tuple[Any, str]:
    """``read_pickled`` of a file ``write_mapped`` wrote: its arrays are read-only views of
    the file mapped in memory (pages are read as they are used; the file may be replaced, as
    ingest does, while they are in use)."""
    if not path.exists():
        return None, f"no prepared {what} at {path} (`helix-chat ingest` prepares it)"
    try:
        with path.open("rb") as f:
            header = pickle.load(f)
            if header != fingerprint:
                old = header if isinstance(header, dict) else {}
                changed = sorted(k for k in fingerprint if old.get(k) != fingerprint[k])
                return None, f"the prepared {what} is stale ({', '.join(changed)} changed)"
            body_len, sizes = pickle.load(f)
            start = f.tell()
            body = f.read(body_len)
            mapped = memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))
        views, at = [], start + body_len
        for size in sizes:
            at += -at % ALIGN
            views.append(mapped[at : at + size])
            at += size
        if len(body) != body_len or at > len(mapped):
            raise ValueError(f"truncated: {len(mapped)} bytes, {at} expected")
        with no_gc():
            return pickle.loads(body, buffers=views), ""
    except Exception as exc:  # a truncated or foreign file is recomputed, never trusted
        return None, f"the prepared {what} cannot be read ({type(exc).__name__}: {exc})"
