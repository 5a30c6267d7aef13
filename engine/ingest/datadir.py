"""Find the data files of the manifest: which directory holds each, and whether it verifies.

Directories are searched in order: ``HELIX_DATA_DIR`` (``Settings.data_dir``), the data home's
``data/`` (where ``helix-chat data pull`` writes), then ``../shared/data`` beside the checkout.
Each file is taken from the first directory that has it. A file is *verified* when its size
and sha256 match the manifest; hashes are remembered in the data home per (path, size, mtime),
so a second check is instant and nothing is written into a shared data directory.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from engine.config import Settings
from engine.ingest.manifest import Manifest, SourceFile
from engine.util.artefact import file_sha256

CHECKOUT_SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"
"""``../shared/data`` next to a source checkout (absent for an installed wheel)."""


class State(StrEnum):
    OK = "ok"
    """Found, size and sha256 match the manifest."""
    UNCHECKED = "found"
    """Found with the right size; not hashed yet."""
    MODIFIED = "modified"
    """Found, but its size or sha256 differs from the manifest (a custom or damaged copy)."""
    MISSING = "missing"


@dataclass(frozen=True)
class Located:
    source: SourceFile
    path: Path | None
    state: State

    @property
    def found(self) -> bool:
        return self.path is not None


def search_dirs(settings: Settings) -> list[Path]:
    """Data directories in search order (duplicates and non-directories dropped)."""
    cands = [settings.data_dir, settings.home / "data", CHECKOUT_SHARED]
    out: list[Path] = []
    for c in cands:
        if c is None:
            continue
        r = c.expanduser().resolve()
        if r.is_dir() and r not in out:
            out.append(r)
    return out


def hash_cache(settings: Settings) -> Path:
    """Where verified hashes are remembered (inside the data home)."""
    return settings.home / "data-hashes.json"


def _read_cache(path: Path | None) -> dict[str, list[object]]:
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _write_cache(path: Path | None, cache: dict[str, list[object]]) -> None:
    if path is None:
        return
    tmp = path.with_suffix(".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(cache, indent=0, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)  # a read-only data home: just don't remember


def check(
    src: SourceFile, path: Path, *, rehash: bool, known: dict[str, list[object]] | None = None
) -> State:
    """Compare a file with its manifest entry; hash it when ``rehash`` or not in ``known``
    (remembered hashes by absolute path, updated in place)."""
    st = path.stat()
    if st.st_size != src.size:
        return State.MODIFIED
    known = {} if known is None else known
    key = str(path.resolve())
    stamp: list[object] = [st.st_size, st.st_mtime_ns]
    entry = known.get(key)
    if not rehash and entry is not None and entry[:2] == stamp:
        return State.OK if entry[2] == src.sha256 else State.MODIFIED
    digest = file_sha256(path)
    known[key] = [*stamp, digest]
    return State.OK if digest == src.sha256 else State.MODIFIED


def locate(
    manifest: Manifest,
    dirs: list[Path],
    *,
    verify: bool = False,
    rehash: bool = False,
    cache: Path | None = None,
) -> list[Located]:
    """Where each manifest file is found; with ``verify`` its state is checked by hash (hashes
    remembered in ``cache``, read once and written once)."""
    known = _read_cache(cache) if verify else {}
    before = dict(known)
    out: list[Located] = []
    for src in manifest.files:
        hit: Located = Located(src, None, State.MISSING)
        for root in dirs:
            p = root / src.path
            if p.is_file():
                if verify:
                    state = check(src, p, rehash=rehash, known=known)
                else:
                    state = State.UNCHECKED if p.stat().st_size == src.size else State.MODIFIED
                hit = Located(src, p, state)
                break
        out.append(hit)
    if known != before:
        _write_cache(cache, known)
    return out


def missing(found: list[Located]) -> list[SourceFile]:
    return [x.source for x in found if not x.found]


def human_size(n: int) -> str:
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"
