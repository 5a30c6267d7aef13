"""Load: one MCP server per user over streamable HTTP on 127.0.0.1 (the server's user is fixed
for its life), all driven at once by concurrent client sessions mixing asks, memory writes and
searches. Zero errors, zero results from another user's memory; p50/p95 per tool printed."""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import anyio
import pytest
from mcp import Client

from tests.reliability.conftest import REPO

FAKE_ENGINE = REPO / "tests" / "support" / "fake_engine.py"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(home: Path, user: str, port: int, fake: bool) -> subprocess.Popen[bytes]:
    extra = ["--engine-factory", f"{FAKE_ENGINE}:make_engine"] if fake else []
    return subprocess.Popen(
        [sys.executable, "-m", "helix_mcp", "--user", user, "--http", "--port", str(port), *extra],
        env={
            "HELIX_HOME": str(home),
            "HELIX_TRACE_EXPORTER": "none",
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(home),
            "PYTHONPATH": str(REPO),
        },
        cwd=str(REPO),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _wait_listening(port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"no server on port {port}")


async def _session(
    url: str, user: int, users: int, rounds: int, question: str, times: dict, problems: list
) -> None:
    mrn = 7000 + user
    async with Client(url, read_timeout_seconds=120) as client:

        async def call(tool: str, args: dict) -> object:
            t = time.perf_counter()
            res = await client.call_tool(tool, args)
            times[tool].append((time.perf_counter() - t) * 1000)
            if res.is_error:
                problems.append(f"user {user} {tool}: {res.content[0].text}")
            return res

        t = time.perf_counter()
        await client.call_tool("memory_search", {"query": "warm up"})
        times["(first call: opens engine and memory)"].append((time.perf_counter() - t) * 1000)
        for r in range(rounds):
            await call(
                "memory_store",
                {"statement": f"MRN {mrn} was started on metformin today (round {r})."},
            )
            await call("ask", {"question": question})
            own = await call("memory_search", {"query": f"MRN {mrn}"})
            if not own.is_error and not own.structured_content["facts"]:
                problems.append(f"user {user} lost its own fact")
            other = 7000 + (user + 1) % users
            if other != mrn:
                seen = await call("memory_search", {"query": f"MRN {other}"})
                if not seen.is_error and seen.structured_content["facts"]:
                    problems.append(f"LEAK: user {user} saw MRN {other}")
                asked = await call("ask", {"question": f"What is MRN {other} on right now?"})
                if not asked.is_error and asked.structured_content["answers"]:
                    problems.append(f"LEAK: user {user} got an answer about MRN {other}")


def _report(times: dict[str, list[float]]) -> str:
    lines = [f"{'tool':<40} {'calls':>6} {'p50 ms':>8} {'p95 ms':>8}"]
    for tool, values in sorted(times.items()):
        values = sorted(values)
        p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
        lines.append(f"{tool:<40} {len(values):>6} {statistics.median(values):>8.1f} {p95:>8.1f}")
    return "\n".join(lines)


def run_load(home: Path, users: int, rounds: int, *, fake: bool, question: str) -> None:
    ports = [_free_port() for _ in range(users)]
    procs = [_start(home, f"load{u}", p, fake) for u, p in enumerate(ports)]
    times: dict[str, list[float]] = defaultdict(list)
    problems: list[str] = []
    try:
        for port in ports:
            _wait_listening(port, 120)

        async def all_sessions() -> None:
            with anyio.fail_after(600):
                async with anyio.create_task_group() as tg:
                    for u, port in enumerate(ports):
                        url = f"http://127.0.0.1:{port}/mcp"
                        tg.start_soon(_session, url, u, users, rounds, question, times, problems)

        t = time.perf_counter()
        anyio.run(all_sessions)
        wall = time.perf_counter() - t
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=20)
    calls = sum(len(v) for v in times.values())
    leaks = [p for p in problems if p.startswith("LEAK")]
    print(f"\n{users} users x {rounds} rounds, {calls} calls in {wall:.1f} s")
    print(_report(times))
    print(f"errors: {len(problems) - len(leaks)}, cross-user results: {len(leaks)}")
    assert problems == []


def test_concurrent_users_over_http(tmp_path: Path) -> None:
    """Fake engine, real per-user memory: the transport, concurrency and isolation."""
    run_load(tmp_path, users=4, rounds=6, fake=True, question="Which drugs treat diabetes?")


@pytest.mark.slow
@pytest.mark.integration
def test_concurrent_users_over_http_on_the_real_engine(tmp_path: Path, small_home: Path) -> None:
    import shutil

    shutil.copytree(small_home / "stores", tmp_path / "stores")
    run_load(
        tmp_path, users=3, rounds=5, fake=False, question="What drugs treat Alzheimer's disease?"
    )
