"""A throw-away PostgreSQL server for the test session (the binaries the machine has).

``start_server()`` finds ``initdb``/``pg_ctl`` (PATH, then /usr/lib/postgresql/*/bin), makes
a cluster in a temporary directory (as the ``postgres`` user when running as root, since the
server refuses root), starts it on a free 127.0.0.1 port, creates the schema owner
``helix_owner`` and the application role ``helix_app`` (neither a superuser) and migrates the
``helix`` database. ``reset()`` empties every table between tests; ``halt()`` and ``start()``
take it down and back up; ``stop()`` removes it all.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import psycopg

from memory.relations import load_catalog
from memory.store.pg_schema import USER_TABLES, grant, migrate_pg, sync_catalog


def find_bindir() -> Path | None:
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).parent
    for bindir in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(bindir) / "pg_ctl").exists() and (Path(bindir) / "initdb").exists():
            return Path(bindir)
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_server_user(cmd: list[str]) -> list[str]:
    if os.geteuid() == 0:
        runuser = shutil.which("runuser")
        if runuser is None:
            raise RuntimeError("running as root without runuser: cannot start PostgreSQL")
        return [runuser, "-u", "postgres", "--", *cmd]
    return cmd


@dataclass
class PgServer:
    bindir: Path
    root: Path
    port: int

    def url(self, role: str, db: str = "helix") -> str:
        return f"postgresql://{role}@127.0.0.1:{self.port}/{db}"

    @property
    def admin_url(self) -> str:
        return self.url("postgres", "postgres")

    @property
    def owner_url(self) -> str:
        return self.url("helix_owner")

    @property
    def app_url(self) -> str:
        return self.url("helix_app")

    def pg_ctl(self, *args: str) -> None:
        cmd = [str(self.bindir / "pg_ctl"), "-D", str(self.root / "data"), *args]
        subprocess.run(_as_server_user(cmd), check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        """Start (or restart, after ``halt``) the server on its port."""
        opts = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c max_connections=200"
        )
        self.pg_ctl("start", "-w", "-t", "60", "-o", opts, "-l", str(self.root / "log"))

    def halt(self) -> None:
        """Stop the server at once, as a crash would (its files stay; ``start`` again)."""
        self.pg_ctl("stop", "-m", "immediate")

    def reset(self) -> None:
        """Empty every table (a fresh memory for the next test)."""
        with psycopg.connect(self.owner_url, autocommit=True) as conn:
            conn.execute(f"TRUNCATE {', '.join(USER_TABLES)}, helix.users, helix.tokens CASCADE")

    def stop(self) -> None:
        try:
            self.pg_ctl("stop", "-m", "immediate")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def start_server(bindir: Path) -> PgServer:
    root = Path(tempfile.mkdtemp(prefix="helix-pg-"))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
    server = PgServer(bindir, root, free_port())
    initdb = [str(bindir / "initdb"), "-D", str(root / "data"), "-A", "trust", "-U", "postgres"]
    subprocess.run(
        _as_server_user([*initdb, "-E", "UTF8", "--no-sync"]),
        check=True,
        capture_output=True,
        timeout=120,
    )
    server.start()
    with psycopg.connect(server.admin_url, autocommit=True) as conn:
        conn.execute("CREATE ROLE helix_owner LOGIN")
        conn.execute("CREATE ROLE helix_app LOGIN")
        conn.execute("CREATE DATABASE helix OWNER helix_owner")
    with psycopg.connect(server.owner_url, autocommit=True) as conn:
        migrate_pg(conn, "2026-01-01T00:00:00Z")
        sync_catalog(conn, load_catalog().functional_relations())
        grant(conn, "helix_app")
    return server
