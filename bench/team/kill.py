"""``kill -9`` of a team-server process in the middle of writes, bounded, on 127.0.0.1.

Two server processes share one throw-away PostgreSQL; writer threads on both store facts
(unique patients, and supersessions of one shared note per user); after ``--kill-after``
seconds one server gets SIGKILL. Then: every write that was acknowledged must be in the
database, the other server must have kept acknowledging writes after the kill, and each
(user, subject, relation) must still have one current value.

    PYTHONPATH=. python bench/team/kill.py --home /tmp/h12 --out bench/team/kill.json
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.team.harness import (
    COMPOUNDS,
    call,
    facts_rows,
    make_tokens,
    several_current,
    start_mcp,
    start_pg,
)
from memory.store.pg import pg_key


def writer(n: int, user: str, token: str, url: str, stop_at: float, out: dict[str, Any]) -> None:
    acked: list[tuple[str, str, str, float]] = []
    failures = 0
    with httpx.Client(timeout=30) as http:
        for k in range(400):
            if time.monotonic() > stop_at:
                break
            if k % 2:
                fact = (f"note:{user}-lead", "lead_compound", COMPOUNDS[(n + k) % 5])
            else:
                fact = (f"patient:{n + 1}{k:04d}", "allergic_to", COMPOUNDS[k % 5])
            try:
                res = call(
                    http,
                    url,
                    token,
                    "memory_store",
                    dict(zip(("subj", "rel", "obj"), fact, strict=True)),
                )
            except Exception:
                failures += 1
                time.sleep(0.05)
                continue
            if res.get("stored"):
                acked.append((*fact, time.monotonic()))
    out[f"w{n}"] = {"user": user, "url": url, "acked": acked, "failures": failures}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--writers", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=12.0)
    parser.add_argument("--kill-after", type=float, default=4.0)
    parser.add_argument("--engine-factory")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    pg = start_pg()
    procs: list[Any] = []
    try:
        users = [f"user{i}" for i in range(args.writers // 2)]
        tokens = make_tokens(pg, users, 2)
        procs = [start_mcp(pg, args.home, args.engine_factory) for _ in range(2)]
        with httpx.Client(timeout=120) as http:
            for _, url in procs:  # open each server's engine and memory first
                call(http, url, tokens[users[0]][0], "memory_search", {"query": "warm"})
        results: dict[str, Any] = {}
        stop_at = time.monotonic() + args.seconds
        threads = [
            threading.Thread(
                target=writer,
                args=(n, users[n // 2], tokens[users[n // 2]][n % 2], procs[n % 2][1], stop_at),
                kwargs={"out": results},
            )
            for n in range(len(users) * 2)
        ]
        for t in threads:
            t.start()
        time.sleep(args.kill_after)
        victim, victim_url = procs[0]
        victim.send_signal(signal.SIGKILL)
        killed_at = time.monotonic()
        for t in threads:
            t.join(timeout=args.seconds + 60)
        rows = facts_rows(pg)
        own = {(u, s, r, o) for u, s, r, o, _ in rows}
        acked = [(w["user"], *f[:3]) for w in results.values() for f in w["acked"]]
        lost = [a for a in acked if (pg_key(a[0]), *a[1:]) not in own]
        survivor = [w for w in results.values() if w["url"] != victim_url]
        after = sum(1 for w in survivor for f in w["acked"] if f[3] > killed_at)
        report = {
            "killed_after_s": args.kill_after,
            "acknowledged_writes": len(acked),
            "acknowledged_on_killed_server": sum(
                len(w["acked"]) for w in results.values() if w["url"] == victim_url
            ),
            "lost_acknowledged_writes": len(lost),
            "failed_calls_on_killed_server": sum(
                w["failures"] for w in results.values() if w["url"] == victim_url
            ),
            "failed_calls_on_other_server": sum(w["failures"] for w in survivor),
            "other_server_writes_after_kill": after,
            "groups_with_several_current_values": several_current(pg),
        }
        print(json.dumps(report, indent=1))
        if args.out:
            args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        ok = not lost and after > 0 and not report["failed_calls_on_other_server"]
        return 0 if ok and not report["groups_with_several_current_values"] else 1
    finally:
        for proc, _ in procs:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(timeout=20)
        pg.stop()


if __name__ == "__main__":
    sys.exit(main())
