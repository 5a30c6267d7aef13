"""Verbalised triples ("Donepezil treats Alzheimer's disease") in FAISS: the dense-only baseline.

Only the metaedges that link drugs, diseases, symptoms, anatomy, classes and drug targets are
verbalised (about 40k triples); gene-gene, expression and GO triples are left out. The index is
built on first use and cached under the stores directory.
"""

from __future__ import annotations

from pathlib import Path

from engine.graph.relations import verb_phrase
from engine.graph.store import KGStore
from engine.index.vectors import IndexMissing, VectorIndex
from engine.providers.embedder.cache import CachedEmbedder

VERBALISED = ("CtD", "CpD", "DpS", "DlA", "DaG", "DrD", "PCiC", "CbG", "CrC", "CcSE")


def verbalise(store: KGStore, s: str, rel: str, o: str) -> str:
    return f"{store.name(s)} {verb_phrase(rel)} {store.name(o)}"


def triple_key(s: str, rel: str, o: str) -> str:
    return f"{s}\t{rel}\t{o}"


def load_or_build(store: KGStore, emb: CachedEmbedder, path: Path) -> VectorIndex:
    try:
        return VectorIndex.load(path)
    except IndexMissing:
        pass
    rows = store.con.execute(
        "SELECT subj, rel, obj FROM triples WHERE list_contains(?, rel) ORDER BY rel, subj, obj",
        [list(VERBALISED)],
    ).fetchall()
    texts = [verbalise(store, s, r, o) for s, r, o in rows]
    vecs = emb.encode(texts)
    index = VectorIndex.build([triple_key(s, r, o) for s, r, o in rows], vecs)
    index.save(path)
    return index
