"""Passage retrieval: FAISS (dense) fused with BM25, grouped by source document.

Passage ids of the form ``<corpus>:<doc>:<k>`` are paragraphs of one document. A document's
score is that of its best paragraph plus a share of its others; the ranked list then gives each
retrieved document's paragraphs together, in order (parent-document retrieval).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from engine.index.lexical import LexicalIndex
from engine.index.vectors import VectorIndex
from engine.providers.embedder.base import Vectors
from engine.ranking.fusion import rrf

POOL = 50
"""Candidates taken from FAISS and from BM25 each before fusing: well beyond the passages kept,
so a passage ranked low by one retriever but high by the other still gets fused."""


@dataclass(frozen=True)
class PassageHit:
    id: str
    score: float
    dense: float
    lexical: float


def doc_of(pid: str) -> str:
    head, sep, tail = pid.rpartition(":")
    return head if sep and tail.isdigit() else pid


class PassageRetriever:
    def __init__(
        self, vectors: VectorIndex, lexical: LexicalIndex | None, group_documents: bool = True
    ) -> None:
        self.vectors = vectors
        self.lexical = lexical
        self.group_documents = group_documents
        self.by_doc: dict[str, list[str]] = defaultdict(list)
        """A document's passages, in order (made only when hits are grouped by document)."""
        for pid in vectors.ids if group_documents else ():
            self.by_doc[doc_of(pid)].append(pid)
        for pids in self.by_doc.values():
            pids.sort(key=lambda p: (len(p), p))

    def search(self, text: str, qvec: Vectors, k: int = 10, pool: int = POOL) -> list[PassageHit]:
        dense = self.vectors.search(qvec, pool)[0]
        lex = self.lexical.search(text, pool) if self.lexical else []
        dense_s = dict(dense)
        lex_s = dict(lex)
        fused = (
            rrf([[p for p, _ in dense], [p for p, _ in lex]]) if lex else [(p, s) for p, s in dense]
        )
        if not self.group_documents:
            return [PassageHit(p, s, dense_s.get(p, 0.0), lex_s.get(p, 0.0)) for p, s in fused[:k]]
        doc_score: dict[str, float] = {}
        for p, s in fused:
            d = doc_of(p)
            doc_score[d] = max(doc_score.get(d, 0.0), s)
        out: list[PassageHit] = []
        for d, s in sorted(doc_score.items(), key=lambda kv: -kv[1]):
            for p in self.by_doc.get(d, [d]):
                out.append(PassageHit(p, s, dense_s.get(p, 0.0), lex_s.get(p, 0.0)))
                if len(out) >= k:
                    return out
        return out
