"""One thread for every engine and memory call.

DuckDB and SQLite connections are opened and used on this thread only, and calls run one
at a time, in order. Thread workers of the UI block on ``run`` so the event loop never does.
The thread is a daemon: quitting while the engine still loads does not wait for it.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from engine.events import Cancelled

T = TypeVar("T")

__all__ = ["Backend", "CancelToken", "Cancelled"]


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
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = (
            queue.SimpleQueue()
        )
        self._thread: threading.Thread | None = None
        self._closed = False

    def _loop(self) -> None:
        while (job := self._jobs.get()) is not None:
            fn, future = job
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn())
                except BaseException as exc:
                    future.set_exception(exc)

    def submit(self, fn: Callable[[], T]) -> Future[T]:
        """Queue ``fn`` on the backend thread."""
        if self._closed:
            raise RuntimeError("the backend is closed")
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="helix-backend", daemon=True)
            self._thread.start()
        future: Future[T] = Future()
        self._jobs.put((fn, future))
        return future

    def run(self, fn: Callable[[], T], *, abandon: Callable[[], bool] | None = None) -> T:
        """Run ``fn`` on the backend thread and wait for its result (call from a worker).

        ``abandon`` is polled while waiting; when it turns true the caller stops waiting and
        gets ``Cancelled`` (the call itself runs on), so quitting never waits for the engine.
        """
        future = self.submit(fn)
        while True:
            try:
                return future.result(timeout=0.05)
            except TimeoutError:
                if abandon is not None and abandon():
                    raise Cancelled from None

    def close(self, last: Callable[[], object] | None = None) -> None:
        """Run ``last`` (closing the stores) after the queued calls, then stop the thread."""
        if self._closed:
            return
        if last is not None and self._thread is not None:
            self.submit(last)
        self._closed = True
        self._jobs.put(None)

    def join(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the thread to finish; True when it has."""
        if self._thread is None:
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()
