"""The default build's inputs, resolved from the source manifest over the data directories."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.config import Settings
from engine.ingest.datadir import Located, locate, search_dirs
from engine.ingest.manifest import Manifest, default_manifest
from engine.ingest.sources import DRUG_NAMES, AliasSource, DataError, KGSource

ROLE_TO_ALIAS = {
    "disease_names": "disease-ontology_term-names.tsv",
    "disease_descriptions": "disease-ontology_description.tsv",
    "gene_info": "ncbi_Homo_sapiens.gene_info",
    "drug_aliases": "drugbank_aliases.json",
    "do_terms": "HumanDO.tsv",
    "drugcentral_identifiers": DRUG_NAMES,
}


@dataclass(frozen=True)
class DefaultData:
    kg: KGSource
    aliases: AliasSource
    pubmedqa: Path
    disease_descriptions: Path
    metapaths: Path
    located: list[Located]

    @property
    def files(self) -> list[Path]:
        return [x.path for x in self.located if x.path is not None]


class DataMissing(DataError):
    """Manifest files are in none of the data directories."""

    def __init__(self, names: list[str], dirs: list[Path], size: int) -> None:
        self.names, self.dirs, self.size = names, dirs, size
        where = ", ".join(str(d) for d in dirs) or "no data directory exists"
        shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
        super().__init__(
            f"{len(names)} data file(s) missing ({shown}); searched: {where}. "
            "Run `helix-chat data pull` to download them, or set HELIX_DATA_DIR."
        )


def _locate_all(settings: Settings, manifest: Manifest) -> list[Located]:
    """Locate every file of ``manifest``; raises ``DataMissing`` naming what is absent."""
    dirs = search_dirs(settings)
    found = locate(manifest, dirs)
    absent = [x.source for x in found if not x.found]
    if absent:
        raise DataMissing([s.path for s in absent], dirs, sum(s.size for s in absent))
    return found


def build_manifest(settings: Settings, manifest: Manifest | None = None) -> Manifest:
    """The files a build with no layers named reads: Hetionet's and those of the settings'
    ``build_layers`` (and of the layers they read files of); ``ManifestError`` for a layer the
    manifest does not know."""
    from engine.ingest.extras import PACK_NEEDS

    layers = settings.build_layer_list
    needed = [n for layer in layers for n in PACK_NEEDS.get(layer, ())]
    return (manifest or default_manifest()).for_layers(["hetionet", *needed, *layers])


def resolve_layer(
    settings: Settings, layer: str, manifest: Manifest | None = None
) -> dict[str, Path]:
    """The files of one data layer (e.g. ``disease-pack``) by role."""
    # a layer is built over the default one: its roles are there too ('do_terms')
    found = _locate_all(settings, (manifest or default_manifest()).for_layers([layer, "hetionet"]))
    return {x.source.role: x.path for x in found if x.path is not None}


def resolve_default(settings: Settings, manifest: Manifest | None = None) -> DefaultData:
    """Locate the default (``hetionet`` layer) files; raises ``DataMissing`` naming what is
    absent."""
    found = _locate_all(settings, (manifest or default_manifest()).for_layers(["hetionet"]))

    def one(role: str) -> Path:
        paths = [x.path for x in found if x.source.role == role and x.path is not None]
        if len(paths) != 1:
            raise DataError(f"the manifest must list exactly one '{role}' file")
        return paths[0]

    edges = sorted(
        (x.path for x in found if x.source.role == "edges" and x.path is not None),
        key=lambda p: p.name,
    )
    kg = KGSource(
        nodes=one("nodes"), metaedges=one("metaedges"), edge_files=edges, sample=one("edge_sample")
    )
    aliases = AliasSource({stem: one(role) for role, stem in ROLE_TO_ALIAS.items()})
    return DefaultData(
        kg=kg,
        aliases=aliases,
        pubmedqa=one("pubmedqa"),
        disease_descriptions=one("disease_descriptions"),
        metapaths=one("metapaths"),
        located=found,
    )
