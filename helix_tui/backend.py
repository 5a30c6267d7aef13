"""One thread for every engine and memory call.

DuckDB and SQLite connections are opened and used on this thread only, and calls run one
at a time, in order. Thread workers of the UI block on ``run`` so the event loop never does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


class Cancelled(Exception):
    """Raised inside a backend call whose question the user cancelled."""


class CancelToken:
    """Set by the UI; checked by the engine's event sink, which then raises ``Cancelled``."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        if self._event.is_set():
            raise Cancelled


class Backend:
    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="helix-backend")

    def run(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` on the backend thread and wait for its result (call from a worker)."""
        return self._pool.submit(fn).result()

    def submit(self, fn: Callable[[], object]) -> None:
        """Queue ``fn`` on the backend thread without waiting for it."""
        self._pool.submit(fn)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
