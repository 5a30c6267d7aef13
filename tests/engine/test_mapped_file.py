"""A prepared file whose arrays are mapped, not copied (``engine/util/artefact.py``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from engine.util.artefact import read_mapped, write_mapped

PRINT = {"format": 1, "store": "/x/kg.duckdb", "size": 3}


def payload() -> dict[str, object]:
    return {
        "adj": {"CtD": (np.arange(10, dtype=np.int64), np.arange(7, dtype=np.int32) * 3)},
        "keys": np.array([b"a", b"bc"], dtype="S2"),
        "names": ["metformin", "asthma"],
        "n": 5,
    }


def test_arrays_are_read_back_as_views_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "graph.pickle"
    assert write_mapped(path, PRINT, payload())
    read, why = read_mapped(path, PRINT, "graph")
    assert why == ""
    indptr, indices = read["adj"]["CtD"]
    assert indptr.tolist() == list(range(10)) and indices.tolist() == [0, 3, 6, 9, 12, 15, 18]
    assert read["keys"].tolist() == [b"a", b"bc"]
    assert (read["names"], read["n"]) == (["metformin", "asthma"], 5)
    assert not indptr.flags.writeable and not indptr.flags.owndata  # the file's pages
    assert indptr.ctypes.data % 64 == 0 and indices.ctypes.data % 64 == 0


def test_a_stale_or_truncated_file_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "graph.pickle"
    write_mapped(path, PRINT, payload())
    stale, why = read_mapped(path, {**PRINT, "size": 4}, "graph")
    assert stale is None and "stale (size changed)" in why
    path.write_bytes(path.read_bytes()[:-40])
    cut, why = read_mapped(path, PRINT, "graph")
    assert cut is None and "cannot be read" in why
    missing, why = read_mapped(tmp_path / "none.pickle", PRINT, "graph")
    assert missing is None and "no prepared graph" in why
