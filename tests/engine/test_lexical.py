"""The passages' BM25 search, run over bm25s's index arrays without bm25s, ranks and scores as
bm25s's own retrieval does (ties, unknown words and a k past the corpus included)."""

from __future__ import annotations

import bm25s
import numpy as np

from engine.index.lexical import LexicalIndex, analyze

TEXTS = [
    "Donepezil improves cognition in mild Alzheimer's disease.",
    "Memantine is used in moderate to severe Alzheimer's disease.",
    "Metformin lowers hepatic glucose output in type 2 diabetes.",
    "Metformin and sitagliptin in type 2 diabetes: a randomised trial.",
    "Asthma is treated with inhaled corticosteroids.",
    "Montelukast for asthma in children.",
    "Montelukast for asthma in adults.",  # scores tied with the one before for 'montelukast'
    "",
]
QUERIES = [
    "alzheimer disease cognition",
    "metformin",
    "montelukast asthma",
    "the of which",
    "unheard-of words only",
    "diabetes trial sitagliptin metformin glucose",
]


def bm25s_search(
    retriever: bm25s.BM25, ids: list[str], text: str, k: int
) -> list[tuple[str, float]]:
    q = analyze(text)
    if not q:
        return []
    docs, scores = retriever.retrieve([q], k=min(k, len(ids)), show_progress=False)
    return [
        (ids[int(i)], float(s))
        for i, s in zip(docs[0], scores[0], strict=True)
        if float(s) > 0 and np.isfinite(s)
    ]


def test_search_is_bm25s_retrieval() -> None:
    ids = [f"p:{i}:0" for i in range(len(TEXTS))]
    index = LexicalIndex(ids, TEXTS)
    retriever = bm25s.BM25()
    retriever.index([analyze(t) or ["_"] for t in TEXTS], show_progress=False)
    for text in QUERIES:
        for k in (1, 3, 50):
            assert index.search(text, k) == bm25s_search(retriever, ids, text, k), (text, k)
    assert index.search("montelukast", 2)[0][0] in ("p:5:0", "p:6:0")
    assert index.search("unheard-of words only", 5) == []
