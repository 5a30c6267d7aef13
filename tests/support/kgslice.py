"""Build a small, real slice of the Hetionet data in the data-directory layout.

Seeds: a few diseases; kept: the compounds that treat or palliate them, those compounds'
targets, classes and similar compounds, the diseases' symptoms, anatomy, similar diseases and
associated genes, and a handful of genes whose shared synonyms make mentions ambiguous. The
slice holds every file of the source manifest (edge lists and PubMedQA cut down), so a build
from it reads nothing else.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

from engine.config import Settings
from engine.ingest.datadir import locate, search_dirs
from engine.ingest.manifest import default_manifest

SEED_DISEASES = ("DOID:10652", "DOID:14330", "DOID:1826", "DOID:9352", "DOID:8893")
EXTRA_GENES = ("4311", "780", "6921", "6923", "6924")
"""MME and DDR1 share the synonym NEP; TCEB1/2/3 share SIII: clarification cases."""
PASSAGES = 60


def source_files() -> dict[str, Path] | None:
    """Manifest path -> file in the data directories, or None when any file is missing."""
    found = locate(default_manifest(), search_dirs(Settings()))
    if not all(x.found for x in found):
        return None
    return {x.source.path: x.path for x in found if x.path is not None}


def _open(path: Path, mode: str = "rt"):  # type: ignore[no-untyped-def]
    return gzip.open(path, mode) if path.suffix == ".gz" else path.open(mode[0])


def _read_edges(path: Path) -> list[tuple[str, str]]:
    with _open(path) as fh:
        next(fh)
        return [tuple(line.rstrip("\n").split("\t")[:2]) for line in fh]  # type: ignore[misc]


def build_slice(dest: Path) -> Path:
    files = source_files()
    if files is None:
        raise FileNotFoundError("Hetionet data not found (helix-chat data status)")
    het = "kg_hetionet/"
    full = "kg_hetionet/edges_full_16_metaedges/"
    out = dest / full
    out.mkdir(parents=True, exist_ok=True)
    edges = {Path(p).name: _read_edges(f) for p, f in sorted(files.items()) if p.startswith(full)}
    diseases = set(SEED_DISEASES)
    ctd = edges["Compound_Treats_Disease.tsv"] + edges["Compound_Palliates_Disease.tsv"]
    compounds = {c for c, d in ctd if d in diseases}
    diseases |= {d for c, d in ctd if c in compounds}
    genes = {g for c, g in edges["Compound_Binds_Gene.tsv"] if c in compounds}
    genes |= {g for d, g in edges["Disease_Associates_Gene.tsv"] if d in SEED_DISEASES}
    genes |= set(EXTRA_GENES)
    keep = {"Compound": compounds, "Disease": diseases, "Gene": genes}
    for name, rows in edges.items():
        s_kind, _, t_kind = name.split(".")[0].split("_")
        t_kind = t_kind.replace("Compund", "Compound")
        sk, tk = keep.get(s_kind), keep.get(t_kind)
        sel = [
            (a, b)
            for a, b in rows
            if (sk is None or a in sk)
            and (tk is None or b in tk)
            and (sk is not None or tk is not None)
        ]
        if s_kind == "Disease":
            sel = [(a, b) for a, b in sel if a in SEED_DISEASES]
        if s_kind == "Anatomy" or (s_kind == "Gene" and t_kind == "Gene"):
            sel = sel[:150]
        if name.startswith("Disease_Associates"):
            sel = sel[:150]
        with (out / name).open("w") as fh:
            fh.write(f":START_ID({s_kind})\t:END_ID({t_kind})\n")
            fh.writelines(f"{a}\t{b}\n" for a, b in sel)
    ids: set[str] = set()
    for name in out.glob("*_*_*.tsv"):
        s_kind, _, t_kind = name.name.split(".")[0].split("_")
        t_kind = t_kind.replace("Compund", "Compound")
        for a, b in _read_edges(name):
            ids.add(f"{s_kind}::{a}")
            ids.add(f"{t_kind}::{b}")
    ids |= {f"Disease::{d}" for d in diseases} | {f"Gene::{g}" for g in EXTRA_GENES}
    # the official sample supplies the other metaedges; keep its rows among kept nodes
    sif = f"{het}hetionet-v1.0-edges-5k-per-metaedge.sif.gz"
    with gzip.open(files[sif], "rt") as fh:
        header = next(fh)
        sample = [line for line in fh if _sample_keep(line, ids)]
    with gzip.open(dest / sif, "wt") as fh:
        fh.write(header)
        fh.writelines(sample)
        for line in sample:
            a, _, b = line.rstrip("\n").split("\t")
            ids.update((a, b))
    nodes = f"{het}hetionet-v1.0-nodes.tsv"
    with _open(files[nodes]) as fh, (dest / nodes).open("w") as oh:
        oh.write(next(fh))
        oh.writelines(line for line in fh if line.split("\t", 1)[0] in ids)
    for name in ("metaedges.tsv", "rephetio_metapaths.tsv"):
        shutil.copy(files[het + name], dest / het / name)
    for rel, path in files.items():
        if rel.startswith("kg_aliases/") or rel.endswith(("/HumanDO.tsv", "/identifiers.tsv")):
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, dest / rel)
    pqa = "qa/pubmedqa/ori_pqal.json"
    items = json.loads(files[pqa].read_text(encoding="utf-8"))
    kept: dict[str, object] = {}
    left = PASSAGES
    for pmid in sorted(items, key=lambda k: (len(k), k)):
        if left <= 0:
            break
        item = dict(items[pmid])
        item["CONTEXTS"] = item["CONTEXTS"][:left]
        left -= len(item["CONTEXTS"])
        kept[pmid] = item
    (dest / pqa).parent.mkdir(parents=True, exist_ok=True)
    (dest / pqa).write_text(json.dumps(kept), encoding="utf-8")
    return dest


def _sample_keep(line: str, ids: set[str]) -> bool:
    a, rel, b = line.rstrip("\n").split("\t")
    if rel in {"DpS", "DlA"}:
        return a.split("::", 1)[1] in SEED_DISEASES
    if rel == "PCiC":
        return b in ids
    return a in ids and b in ids
