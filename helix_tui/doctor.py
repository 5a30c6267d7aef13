"""``helix-chat doctor``'s checks: the data directory, the stores, each user's stores and traces.

Every check only reads (DuckDB and SQLite files are opened read-only) and ends in a ``Finding``:
what was looked at, what was found, and for a problem the command that fixes it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import duckdb

from engine.config import Settings
from engine.index.vectors import IndexMissing, VectorIndex
from engine.ingest.build import stores_ready
from engine.ingest.datadir import State, locate, search_dirs
from engine.ingest.manifest import ManifestError, default_manifest
from memory.cache import CACHE_FILE
from memory.cache import MIGRATIONS as CACHE_MIGRATIONS
from memory.episodic import EPISODIC_FILE
from memory.episodic import MIGRATIONS as EPISODIC_MIGRATIONS
from memory.migrate import Migrations
from memory.vault import MIGRATIONS as VAULT_MIGRATIONS
from memory.vault import VAULT_FILE

INGEST = "helix-chat ingest"
REBUILD = "helix-chat ingest --force"


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


def _reason(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0][:200] if lines else type(exc).__name__


def check_data(settings: Settings, *, rehash: bool = False) -> Iterator[Finding]:
    """The source manifest and where its hetionet files are found (with ``rehash``, by sha256)."""
    try:
        manifest = default_manifest().for_layers(["hetionet"])
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


def check_stores(settings: Settings) -> Iterator[Finding]:
    """kg.duckdb opens read-only and has rows; the FAISS indexes load with ids in step."""
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
            yield Finding(
                "stores", kg.name, Level.FAIL, f"{kg} cannot be read ({_reason(exc)})", REBUILD
            )
    for name in ("names", "passages"):
        path = settings.stores_dir / f"{name}.faiss"
        try:
            index = VectorIndex.load(path)
        except IndexMissing as exc:
            fix = REBUILD if path.exists() or kg.exists() else INGEST
            yield Finding("stores", path.name, Level.FAIL, str(exc).split("; rebuild")[0], fix)
            continue
        yield Finding("stores", path.name, Level.OK, f"{len(index):,} vectors, ids in step")


def _migrations_of(path: Path, sqlite: bool) -> list[str]:
    if sqlite:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            bad = con.execute("PRAGMA quick_check").fetchone()
            if bad is None or bad[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check: {bad[0] if bad else 'no answer'}")
            rows = con.execute("SELECT name FROM _migrations").fetchall()
        finally:
            con.close()
    else:
        dcon = duckdb.connect(str(path), read_only=True)
        try:
            rows = dcon.execute("SELECT name FROM _migrations").fetchall()
        finally:
            dcon.close()
    return [str(r[0]) for r in rows]


USER_STORES: tuple[tuple[str, Migrations, bool], ...] = (
    (VAULT_FILE, VAULT_MIGRATIONS, False),
    (EPISODIC_FILE, EPISODIC_MIGRATIONS, True),
    (CACHE_FILE, CACHE_MIGRATIONS, True),
)


def check_user(user_dir: Path) -> Iterator[Finding]:
    """Each memory store of one user opens read-only, and which migrations it still needs."""
    for name, migrations, sqlite in USER_STORES:
        path = user_dir / name
        if not path.exists():
            continue
        item = f"{user_dir.name}/{name}"
        try:
            done = _migrations_of(path, sqlite)
        except (duckdb.Error, sqlite3.Error) as exc:
            text = _reason(exc)
            if "lock" in text.lower():
                yield Finding("users", item, Level.WARN, f"in use by another process ({text})")
                continue
            yield Finding(
                "users",
                item,
                Level.FAIL,
                f"{path} cannot be read ({text})",
                f"mv {path} {path}.broken  (a new, empty store is made on next use)",
            )
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


def check_traces(user_dir: Path) -> Iterator[Finding]:
    """The user's span file: readable, and how many lines are not valid JSON."""
    path = user_dir / "traces" / "spans.jsonl"
    if not path.exists():
        return
    item = f"{user_dir.name}/traces/spans.jsonl"
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
    """Every finding for the data home of ``settings``."""
    findings = [*check_data(settings, rehash=rehash), *check_stores(settings)]
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
            findings += [*check_user(user_dir), *check_traces(user_dir)]
    return findings
