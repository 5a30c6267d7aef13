"""The embedder interface: text in, L2-normalised float32 vectors out."""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]


class Embedder(Protocol):
    name: str
    dim: int

    def encode(self, texts: list[str]) -> Vectors:
        """Embed ``texts``; rows are L2-normalised."""
        ...
