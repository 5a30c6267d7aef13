"""BM25 over passages: indexed with bm25s when the prepared files are made, searched here with
numpy over the index's arrays, so an engine that reads a prepared index never imports bm25s
(nor the scipy it imports)."""

from __future__ import annotations

import re

import numpy as np
import numpy.typing as npt

_WORD = re.compile(r"[a-z0-9]+")
STOP = frozenset(
    "a an the of in on at to for from by with and or is are was were be been do does did can "
    "could should would will what which who whom how why when where that this these those it "
    "its as than there their not no".split()
)


def analyze(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOP]


class LexicalIndex:
    def __init__(self, ids: list[str], texts: list[str]) -> None:
        import bm25s  # only to index: a search reads the arrays below

        self.ids = ids
        retriever = bm25s.BM25()
        corpus = [analyze(t) or ["_"] for t in texts]
        retriever.index(corpus, show_progress=False)
        if retriever.nonoccurrence_array is not None:  # only BM25L and BM25+ have one
            raise ValueError(f"BM25 method {retriever.method!r} is not searched here")
        scores = retriever.scores
        self.data: npt.NDArray[np.floating] = scores["data"]
        """Each (token, passage) pair's precomputed score, by token (CSC, as bm25s keeps it)."""
        self.indices: npt.NDArray[np.integer] = scores["indices"]
        self.indptr: npt.NDArray[np.integer] = scores["indptr"]
        self.num_docs = int(scores["num_docs"])
        self.vocab: dict[str, int] = dict(retriever.vocab_dict)
        self.dtype = np.dtype(retriever.dtype)
        self.int_dtype = np.dtype(retriever.int_dtype)

    def scores(self, tokens: list[str]) -> npt.NDArray[np.floating]:
        """Every passage's BM25 score for the query ``tokens``, summed token by token in the
        query's order as bm25s sums them (unknown tokens score nothing)."""
        ids = np.asarray([self.vocab[t] for t in tokens if t in self.vocab], dtype=self.int_dtype)
        out = np.zeros(self.num_docs, dtype=self.dtype)
        for start, end in zip(self.indptr[ids], self.indptr[ids + 1], strict=True):
            np.add.at(out, self.indices[start:end], self.data[start:end])
        return out

    def search(self, text: str, k: int) -> list[tuple[str, float]]:
        q = analyze(text)
        if not q or not self.ids:
            return []
        k = min(k, len(self.ids))
        scores = self.scores(q)
        # the top k as bm25s's numpy selection gives them (ties in the same order)
        top = np.argpartition(scores, -k)[-k:]
        top_scores = np.take(scores, top)
        order = np.flip(np.argsort(top_scores))
        return [
            (self.ids[int(i)], float(s))
            for i, s in zip(top[order], top_scores[order], strict=True)
            if float(s) > 0 and np.isfinite(s)
        ]
