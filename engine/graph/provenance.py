"""Who states each triple: the layer and source of every statement, held in memory so citing
an answer's edges costs no query."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import duckdb

from engine.graph.relations import UNDIRECTED

BASE_LAYER = "hetionet"


@dataclass(frozen=True)
class EdgeSource:
    """One statement of a triple: the layer and source that made it, with its detail/score."""

    layer: str
    source: str
    detail: str | None = None
    score: float | None = None

    @property
    def label(self) -> str:
        """``DISEASES 2022: MedlinePlus, score 5``, ``DrugCentral: inhibitor``, ``hetionet``."""
        text = self.source + (f": {self.detail}" if self.detail else "")
        if self.score is not None:
            text += f", score {self.score:g}"
        return text


Triple = tuple[str, str, str]


class Provenance:
    """Sources of every active triple that some non-Hetionet layer states; any other triple
    between two active nodes is Hetionet's alone."""

    def __init__(self, by_triple: dict[Triple, list[EdgeSource]]) -> None:
        self.by_triple = by_triple

    @classmethod
    def load(
        cls,
        con: duckdb.DuckDBPyConnection,
        layers: tuple[str, ...] | None,
        samples: Mapping[str, str] | None = None,
    ) -> Provenance:
        """Read from a store restricted to ``layers`` (None: a store built before layers).
        ``samples``: relation -> a layer holding only a sample of it that another active layer
        holds in full (Hetionet's 5,000 pathway edges, cut from the pathway table the disease
        pack loads whole). The sample's statement of a triple the full layer states too is the
        same data again, not a second source: it is left out."""
        found: dict[Triple, list[EdgeSource]] = {}
        if layers is None or layers == (BASE_LAYER,):
            return cls(found)
        rows = con.execute(
            "SELECT t.subj, t.rel, t.obj, t.layer, t.source, t.detail, t.score FROM triples t"
            " SEMI JOIN (SELECT DISTINCT subj, rel, obj FROM triples WHERE layer <> ?"
            "  AND list_contains(?, layer)) x ON t.subj = x.subj AND t.rel = x.rel"
            "  AND t.obj = x.obj"
            " WHERE list_contains(?, t.layer) ORDER BY t.layer, t.source",
            [BASE_LAYER, list(layers), list(layers)],
        ).fetchall()
        for s_, r, o, layer, source, detail, score in rows:
            found.setdefault((s_, r, o), []).append(
                EdgeSource(
                    str(layer),
                    str(source or layer),
                    detail,
                    None if score is None else float(score),
                )
            )
        for (_, r, _), stated in found.items():
            sampler = (samples or {}).get(r)
            if sampler is not None and any(e.layer != sampler for e in stated):
                stated[:] = [e for e in stated if e.layer != sampler]
        return cls(found)

    def sources(
        self, triples: Iterable[Triple], active: Callable[[str], bool]
    ) -> dict[Triple, list[EdgeSource]]:
        """Who states each triple (undirected: either orientation); ``active`` says whether a
        node is in the store's active layers."""
        out: dict[Triple, list[EdgeSource]] = {}
        for s_, r, o in triples:
            found = self.by_triple.get((s_, r, o))
            if found is None and r in UNDIRECTED:
                found = self.by_triple.get((o, r, s_))
            if found is None and active(s_) and active(o):
                found = [EdgeSource(BASE_LAYER, BASE_LAYER)]
            if found:
                out[(s_, r, o)] = found
        return out
