"""A small cache of vault reads asked again and again while answering (subjects, keys, exists).

Values stay valid only while this process holds the vault's lock without a break: the cache is
cleared whenever the file is opened again (another process may have written meanwhile), after
any delete, and after a read made outside a ``hold()`` block. This process's own inserts keep it
true (``stored``, ``known``) instead of clearing it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

ReadKey = tuple[str, str]
"""(kind, argument): ("subjects", prefix), ("keys", relation), ("exists", subject),
("aliases", kind) or ("history", "subject|relation|key")."""


class ReadCache:
    def __init__(self) -> None:
        self._values: dict[ReadKey, Any] = {}

    def get(self, key: ReadKey, load: Callable[[], Any], *, keep: bool) -> Any:
        """The cached value of ``key``, loaded on a miss; ``keep=False`` empties the cache after."""
        if key not in self._values:
            self._values[key] = load()
        value = self._values[key]
        if not keep:
            self._values.clear()
        return value

    def stored(self, subj: str, rel: str, key: str) -> None:
        """This process stored a fact (subj, rel) with functional key ``key``."""
        for (kind, arg), value in list(self._values.items()):
            if kind == "history" and arg.startswith(f"{subj}|"):
                del self._values[(kind, arg)]
            elif kind == "keys" and arg == rel and key and key not in value:
                self._values[(kind, arg)] = sorted([*value, key])
            elif kind == "subjects" and subj.startswith(arg) and subj not in value:
                self._values[(kind, arg)] = sorted([*value, subj])
        self.known(subj)

    def known(self, subject: str) -> None:
        """This process stored a fact or alias about ``subject``."""
        self._values[("exists", subject)] = True

    def drop(self, key: ReadKey) -> None:
        """Forget one cached read (what it read has changed)."""
        self._values.pop(key, None)

    def clear(self) -> None:
        self._values.clear()
