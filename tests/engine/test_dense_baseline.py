"""The dense-only baseline says why when it retrieves nothing (issue 37, item 6: no
NOT_ANSWERED comes back with an empty text)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from engine.agent.dense import DenseBaseline
from engine.agent.steps import Steps
from engine.index.vectors import VectorIndex
from engine.result import Status


def test_nothing_retrieved_is_said(helix: Any, tmp_path: Path) -> None:
    c = helix.c
    baseline = DenseBaseline(c.store, None, c.embedder, tmp_path, 5)  # no passage index
    baseline.triples = VectorIndex.build([], np.zeros((0, 384), dtype=np.float32))
    result = baseline.answer("Which drugs treat asthma?", Steps(None))
    assert result.status is Status.NOT_ANSWERED and result.answers == []
    assert (
        result.text.strip() == "Dense retrieval found no passage and no triple for this question."
    )
    assert result.stop_reason == "nothing retrieved"
