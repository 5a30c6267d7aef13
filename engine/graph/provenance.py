"""Who states each triple: the layer and source of every statement, held in memory in a compact
form (sorted keys and code arrays, no object per statement) so citing an answer's edges costs
no query, and a store opened from its prepared file reads them in milliseconds."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import duckdb
import numpy as np
import numpy.typing as npt

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
SEP = "\t"
"""Between the three parts of a triple's key (node ids and relations hold no tab)."""


def _key(s_: str, r: str, o: str) -> bytes:
    return f"{s_}{SEP}{r}{SEP}{o}".encode()


@dataclass(frozen=True)
class Provenance:
    """Sources of every active triple that some non-Hetionet layer states; any other triple
    between two active nodes is Hetionet's alone.

    ``keys``: the sorted distinct triples (``subj<TAB>rel<TAB>obj``, UTF-8); the statements of
    ``keys[i]`` are rows ``starts[i]:starts[i + 1]`` of ``layer``, ``source``, ``detail`` (codes
    into ``strings``, -1 for none) and ``score`` (NaN for none), in the order the store lists
    them (by layer, then source)."""

    keys: npt.NDArray[np.bytes_]
    starts: npt.NDArray[np.int64]
    layer: npt.NDArray[np.int32]
    source: npt.NDArray[np.int32]
    detail: npt.NDArray[np.int32]
    score: npt.NDArray[np.float64]
    strings: tuple[str, ...]

    @classmethod
    def empty(cls) -> Provenance:
        none = np.zeros(0, dtype=np.int32)
        return cls(
            np.zeros(0, dtype="S1"), np.zeros(1, dtype=np.int64), none, none, none,
            np.zeros(0, dtype=np.float64), (),
        )  # fmt: skip

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
        if layers is None or layers == (BASE_LAYER,):
            return cls.empty()
        data = con.execute(
            "SELECT t.subj || chr(9) || t.rel || chr(9) || t.obj AS key, t.rel, t.layer,"
            " coalesce(nullif(t.source, ''), t.layer) AS source, t.detail, t.score FROM triples t"
            " SEMI JOIN (SELECT DISTINCT subj, rel, obj FROM triples WHERE layer <> ?"
            "  AND list_contains(?, layer)) x ON t.subj = x.subj AND t.rel = x.rel"
            "  AND t.obj = x.obj"
            " WHERE list_contains(?, t.layer) ORDER BY t.layer, t.source",
            [BASE_LAYER, list(layers), list(layers)],
        ).fetchnumpy()
        if not len(data["key"]):
            return cls.empty()
        keys = np.char.encode(np.asarray(data["key"], dtype=str), "utf-8")
        order = np.argsort(keys, kind="stable")  # by triple, each in the store's order
        keys = keys[order]
        rels = np.asarray(data["rel"], dtype=object)[order]
        layer_of = np.asarray(data["layer"], dtype=object)[order]
        strings: dict[str, int] = {}

        def codes(values: npt.NDArray[np.object_]) -> npt.NDArray[np.int32]:
            return np.asarray(
                [-1 if v is None else strings.setdefault(str(v), len(strings)) for v in values],
                dtype=np.int32,
            )

        layer, source = codes(layer_of), codes(np.asarray(data["source"], dtype=object)[order])
        detail = codes(np.asarray(data["detail"], dtype=object)[order])
        score = np.ma.filled(np.ma.asarray(data["score"], dtype=np.float64)[order], np.nan)
        new = np.r_[True, keys[1:] != keys[:-1]]
        group = np.cumsum(new) - 1
        keep = np.ones(len(keys), dtype=bool)
        for rel, sampler in (samples or {}).items():
            code = strings.get(sampler)
            if code is None:
                continue
            of_rel = rels == rel
            stated_elsewhere = np.zeros(int(new.sum()), dtype=bool)
            stated_elsewhere[group[of_rel & (layer != code)]] = True
            keep &= ~(of_rel & (layer == code) & stated_elsewhere[group])
        keys, layer, source, detail, score = (
            keys[keep],
            layer[keep],
            source[keep],
            detail[keep],
            score[keep],
        )
        first = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
        starts = np.r_[first, len(keys)].astype(np.int64)
        return cls(keys[first], starts, layer, source, detail, score, tuple(strings))

    def state(self) -> dict[str, object]:
        """What a prepared file keeps (``of_state`` reads it back)."""
        return {f: getattr(self, f) for f in self.__dataclass_fields__}

    @classmethod
    def of_state(cls, state: dict[str, object]) -> Provenance:
        return cls(**state)  # type: ignore[arg-type]

    def _stated(self, key: bytes) -> list[EdgeSource] | None:
        if len(key) > self.keys.dtype.itemsize:  # longer than any key stated (and a search
            return None  # for it would copy the keys to its width)
        i = int(np.searchsorted(self.keys, key))
        if i >= len(self.keys) or self.keys[i] != key:
            return None
        s = self.strings
        out = []
        for row in range(int(self.starts[i]), int(self.starts[i + 1])):
            d, score = int(self.detail[row]), float(self.score[row])
            out.append(
                EdgeSource(
                    s[self.layer[row]],
                    s[self.source[row]],
                    None if d < 0 else s[d],
                    None if np.isnan(score) else score,
                )
            )
        return out

    def sources(
        self, triples: Iterable[Triple], active: Callable[[str], bool]
    ) -> dict[Triple, list[EdgeSource]]:
        """Who states each triple (undirected: either orientation); ``active`` says whether a
        node is in the store's active layers."""
        out: dict[Triple, list[EdgeSource]] = {}
        for s_, r, o in triples:
            found = self._stated(_key(s_, r, o))
            if found is None and r in UNDIRECTED:
                found = self._stated(_key(o, r, s_))
            if found is None and active(s_) and active(o):
                found = [EdgeSource(BASE_LAYER, BASE_LAYER)]
            if found:
                out[(s_, r, o)] = found
        return out
