"""What opening the engine reads instead of computing: what depends only on the stores, the
exemplar bank and the embedding model.

* from the graph store (``stores/prepared/``, one file per layer selection): the nodes and
  adjacency (``KGStore``), the alias index with its admitted synonyms (``AliasIndex``,
  ``admit_synonyms``, which embeds about a thousand alias/name pairs), the words of node names
  per kind (``name_words``) and the passages' BM25 index;
* from the bank (``stores/understand/``, beside its cached vectors): the semantic reader's
  softmax temperature (``fit_temperature``, a leave-one-out fit over the bank) and what it
  learns from the bank on the first question (relation directions, twin and chain words).

``engine.api.prepare`` makes them right after ingest; an open that finds one missing or made
for other inputs (another store file, other layers, another model, other code) computes it as
before, says so (``Prepared``, and a warning in the log), and saves it when the data home is
writable. A file is used only when its whole fingerprint matches, so a stale one is never read
as current.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from engine.graph.store import KGStore
from engine.providers.embedder.base import Embedder
from engine.understand.bank import Bank
from engine.understand.mentions import AliasIndex
from engine.understand.semantic import SemanticScorer
from engine.util.artefact import (
    FORMAT,
    code_digest,
    file_fingerprint,
    layers_tag,
    read_pickled,
    write_pickled,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

PREPARED_DIR = "prepared"
"""Where under the stores directory prepared files are kept."""

ALIAS_CODE = (
    "engine.understand.mentions",
    "engine.understand.spans",
    "engine.understand.lexicon",
    "engine.ingest.nearest",
    "engine.util.text",
    "engine.graph.store",
)
"""Modules whose code decides the alias index: a change to any makes a prepared index stale."""
BANK_CODE = (
    "engine.understand.semantic",
    "engine.understand.polarity",
    "engine.understand.twins",
    "engine.understand.chains",
    "engine.understand.learn",
    "engine.understand.lexicon",
    "engine.understand.bank",
    "engine.util.numeric",
)
"""Modules whose code decides the bank's temperature and what the scorer learns from it."""


def store_fingerprint(store: KGStore, code: tuple[str, ...]) -> dict[str, Any]:
    """What a part made from ``store`` by ``code`` depends on: the store file, its active
    layers and that code."""
    return {
        **file_fingerprint(store.path),
        "layers": list(store.layers),
        "code": code_digest(code),
    }


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
    fingerprint = store_fingerprint(store, ALIAS_CODE)
    path = cache_dir / f"aliases-{layers_tag(store.layers)}.pickle"
    payload, why = read_pickled(path, fingerprint, "alias index")
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
        write_pickled(path, fingerprint, {"index": index, "synonyms": synonyms})
    return index


def stored_part(
    store: KGStore,
    name: str,
    code: tuple[str, ...],
    build: Callable[[], T],
    cache_dir: Path,
    found: Prepared | None = None,
    layered: bool = True,
) -> T:
    """``build()``, made from ``store`` by ``code``: read from ``cache_dir`` when made from this
    store file (and, when ``layered``, these layers), else built and saved."""
    fingerprint = store_fingerprint(store, code)
    if not layered:
        fingerprint.pop("layers")
    tag = layers_tag(store.layers) if layered else "all"
    path = cache_dir / f"{name}-{tag}.pickle"
    value, why = read_pickled(path, fingerprint, name)
    if value is None:
        (found if found is not None else Prepared([], {})).note(name, why)
        value = build()
        write_pickled(path, fingerprint, value)
    return cast(T, value)


def bank_path(bank: Bank, embedder: Embedder, cache_dir: Path) -> Path:
    """The file of what is fitted and learnt from this bank with this model and code."""
    key = "\x00".join((str(FORMAT), embedder.name, code_digest(BANK_CODE), bank.source))
    return cache_dir / f"bank-{hashlib.sha256(key.encode()).hexdigest()[:20]}.pickle"


def semantic_scorer(
    bank: Bank, embedder: Embedder, cache_dir: Path, found: Prepared | None = None
) -> SemanticScorer:
    """The bank's scorer at its fitted temperature, with the relation directions and telling
    words it learns from the bank: read from ``cache_dir`` when made for this bank, model and
    code, else fitted (leave-one-out over the bank), learnt and saved."""
    found = found if found is not None else Prepared([], {})
    path = bank_path(bank, embedder, cache_dir)
    fingerprint = {"format": FORMAT, "model": embedder.name, "bank": len(bank.source)}
    saved, why = read_pickled(path, fingerprint, "bank reading")
    if saved is not None:
        scorer = SemanticScorer(bank, embedder, cache_dir, temperature=saved["temperature"])
        scorer.teach(saved["learned"])
        return scorer
    found.note("temperature", why)
    scorer = SemanticScorer(bank, embedder, cache_dir)
    payload = {"temperature": scorer.temperature, "learned": scorer.learned()}
    write_pickled(path, fingerprint, payload)
    return scorer
