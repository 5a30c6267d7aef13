"""Retrieval modes and fusion as named presets, defined once.

A mode (``MODES``) says which retrievers answer a question; the fusion (``Fusion``) how a graph
answer's score and the support of the passages naming it combine. The engine runs
``MODES[mode]`` and ``Fusion.of(settings)``; nothing else spells a mode or a fusion out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engine.config import FusionMethod, Mode, Settings

RRF_K = 60
"""Reciprocal rank fusion's damping constant (Cormack et al., 2009): the top ranks of one list
do not swamp agreement between lists."""


@dataclass(frozen=True)
class RetrievalPreset:
    """One retrieval mode as data: which retrievers answer."""

    mode: Mode
    baseline: bool
    """The dense-only baseline answers (FAISS over passages and verbalised triples) instead of
    planning the question and walking the graph."""
    passages: bool
    """Passages (FAISS + BM25, grouped by document) are searched beside the walk: they support
    graph answers (fusion), seed the walk when nothing links, and answer as literature when
    the graph cannot."""


HYBRID = RetrievalPreset("hybrid", baseline=False, passages=True)
GRAPH = RetrievalPreset("graph", baseline=False, passages=False)
DENSE = RetrievalPreset("dense", baseline=True, passages=False)

MODES: Mapping[Mode, RetrievalPreset] = MappingProxyType(
    {p.mode: p for p in (HYBRID, GRAPH, DENSE)}
)
"""Every mode's preset, by name."""


@dataclass(frozen=True)
class Fusion:
    """How a graph answer's score and its passage support combine: ``weighted`` (``graph_weight
    * graph + (1 - graph_weight) * dense`` over min-max-scaled scores) or ``rrf`` (reciprocal
    rank fusion of the two rankings, ``rrf_k``)."""

    method: FusionMethod
    graph_weight: float
    rrf_k: int = RRF_K

    @classmethod
    def of(cls, settings: Settings) -> Fusion:
        """The fusion the settings choose (``HELIX_FUSION``, ``HELIX_GRAPH_WEIGHT``)."""
        return cls(settings.fusion, settings.graph_weight)
