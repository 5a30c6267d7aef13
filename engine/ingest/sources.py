"""The raw files a build reads: the manifest's default data, or a directory the user adds."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


class DataError(RuntimeError):
    """Raw input data is missing or malformed."""


@dataclass(frozen=True)
class KGSource:
    """Hetionet-layout files: nodes TSV, metaedges, complete edge lists, the 5k sample."""

    nodes: Path
    metaedges: Path
    edge_files: list[Path] = field(default_factory=list)
    sample: Path | None = None

    @classmethod
    def from_dir(cls, root: Path) -> KGSource:
        """A directory in Hetionet layout (``--kg DIR``); edge lists may sit in a subfolder."""
        files = [
            f
            for pattern in ("*_*_*.tsv.gz", "*_*_*.tsv", "*/*_*_*.tsv.gz", "*/*_*_*.tsv")
            for f in sorted(root.glob(pattern))
            if f.name.split(".")[0].count("_") == 2
        ]
        sample = next(
            (
                root / n
                for n in ("hetionet-v1.0-edges-5k-per-metaedge.sif.gz", "edges.sif.gz", "edges.sif")
                if (root / n).exists()
            ),
            None,
        )
        return cls(
            nodes=_first(
                root, ["hetionet-v1.0-nodes.tsv.gz", "hetionet-v1.0-nodes.tsv", "nodes.tsv"]
            ),
            metaedges=_first(root, ["metaedges.tsv"]),
            edge_files=files,
            sample=sample,
        )

    @property
    def files(self) -> list[Path]:
        return [self.nodes, *self.edge_files, *([self.sample] if self.sample else [])]


DO_TERMS = "HumanDO.tsv"
"""Disease Ontology terms with their parents: the graph's nearest diseases for the others."""
DRUG_NAMES = "identifiers.tsv"
"""DrugCentral's identifiers, keyed by the WHO INN name of each active ingredient: the
international name of a drug the graph knows by its US name (paracetamol, salbutamol)."""
ALIAS_STEMS = (
    "disease-ontology_term-names.tsv",
    DO_TERMS,
    DRUG_NAMES,
    "disease-ontology_description.tsv",
    "ncbi_Homo_sapiens.gene_info",
    "drugbank_aliases.json",
)


@dataclass(frozen=True)
class AliasSource:
    """Alias files by stem (plain or ``.gz``); a stem without a file is skipped."""

    files: dict[str, Path] = field(default_factory=dict)

    @classmethod
    def from_dir(cls, root: Path) -> AliasSource:
        found: dict[str, Path] = {}
        for stem in ALIAS_STEMS:
            for cand in (root / f"{stem}.gz", root / stem):
                if cand.exists():
                    found[stem] = cand
                    break
        return cls(found)

    def path(self, stem: str) -> Path | None:
        return self.files.get(stem)


def _first(root: Path, names: list[str]) -> Path:
    for n in names:
        if (root / n).exists():
            return root / n
    raise DataError(f"none of {names} found in {root}")
