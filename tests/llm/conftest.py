"""A scripted OpenAI-compatible server on 127.0.0.1 (random port), stopped by the fixture.

Each request to ``POST /v1/chat/completions`` pops the next step of the script:
``("ok", text)`` answers with ``text`` as the assistant message, ``("status", 500)`` fails with
that HTTP status, ``("hang", seconds)`` waits (bounded; released at teardown) then answers,
``("raw", bytes)`` sends a 200 with that body. An exhausted script answers 503.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from engine.config import Settings

MAX_HANG_S = 5.0


class ScriptedLLM:
    def __init__(self) -> None:
        self.script: deque[tuple[str, Any]] = deque()
        self.requests: list[dict[str, Any]] = []
        self.release = threading.Event()
        self._lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def push(self, *steps: tuple[str, Any]) -> None:
        self.script.extend(steps)

    def _next(self, body: dict[str, Any]) -> tuple[str, Any]:
        with self._lock:
            self.requests.append(body)
            return self.script.popleft() if self.script else ("status", 503)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                return None

            def _send(self, code: int, payload: bytes) -> None:
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout): fine

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path != "/v1/chat/completions":
                    self._send(404, b'{"error": {"message": "not found"}}')
                    return
                kind, arg = server._next(body)
                if kind == "hang":
                    server.release.wait(min(float(arg), MAX_HANG_S))
                    kind, arg = "ok", "[]"
                if kind == "status":
                    msg = json.dumps({"error": {"message": f"scripted {arg}", "type": "server"}})
                    self._send(int(arg), msg.encode())
                elif kind == "raw":
                    self._send(200, arg)
                else:
                    reply = {
                        "id": f"chatcmpl-{len(server.requests)}",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body.get("model", ""),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": arg},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    }
                    self._send(200, json.dumps(reply).encode())

        return Handler

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


@pytest.fixture
def llm_server() -> Iterator[ScriptedLLM]:
    server = ScriptedLLM()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def llm_settings(tmp_path: Any, llm_server: ScriptedLLM) -> Settings:
    return Settings(
        home=tmp_path,
        llm_base_url=llm_server.url,
        llm_model="scripted-model",
        llm_api_key="k",
        llm_timeout_s=2.0,
        llm_retries=1,
    )
