"""Where the raw data lives: the copy shipped in the package, or a directory given by the user."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path


class DataError(RuntimeError):
    """Raw input data is missing or malformed."""


@dataclass(frozen=True)
class KGSource:
    """A Hetionet-layout directory: nodes TSV, complete edge lists, the 5k-per-metaedge sample."""

    root: Path

    @property
    def nodes(self) -> Path:
        return _first(
            self.root, ["hetionet-v1.0-nodes.tsv.gz", "hetionet-v1.0-nodes.tsv", "nodes.tsv"]
        )

    @property
    def metaedges(self) -> Path:
        return _first(self.root, ["metaedges.tsv"])

    @property
    def edge_files(self) -> list[Path]:
        files = sorted(self.root.glob("*_*_*.tsv.gz")) + sorted(self.root.glob("*_*_*.tsv"))
        return [f for f in files if f.name.count("_") == 2]

    @property
    def sample(self) -> Path | None:
        for name in ("hetionet-v1.0-edges-5k-per-metaedge.sif.gz", "edges.sif.gz", "edges.sif"):
            if (self.root / name).exists():
                return self.root / name
        return None


@dataclass(frozen=True)
class AliasSource:
    root: Path

    def path(self, stem: str) -> Path | None:
        for cand in (self.root / f"{stem}.gz", self.root / stem):
            if cand.exists():
                return cand
        return None


def _first(root: Path, names: list[str]) -> Path:
    for n in names:
        if (root / n).exists():
            return root / n
    raise DataError(f"none of {names} found in {root}")


def packaged_data_dir() -> Path:
    return Path(str(resources.files("engine.data")))


def default_sources(data_dir: Path | None) -> tuple[KGSource, AliasSource, list[Path]]:
    """KG, aliases and passage files under ``data_dir`` (shipped data when None)."""
    base = data_dir or packaged_data_dir()
    kg_dir = base / "hetionet" if (base / "hetionet").is_dir() else base
    alias_dir = base / "aliases" if (base / "aliases").is_dir() else base
    passages = sorted((base / "passages").glob("*.jsonl*")) if (base / "passages").is_dir() else []
    return KGSource(kg_dir), AliasSource(alias_dir), passages
