"""A re-entrant, cross-process exclusive lock on a file (``fcntl.flock``).

DuckDB lets one process at a time open a database for writing, so every vault operation runs
inside this lock: two chat sessions of one user (two processes) take turns instead of failing
or corrupting the file. Within a process, one lock object exists per path (flock locks belong
to the open file description, so two descriptors in one process would block each other).
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class LockTimeout(TimeoutError):
    """Another process held the lock for longer than the timeout."""


class FileLock:
    """Exclusive lock on ``path``; re-entrant for the owning thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._mutex = threading.RLock()
        self._depth = 0
        self._fd: int | None = None

    @contextmanager
    def hold(self, timeout: float = 30.0) -> Iterator[None]:
        self.acquire(timeout)
        try:
            yield
        finally:
            self.release()

    def acquire(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        if not self._mutex.acquire(timeout=max(timeout, 0.0)):
            raise LockTimeout(f"{self.path} is busy (thread)")
        if self._depth == 0:
            try:
                self._fd = self._lock_file(deadline)
            except BaseException:
                self._mutex.release()
                raise
        self._depth += 1

    def release(self) -> None:
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
        self._mutex.release()

    @property
    def held(self) -> bool:
        return self._depth > 0

    def _lock_file(self, deadline: float) -> int:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        delay = 0.002
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise LockTimeout(f"{self.path} is held by another process") from None
                time.sleep(delay)
                delay = min(delay * 2, 0.05)


_REGISTRY: dict[Path, FileLock] = {}
_REGISTRY_MUTEX = threading.Lock()


def file_lock(path: Path) -> FileLock:
    """The process-wide lock object for ``path``."""
    key = path.resolve()
    with _REGISTRY_MUTEX:
        lock = _REGISTRY.get(key)
        if lock is None:
            lock = _REGISTRY[key] = FileLock(key)
        return lock
