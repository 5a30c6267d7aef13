"""What opening the engine reads instead of computing: the parts of understanding that depend
only on the stores, the exemplar bank and the embedding model.

* the alias index of the active layers (``AliasIndex``: keys, candidates, the span automaton,
  everyday words, subject headings) with its admitted synonyms (``admit_synonyms``, which
  embeds about a thousand alias/name pairs);
* the semantic reader's softmax temperature (``SemanticScorer.fit_temperature``, a
  leave-one-out fit over the bank) — the bank's vectors are already kept by ``cached_vectors``.

``prepare`` makes them right after ingest; an open that finds one missing or made for other
stores (another store file, other layers, another model, other code) computes it as before,
says so in the log, and saves it when the data home is writable. A file is only ever used
when its whole fingerprint matches, so a stale one is never read as current.
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import os
import pickle
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from engine.graph.store import KGStore
from engine.providers.embedder.base import Embedder
from engine.understand.bank import Bank
from engine.understand.mentions import AliasIndex
from engine.understand.semantic import SemanticScorer

log = logging.getLogger(__name__)

FORMAT = 1
"""Bumped when what a prepared file holds changes shape."""

ALIAS_CODE = (
    "engine.understand.mentions",
    "engine.understand.spans",
    "engine.understand.lexicon",
    "engine.ingest.nearest",
    "engine.util.text",
    "engine.graph.store",
)
"""Modules whose code decides the alias index: a change to any makes a prepared index stale."""
TEMPERATURE_CODE = ("engine.understand.semantic", "engine.util.numeric")


def code_digest(modules: tuple[str, ...]) -> str:
    """A digest of the source of ``modules`` (their compiled name when no source is shipped)."""
    h = hashlib.sha256()
    for name in modules:
        module = sys.modules.get(name) or __import__(name, fromlist=["_"])
        path = getattr(module, "__file__", None)
        try:
            h.update(Path(path).read_bytes() if path else name.encode())
        except OSError:
            h.update(name.encode())
    return h.hexdigest()[:16]


def store_fingerprint(store: KGStore) -> dict[str, Any]:
    """What identifies the graph an alias index was made from: the store file (size and
    modification time: ingest swaps in a new file, and opening reads it read-only), its
    write-ahead log if one is left, and the active layers."""
    st = store.path.stat()
    wal = store.path.with_name(store.path.name + ".wal")
    wal_stat = wal.stat() if wal.exists() else None
    return {
        "format": FORMAT,
        "code": code_digest(ALIAS_CODE),
        "store": str(store.path.resolve()),
        "size": st.st_size,
        "mtime_ns": st.st_mtime_ns,
        "wal": [wal_stat.st_size, wal_stat.st_mtime_ns] if wal_stat else None,
        "layers": list(store.layers),
    }


@contextmanager
def _no_gc() -> Iterator[None]:
    """Unpickling a hundred thousand small objects triggers the cycle collector over and over
    (3x the time); none of them can form garbage cycles while being read. What was read lives
    as long as the engine, so it is then moved out of the collector's sight (``gc.freeze``),
    else the first full collection, during the first question, walks it all (~0.3 s)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
        gc.freeze()
    finally:
        if was:
            gc.enable()


def _write_atomic(path: Path, write: Callable[[BinaryIO], object]) -> bool:
    """Write ``path`` through a temporary file beside it; False (logged) when the data home
    cannot be written (a read-only home works, computing at every open)."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tmp.open("wb") as f:
            write(f)
        os.replace(tmp, path)
        return True
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        log.info("cannot save %s (%s); it is computed again at the next open", path, exc)
        return False


@dataclass
class Prepared:
    """What one open found: ``computed`` names the parts it had to compute (empty when all
    were read from their files), ``why`` says why for each."""

    computed: list[str]
    why: dict[str, str]

    def note(self, part: str, reason: str) -> None:
        self.computed.append(part)
        self.why[part] = reason
        log.warning("%s computed at open: %s", part, reason)


def alias_path(cache_dir: Path, layers: tuple[str, ...]) -> Path:
    tag = hashlib.sha256("\x00".join(layers).encode()).hexdigest()[:12]
    return cache_dir / f"aliases-{tag}.pickle"


def _read_aliases(path: Path, fingerprint: dict[str, Any]) -> tuple[Any, str]:
    """(the saved payload, "") when ``path`` holds an index made with ``fingerprint``, else
    (None, why not)."""
    if not path.exists():
        return None, f"no prepared alias index at {path} (`helix-chat ingest` prepares it)"
    try:
        with path.open("rb") as f, _no_gc():
            header = pickle.load(f)
            if header != fingerprint:
                changed = sorted(
                    k
                    for k in fingerprint
                    if not isinstance(header, dict) or header.get(k) != fingerprint[k]
                )
                return None, f"the prepared alias index is stale ({', '.join(changed)} changed)"
            return pickle.load(f), ""
    except Exception as exc:  # a truncated or foreign file is recomputed, never trusted
        return None, f"the prepared alias index cannot be read ({type(exc).__name__}: {exc})"


def alias_index(
    store: KGStore,
    embedder: Embedder | None,
    cache_dir: Path,
    found: Prepared | None = None,
) -> AliasIndex:
    """The alias index of ``store``'s active layers with the synonyms ``embedder`` admits (none
    without one): read from ``cache_dir`` when prepared for this store, else built, and saved
    (``found`` records what was computed and why)."""
    found = found if found is not None else Prepared([], {})
    fingerprint = store_fingerprint(store)
    path = alias_path(cache_dir, store.layers)
    payload, why = _read_aliases(path, fingerprint)
    if payload is not None:
        index: AliasIndex = payload["index"]
        synonyms: dict[str, Any] = payload["synonyms"]
    else:
        found.note("aliases", why)
        index, synonyms = AliasIndex(store), {}
    model = embedder.name if embedder is not None else None
    fresh = payload is None
    if model is not None and model not in synonyms:
        if payload is not None:
            found.note("synonyms", f"no synonyms admitted with {model} in {path}")
        index.admit_synonyms(embedder.encode, store.name)  # type: ignore[union-attr]
        synonyms[model] = index.meant - index.headed
        fresh = True
    index.meant = index.headed | synonyms.get(model, frozenset()) if model else index.headed
    if fresh:

        def write(f: BinaryIO) -> None:
            pickle.dump(fingerprint, f, protocol=pickle.HIGHEST_PROTOCOL)
            payload = {"index": index, "synonyms": synonyms}
            pickle.dump(payload, f, protocol=pickle.HIGHEST_PROTOCOL)

        _write_atomic(path, write)
    return index


def temperature_path(bank: Bank, embedder: Embedder, cache_dir: Path) -> Path:
    """The file of the temperature fitted for this bank, model and code."""
    key = "\x00".join((str(FORMAT), embedder.name, code_digest(TEMPERATURE_CODE), bank.source))
    return cache_dir / f"temperature-{hashlib.sha256(key.encode()).hexdigest()[:20]}.json"


def semantic_scorer(
    bank: Bank, embedder: Embedder, cache_dir: Path, found: Prepared | None = None
) -> SemanticScorer:
    """The bank's scorer at its fitted temperature: read from ``cache_dir`` when fitted for
    this bank, model and code, else fitted (leave-one-out over the bank) and saved."""
    found = found if found is not None else Prepared([], {})
    path = temperature_path(bank, embedder, cache_dir)
    temperature: float | None = None
    try:
        value = json.loads(path.read_text(encoding="utf-8"))["temperature"]
        temperature = float(value) if isinstance(value, int | float) and value > 0 else None
    except FileNotFoundError:
        pass
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("the fitted temperature %s cannot be read (%s)", path, exc)
    scorer = SemanticScorer(bank, embedder, cache_dir, temperature=temperature)
    if temperature is None:
        found.note("temperature", f"no temperature fitted for this bank and model at {path}")
        text = json.dumps({"temperature": scorer.temperature, "model": embedder.name})
        _write_atomic(path, lambda f: f.write(text.encode("utf-8")))
    return scorer
