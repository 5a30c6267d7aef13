"""BM25 over passages (bm25s), built in memory at start-up from the passages table."""

from __future__ import annotations

import re

import bm25s
import numpy as np

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
        self.ids = ids
        self.retriever = bm25s.BM25()
        corpus = [analyze(t) or ["_"] for t in texts]
        self.retriever.index(corpus, show_progress=False)

    def search(self, text: str, k: int) -> list[tuple[str, float]]:
        q = analyze(text)
        if not q or not self.ids:
            return []
        k = min(k, len(self.ids))
        docs, scores = self.retriever.retrieve([q], k=k, show_progress=False)
        return [
            (self.ids[int(i)], float(s))
            for i, s in zip(docs[0], scores[0], strict=True)
            if float(s) > 0 and np.isfinite(s)
        ]
