"""A local OpenAI-compatible server for trying the LLM paths end to end (loopback only).

``--mode oracle`` answers edge prompts from Helix's own local planner (a deterministic stand-in
for a model that answers well); ``--mode hang`` never answers in time; ``--mode garbage``
returns text that is not JSON. Run: ``python -m tests.support.oracle_llm --home H --port P``.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

QUESTION = re.compile(r"^Question: (.*)$", re.M)


def oracle_reply(planner: Any, prompt: str) -> str:
    m = QUESTION.search(prompt)
    if not m:
        return "[]"
    plan = planner.plan(m.group(1))
    mass: dict[str, float] = {}
    for mp, p in plan.dist:
        mass[mp.uses[0].key] = mass.get(mp.uses[0].key, 0.0) + p
    ranked = sorted(mass.items(), key=lambda kv: -kv[1])[:4]
    return json.dumps([{"rel": k, "prob": round(min(0.99, v), 3)} for k, v in ranked])


def serve(home: Path, port: int, mode: str) -> None:
    planner = None
    if mode == "oracle":
        from engine.api import Helix
        from engine.config import Settings

        planner = Helix.open(Settings(home=home), auto_ingest=False).c.planner

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            return None

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
            if mode == "hang":
                time.sleep(30)
            prompt = body["messages"][-1]["content"]
            content = "not json at all" if mode == "garbage" else oracle_reply(planner, prompt)
            reply = {
                "id": "x",
                "object": "chat.completion",
                "created": 0,
                "model": body.get("model", ""),
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": content},
                    }
                ],
            }
            data = json.dumps(reply).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--mode", choices=["oracle", "hang", "garbage"], default="oracle")
    args = ap.parse_args()
    serve(args.home, args.port, args.mode)
