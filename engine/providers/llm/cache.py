"""An on-disk cache of validated LLM replies, in SQLite under ``<home>/cache/llm.sqlite``.

The key is a hash of (prompt name, rendered prompt, model): a change to a prompt file, to the
variables or to the model is a miss. Only replies that passed schema validation are stored.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from engine.util.text import content_hash

SCHEMA = """
CREATE TABLE IF NOT EXISTS llm_cache (
    key TEXT PRIMARY KEY,
    prompt TEXT NOT NULL,
    model TEXT NOT NULL,
    reply TEXT NOT NULL,
    created REAL NOT NULL
)
"""


def cache_key(prompt: str, rendered: str, model: str) -> str:
    return content_hash("llm", prompt, rendered, model)


class LLMCache:
    """A small thread-safe key-value table; one connection guarded by a lock."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._con = sqlite3.connect(str(path), check_same_thread=False, timeout=5.0)
        with self._lock, self._con:
            self._con.execute("PRAGMA journal_mode=WAL")
            self._con.execute(SCHEMA)

    def get(self, key: str) -> str | None:
        with self._lock:
            row = self._con.execute("SELECT reply FROM llm_cache WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else None

    def put(self, key: str, prompt: str, model: str, reply: str) -> None:
        with self._lock, self._con:
            self._con.execute(
                "INSERT OR REPLACE INTO llm_cache VALUES (?, ?, ?, ?, ?)",
                (key, prompt, model, reply, time.time()),
            )

    def __len__(self) -> int:
        with self._lock:
            return int(self._con.execute("SELECT count(*) FROM llm_cache").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._con.close()
