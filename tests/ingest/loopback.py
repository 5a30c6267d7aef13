"""A small HTTP file server on 127.0.0.1 whose failures the tests choose per path."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Served:
    files: dict[str, bytes] = field(default_factory=dict)
    cut_after: dict[str, int] = field(default_factory=dict)
    """Path -> bytes sent before the connection is dropped (once)."""
    stall: dict[str, float] = field(default_factory=dict)
    """Path -> seconds to wait before answering."""
    ranges: list[tuple[str, str | None]] = field(default_factory=list)
    """(path, Range header) of every request, in order."""


def _handler(state: Served) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            return None

        def do_GET(self) -> None:
            path = self.path.lstrip("/")
            state.ranges.append((path, self.headers.get("Range")))
            if path in state.stall:
                time.sleep(state.stall[path])
            body = state.files.get(path)
            if body is None:
                self.send_error(404)
                return
            start = 0
            rng = self.headers.get("Range")
            if rng and rng.startswith("bytes="):
                start = int(rng[6:].split("-")[0])
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
            else:
                self.send_response(200)
            part = body[start:]
            self.send_header("Content-Length", str(len(part)))
            self.end_headers()
            cut = state.cut_after.pop(path, None)
            if cut is not None:
                self.wfile.write(part[:cut])
                self.wfile.flush()
                self.connection.shutdown(2)
                return
            try:
                self.wfile.write(part)
            except (BrokenPipeError, ConnectionResetError):
                return  # the client gave up (the timeout test)

    return Handler


@contextmanager
def serve(state: Served) -> Iterator[str]:
    """Serve ``state`` on an ephemeral loopback port; yields the base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
