"""``helix-chat data pull``: download missing manifest files, resumably, verified by sha256.

A file is fetched into ``<dest>.part``; an interrupted download resumes from the bytes already
there (HTTP Range). Only a file whose size and sha256 match the manifest is renamed into place:
a mismatch is an error and the partial file is removed, so a bad file is never used.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import httpx

from engine.config import Settings
from engine.ingest.datadir import State, hash_cache, locate, search_dirs
from engine.ingest.manifest import Manifest, SourceFile


class DownloadError(RuntimeError):
    """A file could not be fetched or did not verify."""


class Progress(Protocol):
    def start(self, step: str, total: int) -> None: ...
    def advance(self, n: int) -> None: ...
    def finish(self, step: str, note: str = "") -> None: ...


@dataclass(frozen=True)
class PullResult:
    path: Path
    downloaded: int
    """Bytes transferred by this call (less than the size when it resumed)."""
    resumed: bool


def source_url(src: SourceFile, mirror: str | None) -> str:
    """The upstream URL, or the same relative path under a mirror base URL."""
    return f"{mirror.rstrip('/')}/{src.path}" if mirror else src.url


def _hash_file(path: Path) -> hashlib._Hash:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
    return h


def fetch(
    src: SourceFile,
    dest_root: Path,
    *,
    mirror: str | None = None,
    timeout_s: float = 30.0,
    progress: Progress | None = None,
    client: httpx.Client | None = None,
) -> PullResult:
    """Download one file to ``dest_root / src.path`` and verify it."""
    dest = dest_root / src.path
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = dest.with_name(dest.name + ".part")
    url = source_url(src, mirror)
    have = part.stat().st_size if part.exists() else 0
    if have > src.size:
        part.unlink()
        have = 0
    h = _hash_file(part) if have else hashlib.sha256()
    resumed = have > 0
    got = 0
    if progress:
        progress.start(src.path, src.size)
        progress.advance(have)
    own = client is None
    http = client or httpx.Client(timeout=timeout_s, follow_redirects=True)
    try:
        if have < src.size:
            headers = {"Range": f"bytes={have}-"} if have else {}
            with http.stream("GET", url, headers=headers) as resp:
                if resp.status_code == 200 and have:
                    # the server ignored the range: start over
                    part.unlink()
                    h, have, resumed = hashlib.sha256(), 0, False
                elif resp.status_code not in (200, 206):
                    raise DownloadError(f"{src.path}: HTTP {resp.status_code} from {url}")
                with part.open("ab") as out:
                    for chunk in resp.iter_bytes():
                        out.write(chunk)
                        h.update(chunk)
                        got += len(chunk)
                        if progress:
                            progress.advance(len(chunk))
                        if have + got > src.size:
                            break
    except httpx.TimeoutException as exc:
        raise DownloadError(
            f"{src.path}: timed out after {timeout_s:g} s fetching {url}; run the same command"
            " again to resume"
        ) from exc
    except httpx.HTTPError as exc:
        kept = part.stat().st_size if part.exists() else 0
        at = f"interrupted at {kept:,} of {src.size:,} bytes, " if kept else ""
        raise DownloadError(
            f"{src.path}: cannot fetch {url} ({at}{exc.__class__.__name__}: {exc}); run the"
            " same command again to resume"
        ) from exc
    finally:
        if own:
            http.close()
    size = part.stat().st_size
    if size < src.size:
        raise DownloadError(
            f"{src.path}: connection ended at {size:,} of {src.size:,} bytes; run the same"
            " command again to resume"
        )
    digest = h.hexdigest()
    if size != src.size or digest != src.sha256:
        part.unlink(missing_ok=True)
        raise DownloadError(
            f"{src.path}: checksum mismatch (got sha256 {digest[:12]}…, {size:,} bytes;"
            f" expected {src.sha256[:12]}…, {src.size:,} bytes); the file was discarded"
        )
    part.replace(dest)
    if progress:
        progress.finish(src.path, "verified")
    return PullResult(dest, got, resumed)


def pull_dir(settings: Settings) -> Path:
    """Where ``data pull`` writes: the data home's ``data/`` directory."""
    return settings.home / "data"


def to_pull(settings: Settings, manifest: Manifest) -> list[SourceFile]:
    """Files found in no data directory, plus pulled copies that no longer verify."""
    own = pull_dir(settings).resolve()
    out: list[SourceFile] = []
    for x in locate(manifest, search_dirs(settings), verify=True, cache=hash_cache(settings)):
        if x.path is None or (x.state is State.MODIFIED and x.path.is_relative_to(own)):
            out.append(x.source)
    return out


def pull(
    settings: Settings,
    files: list[SourceFile],
    *,
    progress: Progress | None = None,
    timeout_s: float = 30.0,
) -> list[PullResult]:
    """Fetch ``files`` into the data home; every failure is reported, none is skipped silently."""
    if settings.offline and files:
        raise DownloadError(
            f"HELIX_OFFLINE is set; {len(files)} file(s) would need downloading"
            " (unset it and run `helix-chat data pull`)"
        )
    dest = pull_dir(settings)
    done: list[PullResult] = []
    errors: list[str] = []
    with httpx.Client(timeout=timeout_s, follow_redirects=True) as client:
        for src in files:
            try:
                done.append(
                    fetch(
                        src,
                        dest,
                        mirror=settings.data_mirror,
                        timeout_s=timeout_s,
                        progress=progress,
                        client=client,
                    )
                )
            except DownloadError as exc:
                errors.append(str(exc))
                if progress:
                    progress.finish(src.path, "failed")
    if errors:
        raise DownloadError(
            f"{len(errors)} of {len(files)} download(s) failed:\n  " + "\n  ".join(errors)
        )
    return done
