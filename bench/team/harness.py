"""Shared pieces of the team-server benches: a throw-away PostgreSQL, server processes on
127.0.0.1, JSON-RPC calls with a bearer token, and the database checks (as the superuser,
which row-level security does not bind, so the checks see every user's rows)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from memory.store.pg import connect  # noqa: E402
from memory.store.pg_admin import add_user  # noqa: E402
from tests.support.postgres import PgServer, find_bindir, free_port, start_server  # noqa: E402

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
COMPOUNDS = [
    "Compound::DB00843",
    "Compound::DB00945",
    "Compound::DB01050",
    "Compound::DB00331",
    "Compound::DB00316",
]


def start_pg() -> PgServer:
    bindir = find_bindir()
    if bindir is None:
        raise SystemExit("PostgreSQL not found (pg_ctl on PATH or /usr/lib/postgresql/*/bin)")
    return start_server(bindir)


def make_tokens(server: PgServer, users: list[str], per_user: int) -> dict[str, list[str]]:
    with connect(server.owner_url) as conn:
        return {u: [add_user(conn, u) for _ in range(per_user)] for u in users}


def start_mcp(
    server: PgServer, home: Path, engine_factory: str | None, workers: int | None = None
) -> tuple[Any, str]:
    """A team server process on a free port of 127.0.0.1 over ``home``'s stores and
    ``server``'s database; ``workers``: its ``HELIX_TEAM_WORKERS`` (default: the setting's)."""
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("HELIX_")},
        **({"HELIX_TEAM_WORKERS": str(workers)} if workers else {}),
        "HELIX_HOME": str(home),
        "HELIX_TRACE_EXPORTER": "none",
        "HELIX_DATABASE_URL": server.app_url,
        "PYTHONPATH": str(REPO),
    }
    args = [sys.executable, "-m", "helix_mcp", "--http", "--port", str(port)]
    if engine_factory:
        args += ["--engine-factory", engine_factory]
    logs = Path(tempfile.gettempdir()) / "helix-team-bench"  # never in the data home
    logs.mkdir(exist_ok=True)
    log = open(logs / f"server-{port}.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(args, env=env, cwd=REPO, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            if proc.poll() is not None:
                raise SystemExit(f"server exited; see {log.name}") from None
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("server did not start within 120 s")


def call(
    client: httpx.Client, url: str, token: str, tool: str, args: dict[str, Any]
) -> dict[str, Any]:
    """One tool call; returns the structured result, or raises with the error."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
    body["params"] = {"name": tool, "arguments": args}  # type: ignore[assignment]
    headers = {**HEADERS, "Authorization": f"Bearer {token}"}
    resp = client.post(url, headers=headers, content=json.dumps(body))
    resp.raise_for_status()
    data = resp.json()
    if "error" in data:
        raise RuntimeError(f"{tool}: {data['error']}")
    result = data["result"]
    if result.get("isError"):
        raise RuntimeError(f"{tool}: {result['content'][0]['text'][:200]}")
    return dict(result.get("structuredContent") or {})


def facts_rows(server: PgServer) -> list[tuple[str, str, str, str, bool]]:
    """(user_id, subj, rel, obj, current) of every fact of every user."""
    with psycopg.connect(server.url("postgres"), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT user_id, subj, rel, obj, t_end IS NULL FROM helix_vault.facts"
        ).fetchall()
    return [(str(a), str(b), str(c), str(d), bool(e)) for a, b, c, d, e in rows]


def several_current(server: PgServer) -> int:
    """(user, subject, relation, key) groups of a functional relation with >1 current value."""
    with psycopg.connect(server.url("postgres"), autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM helix_vault.facts WHERE t_end IS NULL AND "
            "functional GROUP BY user_id, subj, rel, key HAVING count(*) > 1) g"
        ).fetchone()
    return int(row[0]) if row else -1


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]
