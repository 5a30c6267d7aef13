"""A FAISS inner-product index over normalised vectors, with string ids, saved beside its ids."""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from pathlib import Path

import faiss
import numpy as np

from engine.providers.embedder.base import Vectors
from engine.util.artefact import file_sha256

REBUILD = "`helix-chat ingest --force`"


class IndexMissing(FileNotFoundError):
    """A FAISS index file is absent or unreadable."""


_FAISS_WHERE = re.compile(r"^Error in .*? at \S+:\d+: ")


def _first_line(exc: BaseException) -> str:
    """The reason of ``exc`` in a few words (FAISS's C++ location prefix dropped)."""
    text = str(exc).strip().splitlines()
    return _FAISS_WHERE.sub("", text[0])[:200] if text else type(exc).__name__


def _unreadable(path: Path, reason: str) -> str:
    if "permission denied" in reason.lower():  # the file is whole: rebuilding is no fix
        return f"{path} cannot be read: this user may not read it (check its owner and mode)"
    return f"{path} cannot be read ({reason}); rebuild it with {REBUILD}"


def digest_path(path: Path) -> Path:
    """Where the sha256 of the index file at ``path`` is kept (``names.sha256``)."""
    return path.with_suffix(".sha256")


def index_files(path: Path) -> tuple[Path, Path, Path]:
    """The files of the index at ``path``: its vectors, its ids and its vectors' digest."""
    return path, path.with_suffix(".ids.json"), digest_path(path)


class VectorIndex:
    def __init__(self, index: faiss.Index, ids: list[str]) -> None:
        if index.ntotal != len(ids):
            raise ValueError(f"index has {index.ntotal} vectors for {len(ids)} ids")
        self.index = index
        self.ids = ids

    @classmethod
    def build(cls, ids: list[str], vectors: Vectors) -> VectorIndex:
        dim = vectors.shape[1] if vectors.ndim == 2 and vectors.shape[0] else 384
        index = faiss.IndexFlatIP(dim)
        if len(ids):
            index.add(np.ascontiguousarray(vectors, dtype=np.float32))
        return cls(index, ids)

    def save(self, path: Path) -> None:
        """Write the index, its ids and its digest (``index_files``); each replaces its file
        at once."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        faiss.write_index(self.index, str(tmp))
        ids_tmp = path.with_suffix(".ids.tmp")
        ids_tmp.write_text(json.dumps(self.ids), encoding="utf-8")
        digest_tmp = path.with_suffix(".sha256.tmp")
        digest_tmp.write_text(file_sha256(tmp) + "\n", encoding="utf-8")
        _, ids, digest = index_files(path)
        tmp.replace(path)
        ids_tmp.replace(ids)
        digest_tmp.replace(digest)

    @staticmethod
    def changed(path: Path) -> str | None:
        """Why the index file at ``path`` is not the one its build wrote (its bytes no longer
        match the digest kept beside it: overwritten or damaged since; FAISS has no checksum
        of its own), as one sentence; None when it matches or no digest was kept (an index
        built before digests were)."""
        kept = digest_path(path)
        if not kept.is_file():
            return None
        if file_sha256(path) == kept.read_text(encoding="utf-8").strip():
            return None
        return (
            f"{path} is damaged (its bytes no longer match the sha256 its build kept in "
            f"{kept.name}); rebuild it with {REBUILD}"
        )

    @classmethod
    def load(cls, path: Path) -> VectorIndex:
        """The index at ``path`` (memory-mapped) with its ids beside it; ``IndexMissing`` (one
        sentence naming the file and ``helix-chat ingest --force``) when either is absent,
        unreadable or the two disagree."""
        ids_path = path.with_suffix(".ids.json")
        for needed in (path, ids_path):
            if not needed.exists():
                raise IndexMissing(f"{needed} is missing; rebuild it with {REBUILD}")
        try:
            # the vectors stay in the file, mapped: read as a search touches them, not copied
            # at open (the names index is 37 MB), and shared by every process on the host
            index = faiss.read_index(str(path), faiss.IO_FLAG_MMAP_IFC)
        except RuntimeError as exc:
            raise IndexMissing(_unreadable(path, _first_line(exc))) from exc
        try:
            ids = json.loads(ids_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise IndexMissing(_unreadable(ids_path, _first_line(exc))) from exc
        if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
            raise IndexMissing(_unreadable(ids_path, "not a list of ids"))
        if index.ntotal != len(ids):
            raise IndexMissing(
                f"{path} holds {index.ntotal} vectors but {ids_path.name} lists {len(ids)} ids "
                f"(the two are out of step); rebuild them with {REBUILD}"
            )
        return cls(index, ids)

    def subset(self, keep: Collection[str]) -> VectorIndex:
        """The vectors whose id is in ``keep``, in their order (self when none is dropped), so
        a search over the subset ranks exactly as the full index does among those ids."""
        rows = [i for i, x in enumerate(self.ids) if x in keep]
        if len(rows) == len(self.ids):
            return self
        dim = self.index.d
        vecs = np.asarray(self.index.reconstruct_n(0, self.index.ntotal), dtype=np.float32)
        return VectorIndex.build([self.ids[i] for i in rows], vecs[rows].reshape(-1, dim))

    def search(self, query: Vectors, k: int) -> list[list[tuple[str, float]]]:
        if self.index.ntotal == 0 or k <= 0:
            return [[] for _ in range(len(query))]
        scores, idx = self.index.search(np.ascontiguousarray(query, dtype=np.float32), k)
        return [
            [(self.ids[i], float(s)) for s, i in zip(row_s, row_i, strict=True) if i >= 0]
            for row_s, row_i in zip(scores, idx, strict=True)
        ]

    def __len__(self) -> int:
        return len(self.ids)
