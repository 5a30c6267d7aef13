"""``helix-chat doctor``'s checks: the data directory, the stores, each user's stores and traces.

Every check only reads (DuckDB and SQLite files are opened read-only) and ends in a ``Finding``:
what was looked at, what was found, and for a problem the command that fixes it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import duckdb

from engine.config import Settings
from engine.index.vectors import IndexMissing, VectorIndex, digest_path
from engine.ingest.build import stores_ready
from engine.ingest.datadir import State, locate, search_dirs
from engine.ingest.defaults import build_manifest
from engine.ingest.manifest import ManifestError
from memory.cache import CACHE_FILE
from memory.cache import MIGRATIONS as CACHE_MIGRATIONS
from memory.episodic import EPISODIC_FILE
from memory.episodic import MIGRATIONS as EPISODIC_MIGRATIONS
from memory.migrate import Migrations
from memory.vault import MIGRATIONS as VAULT_MIGRATIONS
from memory.vault import VAULT_FILE
from sessions.store import MIGRATIONS as SESSIONS_MIGRATIONS
from sessions.store import SESSIONS_FILE

INGEST = "helix-chat ingest"
REBUILD = "helix-chat ingest --force"


def _owner(path: Path) -> str:
    """The fix for a whole store this user may not read."""
    return f"chmod a+r {path}, or chown it to this user (the file is whole; rebuilding is no fix)"


class Level(StrEnum):
    OK = "ok"
    WARN = "warn"
    """Works, but something is worth knowing (missing data for a rebuild, torn trace lines)."""
    FAIL = "fail"
    """Broken: Helix cannot work until the fix is run."""


@dataclass(frozen=True)
class Finding:
    area: str
    item: str
    level: Level
    detail: str
    fix: str | None = None


def _short(dir_name: str) -> str:
    """A user's directory as an item: its full 40-digit hash cut to 8 (the detail gives the
    whole path)."""
    return re.sub(r"-([0-9a-f]{8})[0-9a-f]{32}$", r"-\1…", dir_name)


def _reason(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0][:200] if lines else type(exc).__name__


def check_data(settings: Settings, *, rehash: bool = False) -> Iterator[Finding]:
    """The source manifest and where the files of a first build (Hetionet and the build
    layers) are found (with ``rehash``, by sha256)."""
    try:
        manifest = build_manifest(settings)
    except (ManifestError, OSError) as exc:
        yield Finding("data", "manifest", Level.FAIL, _reason(exc), "reinstall helix-ragxmem")
        return
    dirs = search_dirs(settings)
    found = locate(manifest, dirs, verify=rehash, rehash=rehash)
    built = stores_ready(settings)
    missing = [x.source.path for x in found if x.state is State.MISSING]
    modified = [x.source.path for x in found if x.state is State.MODIFIED]
    if missing:
        level = Level.WARN if built else Level.FAIL
        why = " (the stores are built; needed only to rebuild them)" if built else ""
        yield Finding(
            "data",
            "source files",
            level,
            f"{len(missing)} of {len(found)} missing, e.g. {missing[0]}{why}",
            "helix-chat data pull",
        )
    if modified:
        yield Finding(
            "data",
            "source files",
            Level.WARN,
            f"{len(modified)} differ from the manifest, e.g. {modified[0]}",
            "helix-chat data verify (then delete the file and run helix-chat data pull)",
        )
    if not missing and not modified:
        how = "sha256 verified" if rehash else "sizes match; --verify re-hashes"
        where = ", ".join(str(d) for d in dirs) or "no data directory"
        yield Finding("data", "source files", Level.OK, f"{len(found)} found ({how}) in {where}")


def read_every_block(con: duckdb.DuckDBPyConnection) -> int:
    """Read every row of every table, so each block's checksum is checked (a block overwritten
    inside the file fails only when read); returns the rows read."""
    tables = con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE'"
    ).fetchall()
    rows = 0
    for (table,) in tables:
        con.execute(f'SELECT * FROM "{table}"')
        while batch := con.fetchmany(50_000):
            rows += len(batch)
    return rows


def check_stores(settings: Settings, *, verify: bool = False) -> Iterator[Finding]:
    """kg.duckdb opens read-only and has rows (with ``verify``, every block is read and its
    checksum checked); the FAISS indexes load with ids in step (with ``verify``, their bytes
    match the digest their build kept). A store this user may not read is whole: the fix is
    its owner and mode, not a rebuild."""
    kg = settings.kg_path
    if not kg.exists():
        yield Finding("stores", kg.name, Level.FAIL, f"{kg} is not built", INGEST)
    else:
        try:
            con = duckdb.connect(str(kg), read_only=True)
            try:
                counts = {
                    table: int(con.execute(f"SELECT count(*) FROM {table}").fetchone()[0])  # type: ignore[index]
                    for table in ("nodes", "triples", "passages")
                }
                if verify:
                    read_every_block(con)
            finally:
                con.close()
            yield Finding(
                "stores",
                kg.name,
                Level.OK if counts["nodes"] and counts["triples"] else Level.FAIL,
                ", ".join(f"{n:,} {t}" for t, n in counts.items()),
                None if counts["nodes"] and counts["triples"] else REBUILD,
            )
        except duckdb.Error as exc:
            reason = _reason(exc)
            fix = _owner(kg) if "permission denied" in reason.lower() else REBUILD
            yield Finding("stores", kg.name, Level.FAIL, f"{kg} cannot be read ({reason})", fix)
    for name in ("names", "passages"):
        path = settings.stores_dir / f"{name}.faiss"
        try:
            index = VectorIndex.load(path)
        except IndexMissing as exc:
            said = str(exc).split("; rebuild")[0]
            fix = REBUILD if path.exists() or kg.exists() else INGEST
            fix = _owner(path) if "may not read it" in said else fix
            yield Finding("stores", path.name, Level.FAIL, said, fix)
            continue
        changed = VectorIndex.changed(path) if verify else None
        if changed is not None:
            yield Finding("stores", path.name, Level.FAIL, changed.split("; rebuild")[0], REBUILD)
            continue
        checked = ", its bytes as built" if verify and digest_path(path).is_file() else ""
        yield Finding(
            "stores", path.name, Level.OK, f"{len(index):,} vectors, ids in step{checked}"
        )


class Damaged(Exception):
    """The store's own check says its file is damaged (not merely unopenable right now)."""


DAMAGE_WORDS = ("corrupt", "malformed", "not a database", "not a valid duckdb", "checksum")


def _migrations_of(
    path: Path, sqlite: bool, *, verify: bool = False, frozen: bool = False
) -> list[str]:
    """The store's applied migrations, after its integrity check (``verify``: every page or
    block). ``frozen`` reads a SQLite file without its WAL or locks (``immutable``): what a
    full disk or a read-only directory still lets one check. Raises ``Damaged`` when the
    check finds damage, the driver's error when the file cannot be opened."""
    try:
        if sqlite:
            flags = "mode=ro&immutable=1" if frozen else "mode=ro"
            con = sqlite3.connect(f"file:{path}?{flags}", uri=True)
            try:
                check = "integrity_check" if verify else "quick_check"
                bad = con.execute(f"PRAGMA {check}").fetchone()
                if bad is None or bad[0] != "ok":
                    raise Damaged(f"integrity check: {bad[0] if bad else 'no answer'}")
                rows = con.execute("SELECT name FROM _migrations").fetchall()
            finally:
                con.close()
        else:
            dcon = duckdb.connect(str(path), read_only=True)
            try:
                rows = dcon.execute("SELECT name FROM _migrations").fetchall()
                if verify:
                    read_every_block(dcon)
            finally:
                dcon.close()
    except (duckdb.Error, sqlite3.Error) as exc:
        if any(word in str(exc).lower() for word in DAMAGE_WORDS):
            raise Damaged(_reason(exc)) from exc
        raise
    return [str(r[0]) for r in rows]


USER_STORES: tuple[tuple[str, Migrations, bool], ...] = (
    (VAULT_FILE, VAULT_MIGRATIONS, False),
    (EPISODIC_FILE, EPISODIC_MIGRATIONS, True),
    (CACHE_FILE, CACHE_MIGRATIONS, True),
    (SESSIONS_FILE, SESSIONS_MIGRATIONS, True),
)


def check_user(user_dir: Path, *, verify: bool = False) -> Iterator[Finding]:
    """The user's directory takes writes; each memory store opens read-only and passes its
    check (``verify``: every page), and which migrations it still needs. A store is called
    damaged, and moving it aside advised, only when its own check finds damage; one that
    cannot be opened because the disk is full or the directory read-only is said so."""
    blocked = write_problem(user_dir)
    if blocked:
        yield Finding(
            "users", _short(user_dir.name), Level.FAIL, blocked, _unblock(blocked, user_dir)
        )
    for name, migrations, sqlite in USER_STORES:
        path = user_dir / name
        if not path.exists():
            continue
        item = f"{_short(user_dir.name)}/{name}"
        try:
            done = _migrations_of(path, sqlite, verify=verify)
        except Damaged as exc:
            yield Finding(
                "users",
                item,
                Level.FAIL,
                f"{path} is damaged ({exc})",
                f"mv {path} {path}.broken  (a new, empty store is made on next use)",
            )
            continue
        except (duckdb.Error, sqlite3.Error) as exc:
            yield _unopenable(path, item, _reason(exc), blocked, sqlite)
            continue
        unknown = [m for m in done if m not in migrations.names()]
        pending = [m for m in migrations.names() if m not in done]
        if unknown:
            yield Finding(
                "users",
                item,
                Level.FAIL,
                f"written by a newer Helix (migration {unknown[0]} is unknown here)",
                "upgrade helix-ragxmem",
            )
        elif pending:
            yield Finding(
                "users", item, Level.OK, f"{len(pending)} migration(s) applied on next use"
            )
        else:
            yield Finding("users", item, Level.OK, f"schema current ({len(done)} migrations)")


def _unopenable(path: Path, item: str, text: str, blocked: str | None, sqlite: bool) -> Finding:
    """A store that would not open, though its check found no damage: in use, or kept from
    opening by the disk or the directory (then its main file is checked as it stands)."""
    if "lock" in text.lower() and not blocked:
        return Finding("users", item, Level.WARN, f"in use by another process ({text})")
    intact = ""
    if sqlite:
        try:
            _migrations_of(path, sqlite, frozen=True)
            intact = "; its data passes the integrity check, nothing is lost"
        except Damaged as exc:
            return Finding(
                "users",
                item,
                Level.FAIL,
                f"{path} is damaged ({exc})",
                f"mv {path} {path}.broken  (a new, empty store is made on next use)",
            )
        except sqlite3.Error:
            pass
    why = f" because {blocked}" if blocked else ""
    fix = (
        _unblock(blocked, path.parent)
        if blocked
        else (f"check who holds {path} and its permissions (the file is not damaged; keep it)")
    )
    return Finding("users", item, Level.FAIL, f"{path} cannot be opened ({text}){why}{intact}", fix)


def write_problem(folder: Path) -> str | None:
    """Why nothing can be written in ``folder`` (the disk is full, it is read-only), or None:
    a small file is written, synced and removed."""
    probe = folder / f".doctor-probe-{os.getpid()}"
    try:
        with probe.open("wb") as fh:
            fh.write(b"\0" * 4096)
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:
        return _why_unwritable(folder, exc)
    finally:
        with contextlib.suppress(OSError):
            probe.unlink()
    return None


def _why_unwritable(folder: Path, exc: OSError) -> str:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        free = shutil.disk_usage(folder).free
        return f"the disk holding {folder} is full ({free // 1024} KB free)"
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return f"{folder} is read-only ({exc.strerror})"
    return f"{folder} cannot be written ({exc.strerror or exc})"


def _unblock(blocked: str, folder: Path) -> str:
    if "full" in blocked:
        return f"free space on the disk holding {folder} (the stores are intact; keep them)"
    return f"make {folder} writable (the stores are intact; keep them)"


def check_space(settings: Settings, *, low: int = 64 * 1024 * 1024) -> Iterator[Finding]:
    """Free space on the disk of the data home: full is a failure, under ``low`` a warning."""
    where = settings.home
    while not where.exists() and where != where.parent:
        where = where.parent
    free = shutil.disk_usage(where).free
    detail = f"{free // (1024 * 1024):,} MB free"
    if free < 1024 * 1024:
        fix = f"free space on the disk holding {settings.home} (the stores are intact)"
        yield Finding("home", "free space", Level.FAIL, detail + ": full", fix)
    elif free < low:
        yield Finding("home", "free space", Level.WARN, detail + ": low", None)
    else:
        yield Finding("home", "free space", Level.OK, detail)


def check_database(settings: Settings, *, timeout: int = 5) -> Iterator[Finding]:
    """With ``HELIX_DATABASE_URL``: the database answers within ``timeout`` seconds and its
    schema is current."""
    url = settings.database_url
    if not url:
        return
    from memory.store.pg import DatabaseError, connect
    from memory.store.pg_schema import pending

    try:
        with connect(url, connect_timeout=timeout) as conn:
            todo = pending(conn)
    except DatabaseError as exc:
        yield Finding(
            "database",
            "HELIX_DATABASE_URL",
            Level.FAIL,
            _reason(exc),
            "start PostgreSQL (or correct HELIX_DATABASE_URL); nothing is lost meanwhile",
        )
        return
    if todo:
        yield Finding(
            "database",
            "HELIX_DATABASE_URL",
            Level.FAIL,
            f"reachable; migrations pending: {', '.join(todo)}",
            "helix-chat db migrate (as the schema owner)",
        )
    else:
        yield Finding("database", "HELIX_DATABASE_URL", Level.OK, "reachable, schema current")


def check_traces(user_dir: Path) -> Iterator[Finding]:
    """The user's span file: readable, and how many lines are not valid JSON."""
    path = user_dir / "traces" / "spans.jsonl"
    if not path.exists():
        return
    item = f"{_short(user_dir.name)}/traces/spans.jsonl"
    try:
        lines = path.read_bytes().split(b"\n")
    except OSError as exc:
        yield Finding(
            "traces",
            item,
            Level.FAIL,
            f"{path} cannot be read ({_reason(exc)})",
            f"mv {path} {path}.broken",
        )
        return
    bad = 0
    total = 0
    for raw in lines:
        if not raw.strip():
            continue
        total += 1
        try:
            json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            bad += 1
    if bad:
        yield Finding(
            "traces",
            item,
            Level.WARN,
            f"{bad} of {total} lines unreadable (skipped by helix-chat trace)",
            f"mv {path} {path}.old  (a new file is started on the next question)",
        )
    else:
        yield Finding("traces", item, Level.OK, f"{total} lines")


def diagnose(settings: Settings, *, rehash: bool = False) -> list[Finding]:
    """Every finding for the data home of ``settings``; ``rehash`` (``doctor --verify``)
    re-hashes the source files and reads every block of every store."""
    findings = [
        *check_space(settings),
        *check_database(settings),
        *check_data(settings, rehash=rehash),
        *check_stores(settings, verify=rehash),
    ]
    users = settings.users_dir
    if users.exists() and not users.is_dir():
        findings.append(
            Finding(
                "users",
                str(users),
                Level.FAIL,
                f"{users} is not a directory",
                f"mv {users} {users}.broken",
            )
        )
    elif users.is_dir():
        for user_dir in sorted(p for p in users.iterdir() if p.is_dir()):
            findings += [*check_user(user_dir, verify=rehash), *check_traces(user_dir)]
    return findings
