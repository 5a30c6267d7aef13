"""Load test of the team server, bounded and on 127.0.0.1 only.

Starts a throw-away PostgreSQL and N server processes (``python -m helix_mcp --http`` with
``HELIX_DATABASE_URL``) on one database; C concurrent clients, each with its own bearer token
(two clients per user, on different servers), each make ``--rounds`` rounds of ask + memory
write + memory search. Every other write supersedes the same (note, lead_compound) from both
clients of a user at once. Then it checks: errors, acknowledged writes missing from the
database, facts in any search result that are not the caller's own rows, and (user, subject,
relation) with more than one current value; and reports p50/p95 per tool.

    PYTHONPATH=. python bench/team/load.py --home /tmp/h12 --out bench/team/load.json

Stops by itself: every request has a timeout and the run a deadline (``--time-limit``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.team.harness import (
    COMPOUNDS,
    REPO,
    call,
    facts_rows,
    make_tokens,
    percentile,
    several_current,
    start_mcp,
    start_pg,
)
from memory.store.pg import pg_key

QUESTIONS = REPO.parent / "shared" / "bench" / "kgqa_dev.jsonl"


def questions(path: Path, n: int) -> list[str]:
    """The first ``n`` questions of ``path`` (JSON lines with a "question"); a missing file
    stops the run: two stand-in questions asked over and over would measure a cache."""
    if not path.is_file():
        raise SystemExit(f"no questions file at {path}: give --questions FILE (JSON lines)")
    lines = path.read_text(encoding="utf-8").splitlines()[:n]
    return [json.loads(line)["question"] for line in lines]


class Client(threading.Thread):
    def __init__(self, n: int, user: str, token: str, url: str, run: Run) -> None:
        super().__init__(name=f"client-{n}", daemon=True)
        self.n, self.user, self.token, self.url, self.run_ = n, user, token, url, run
        self.acked: list[tuple[str, str, str]] = []
        self.seen: list[tuple[str, str, str]] = []

    def timed(
        self, http: httpx.Client, tool: str, args: dict[str, Any], k: int
    ) -> dict[str, Any] | None:
        start = time.perf_counter()
        try:
            out = call(http, self.url, self.token, tool, args)
        except Exception as exc:
            self.run_.error(tool, f"{type(exc).__name__}: {exc}")
            return None
        self.run_.latency(tool, time.perf_counter() - start, k)
        return out

    def run(self) -> None:
        qs = self.run_.questions
        with httpx.Client(timeout=self.run_.request_timeout) as http:
            for k in range(self.run_.rounds):
                if time.monotonic() > self.run_.deadline:
                    self.run_.error("deadline", "round not started before the time limit")
                    return
                self.timed(http, "ask", {"question": qs[(self.n + k) % len(qs)]}, k)
                if k % 2 == 0:  # both clients of this user supersede the same value at once
                    fact = (f"note:{self.user}-lead", "lead_compound", COMPOUNDS[(k + self.n) % 5])
                else:
                    mrn = f"{self.run_.user_no[self.user]}{self.n:02d}{k:02d}"
                    fact = (f"patient:{mrn}", "allergic_to", COMPOUNDS[k % 5])
                out = self.timed(
                    http, "memory_store", {"subj": fact[0], "rel": fact[1], "obj": fact[2]}, k
                )
                if out and out.get("stored"):
                    self.acked.append(fact)
                query = f"note:{self.user}-lead" if k % 3 == 0 else "allergic"
                found = self.timed(http, "memory_search", {"query": query, "limit": 200}, k)
                for f in (found or {}).get("facts", []):
                    self.seen.append((f["subj"], f["rel"], f["obj"]))


class Run:
    def __init__(self, args: argparse.Namespace, users: list[str]) -> None:
        self.rounds = args.rounds
        self.request_timeout = args.request_timeout
        self.deadline = time.monotonic() + args.time_limit
        self.questions: list[str] = args.asked
        self.user_no = {u: str(i + 1) for i, u in enumerate(users)}
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.first_round: dict[str, list[float]] = defaultdict(list)
        """Latencies of round 0, when every client asks a question new to its server at once."""
        self.errors: list[tuple[str, str]] = []
        self._lock = threading.Lock()

    def latency(self, tool: str, seconds: float, k: int) -> None:
        with self._lock:
            self.latencies[tool].append(seconds)
            if k == 0:
                self.first_round[tool].append(seconds)

    def error(self, tool: str, what: str) -> None:
        with self._lock:
            self.errors.append((tool, what))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, required=True, help="HELIX_HOME with built stores")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--time-limit", type=float, default=900.0)
    parser.add_argument("--request-timeout", type=float, default=180.0)
    parser.add_argument("--questions", type=Path, default=QUESTIONS, help="JSON lines to ask")
    parser.add_argument("--engine-factory", help="module:attr of a stand-in engine (tests)")
    parser.add_argument("--workers", type=int, help="HELIX_TEAM_WORKERS of each server")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    args.asked = questions(args.questions, 40)  # before anything is started
    args.clients = min(args.clients, 40)
    args.rounds = min(args.rounds, 20)

    pg = start_pg()
    procs: list[Any] = []
    try:
        users = [f"user{i:02d}" for i in range((args.clients + 1) // 2)]
        tokens = make_tokens(pg, users, 2)
        started = time.monotonic()
        for _ in range(args.servers):
            procs.append(start_mcp(pg, args.home, args.engine_factory, args.workers))
        warm = tokens[users[0]][0]
        with httpx.Client(timeout=args.request_timeout) as http:
            for _, url in procs:  # open each server's engine before the clock starts
                call(http, url, warm, "ask", {"question": "What are the symptoms of psoriasis?"})
        print(f"{args.servers} servers warm in {time.monotonic() - started:.1f}s", flush=True)
        run = Run(args, users)
        clients = [
            Client(n, users[n // 2], tokens[users[n // 2]][n % 2], procs[n % len(procs)][1], run)
            for n in range(args.clients)
        ]
        load = os.getloadavg()  # the machine's other work, before the clients start
        t0 = time.monotonic()
        for c in clients:
            c.start()
        for c in clients:
            c.join(timeout=max(1.0, run.deadline - time.monotonic() + args.request_timeout))
        wall = time.monotonic() - t0
        rows = facts_rows(pg)
        own: dict[str, set[tuple[str, str, str]]] = defaultdict(set)
        for user_id, s, r, o, _ in rows:
            own[user_id].add((s, r, o))
        lost = sum(1 for c in clients for f in c.acked if f not in own[pg_key(c.user)])
        foreign = sum(1 for c in clients for f in c.seen if f not in own[pg_key(c.user)])
        report = {
            "servers": args.servers,
            "workers": args.workers,
            "clients": args.clients,
            "rounds": args.rounds,
            "wall_s": round(wall, 1),
            "calls": {t: len(v) for t, v in run.latencies.items()},
            "errors": len(run.errors),
            "error_samples": run.errors[:5],
            "acknowledged_writes": sum(len(c.acked) for c in clients),
            "lost_acknowledged_writes": lost,
            "facts_seen_in_searches": sum(len(c.seen) for c in clients),
            "foreign_rows_in_results": foreign,
            "groups_with_several_current_values": several_current(pg),
            "latency_s": {
                t: {"p50": round(percentile(v, 0.5), 3), "p95": round(percentile(v, 0.95), 3)}
                for t, v in sorted(run.latencies.items())
            },
            "first_round_latency_s": {
                t: {"p50": round(percentile(v, 0.5), 3), "max": round(max(v), 3)}
                for t, v in sorted(run.first_round.items())
            },
            "load_average_at_start": [round(x, 2) for x in load],
            "still_running_clients": sum(c.is_alive() for c in clients),
        }
        print(json.dumps(report, indent=1))
        if args.out:
            args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        bad = report["errors"] or lost or foreign or report["groups_with_several_current_values"]
        return 1 if bad else 0
    finally:
        for proc, _ in procs:
            proc.terminate()
        for proc, _ in procs:
            try:
                proc.wait(timeout=20)
            except Exception:
                proc.kill()
        pg.stop()


if __name__ == "__main__":
    sys.exit(main())
