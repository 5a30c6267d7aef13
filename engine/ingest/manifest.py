"""The source manifest: every third-party file the default stores are built from.

``sources.yaml`` (beside this module) pins each file to its public upstream location and
records its size, sha256, license and attribution. Nothing it lists is part of the project.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import BaseModel, Field, ValidationError

from engine.util.yamltext import safe_load

DEFAULT_MANIFEST = Path(__file__).with_name("sources.yaml")


class ManifestError(ValueError):
    """The manifest file is missing or malformed."""


class SourceFile(BaseModel):
    path: str
    """Location inside a data directory, e.g. ``kg_hetionet/metaedges.tsv``."""
    role: str
    """What ingest uses the file for (``nodes``, ``edges``, ``pubmedqa`` ...)."""
    url: str
    size: int = Field(ge=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    license: str
    attribution: str
    layer: str = "hetionet"
    """The graph layer that needs the file; every build reads the ``hetionet`` files, and one
    with no layer named those of the settings' ``build_layers`` too."""


class Manifest(BaseModel):
    version: int = 1
    files: list[SourceFile]

    @property
    def layers(self) -> list[str]:
        return list(dict.fromkeys(f.layer for f in self.files))

    def for_layers(self, layers: Iterable[str]) -> Manifest:
        """The files needed by these layers, in manifest order."""
        keep = set(layers)
        unknown = keep - set(self.layers)
        if unknown:
            raise ManifestError(
                f"unknown layer(s) {', '.join(sorted(unknown))}; known: {', '.join(self.layers)}"
            )
        return Manifest(version=self.version, files=[f for f in self.files if f.layer in keep])

    def by_role(self, role: str) -> list[SourceFile]:
        return [f for f in self.files if f.role == role]

    @property
    def total_size(self) -> int:
        return sum(f.size for f in self.files)


def load_manifest(path: Path = DEFAULT_MANIFEST) -> Manifest:
    """Read and validate a manifest file."""
    try:
        raw = safe_load(path.read_text(encoding="utf-8"))
        return Manifest.model_validate(raw)
    except OSError as exc:
        raise ManifestError(f"cannot read manifest {path}: {exc}") from exc
    except (yaml.YAMLError, ValidationError) as exc:
        raise ManifestError(f"malformed manifest {path}: {exc}") from exc


@lru_cache(maxsize=1)
def default_manifest() -> Manifest:
    return load_manifest(DEFAULT_MANIFEST)
