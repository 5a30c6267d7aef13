"""How long the chat's first answer takes when the question is typed as the window opens.

Each run is a new process (a cold start, as ``helix-chat`` is) and a new user (a home of its
own over ``--home``'s stores: no memory, no cached answer): it builds the real app, drives it
headless at 120x40 with Textual's Pilot, types the question the moment the first screen is
mounted, and waits for the answer to be handed to its widgets. With ``--tmux`` it runs the
real ``helix-chat`` in a 120x40 tmux window instead (painting included, no breakdown) and
reads the screen. It prints one JSON line per run and then the medians:

- ``open_s``: from the process start to the window being up (the app mounted);
- ``answer_s``: from the window being up to the answer shown (the figure of issue 35, goal 2 s);
- ``engine_s``, ``memory_s``, ``turn_s``: what the first answer waited on, measured around the
  app's own service calls (opening the engine, opening the user's memory, the turn itself).

    PYTHONPATH=. python bench/chat/first_answer.py --home /work/homes/d21 --runs 5

A run that has no answer after ``--timeout`` seconds is reported as failed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
QUESTION = "Which drugs treat asthma?"


def child(home: Path, question: str, user: str, timeout: float, started: float) -> None:
    """One cold start of the app (run in its own process); prints its timings as JSON."""
    import asyncio
    from dataclasses import replace

    stamps: dict[str, float] = {}
    spans: dict[str, tuple[float, float]] = {}

    def timed(name: str, fn):  # type: ignore[no-untyped-def]
        def call(*args, **kwargs):  # type: ignore[no-untyped-def]
            t = time.time()
            try:
                return fn(*args, **kwargs)
            finally:
                stamps[f"{name}_s"] = stamps.get(f"{name}_s", 0.0) + time.time() - t
                spans.setdefault(name, (t, time.time()))

        return call

    async def run() -> dict[str, object]:
        from engine.config import Settings
        from helix_tui.app import make_app
        from helix_tui.services import default_services
        from helix_tui.widgets.assistant_turn import AssistantTurn
        from helix_tui.widgets.prompt import PromptInput

        settings = Settings(home=home, user=user)
        base = default_services()
        services = replace(
            base,
            open_engine=timed("engine", base.open_engine),
            open_memory=timed("memory", base.open_memory),
        )
        import helix_tui.asking as asking
        from helix_tui.screens.chat_asking import ChatAsking

        asking.chat_turn = timed("turn", asking.chat_turn)  # type: ignore[assignment]
        shown = asyncio.Event()
        on_answer_ready = ChatAsking.on_answer_ready

        async def answer_shown(self, message):  # type: ignore[no-untyped-def]
            await on_answer_ready(self, message)  # the answer handed to its widgets
            stamps["shown"] = time.time()
            shown.set()

        ChatAsking.on_answer_ready = answer_shown  # type: ignore[method-assign]
        app = make_app(settings, services)
        async with app.run_test(size=(120, 40)) as pilot:
            opened = time.time()
            prompt = app.chat.query_one(PromptInput)
            prompt.value = question
            await pilot.press("enter")
            try:
                await asyncio.wait_for(shown.wait(), timeout)
            except TimeoutError:
                return {"error": f"no answer after {timeout} s", **stamps}
            answered = stamps.pop("shown")
            result = app.chat.query(AssistantTurn)[-1].result
            assert result is not None
            return {
                "open_s": round(opened - started, 3),
                "answer_s": round(answered - opened, 3),
                **{k: round(v, 3) for k, v in stamps.items()},
                "timeline": {  # seconds after the window was up: start, end
                    k: [round(a - opened, 3), round(b - opened, 3)] for k, (a, b) in spans.items()
                },
                "status": result.status.value,
                "answers": [a.name for a in result.answers[:3]],
                "load": os.getloadavg()[0],
            }

    print(json.dumps(asyncio.run(run())), flush=True)


def answer_shown(screen: str) -> bool:
    """The answer's first words are on screen: the line under the turn's step summary
    ("… ctrl+t trace") is text, not the bottom of its box."""
    lines = screen.splitlines()
    for n, line in enumerate(lines[:-1]):
        if "ctrl+t trace" in line:
            after = lines[n + 1].strip()
            return not after.startswith("╰") and len(after.strip("│ ")) > 0
    return False


def in_tmux(
    home: Path, question: str, user: str, timeout: float, env: dict[str, str]
) -> dict[str, object]:
    """One cold start of the real ``helix-chat`` in a 120x40 tmux window: the window is up when
    the welcome is painted; the question is typed then; the answer has arrived when its first
    words are on screen (``answer_shown``)."""
    name = f"helix-first-answer-{os.getpid()}"
    chat = [sys.executable, "-m", "helix_tui.cli", "--home", str(home), "--user", user]
    env_args = [a for k in ("HELIX_CONFIG_DIR", "PYTHONPATH") for a in ("-e", f"{k}={env[k]}")]

    def screen() -> str:
        out = subprocess.run(
            ["tmux", "capture-pane", "-p", "-t", name], capture_output=True, text=True, check=False
        )
        return out.stdout

    def wait_for(seen: Callable[[str], bool], since: float) -> float | None:
        while time.time() - since < timeout:
            if seen(screen()):
                return time.time()
            time.sleep(0.01)
        return None

    started = time.time()
    subprocess.run(
        ["tmux", "new-session", "-d", "-x", "120", "-y", "40", "-s", name, *env_args, *chat],
        check=True,
    )
    try:
        opened = wait_for(lambda s: "Welcome to Helix" in s, started)
        if opened is None:
            return {"error": f"no window after {timeout} s", "screen": screen()}
        subprocess.run(["tmux", "send-keys", "-t", name, "-l", question], check=True)
        subprocess.run(["tmux", "send-keys", "-t", name, "Enter"], check=True)
        answered = wait_for(answer_shown, opened)
        if answered is None:
            return {"error": f"no answer after {timeout} s", "screen": screen()}
        return {
            "open_s": round(opened - started, 3),
            "answer_s": round(answered - opened, 3),
            "load": os.getloadavg()[0],
        }
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], check=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, default=os.environ.get("HELIX_HOME"))
    parser.add_argument("--question", default=QUESTION)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--out", type=Path, help="also write the runs and medians here (JSON)")
    parser.add_argument(
        "--tmux",
        action="store_true",
        help="run the real helix-chat in a 120x40 tmux window instead of "
        "Textual's headless Pilot (painting included; no breakdown)",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--started", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--user", default="bench-first-answer")
    parser.add_argument(
        "--repo",
        type=Path,
        default=REPO,
        help="the checkout whose code runs (default: this one's), to time "
        "another branch with the same bench",
    )
    args = parser.parse_args()
    if args.home is None:
        raise SystemExit("give --home (or set HELIX_HOME): a data home with built stores")
    if args.child:
        child(args.home, args.question, args.user, args.timeout, args.started)
        return
    runs: list[dict[str, object]] = []
    stores = args.home.resolve() / "stores"
    for _ in range(args.runs):
        # a new user each run (a home of its own over the same stores): no memory, no
        # answer cache, nothing left behind in --home's users
        with tempfile.TemporaryDirectory() as tmp:
            home, config = Path(tmp) / "home", Path(tmp) / "config"
            home.mkdir()
            (home / "stores").symlink_to(stores, target_is_directory=True)
            env = {**os.environ, "HELIX_CONFIG_DIR": str(config), "PYTHONPATH": str(args.repo)}
            if args.tmux:
                run = in_tmux(home, args.question, args.user, args.timeout, env)
                runs.append(run)
                print(json.dumps(run), flush=True)
                continue
            started = time.time()
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--child",
                    "--home",
                    str(home),
                    "--question",
                    args.question,
                    "--user",
                    args.user,
                    "--timeout",
                    str(args.timeout),
                    "--started",
                    repr(started),
                ],
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            lines = [ln for ln in out.stdout.splitlines() if ln.startswith("{")]
            run = json.loads(lines[-1]) if lines else {"error": out.stderr[-2000:]}
            runs.append(run)
            print(json.dumps(run), flush=True)
    ok = [r for r in runs if "error" not in r]
    keys = ("open_s", "answer_s", "engine_s", "memory_s", "turn_s", "load")
    medians = {
        k: round(statistics.median(float(r[k]) for r in ok if k in r), 3)  # type: ignore[arg-type]
        for k in keys
        if any(k in r for r in ok)
    }
    summary = {
        "question": args.question,
        "runs": len(runs),
        "failed": len(runs) - len(ok),
        "median": medians,
    }
    print(json.dumps(summary), flush=True)
    if args.out is not None:
        args.out.write_text(json.dumps({"summary": summary, "runs": runs}, indent=1) + "\n")


if __name__ == "__main__":
    main()
