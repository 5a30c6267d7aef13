"""Build a small, real slice of the shipped Hetionet data in Hetionet layout.

Seeds: a few diseases; kept: the compounds that treat or palliate them, those compounds'
targets, classes and similar compounds, the diseases' symptoms, anatomy, similar diseases and
associated genes, and a handful of genes whose shared synonyms make mentions ambiguous.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

from engine.ingest.sources import packaged_data_dir

SEED_DISEASES = ("DOID:10652", "DOID:14330", "DOID:1826", "DOID:9352", "DOID:8893")
EXTRA_GENES = ("4311", "780", "6921", "6923", "6924")
"""MME and DDR1 share the synonym NEP; TCEB1/2/3 share SIII: clarification cases."""
PASSAGES = 60


def _read_edges(path: Path) -> list[tuple[str, str]]:
    with gzip.open(path, "rt") as fh:
        next(fh)
        return [tuple(line.rstrip("\n").split("\t")[:2]) for line in fh]  # type: ignore[misc]


def build_slice(dest: Path) -> Path:
    src = packaged_data_dir()
    het, out = src / "hetionet", dest / "hetionet"
    out.mkdir(parents=True, exist_ok=True)
    edges = {f.name: _read_edges(f) for f in sorted(het.glob("*_*_*.tsv.gz"))}
    diseases = set(SEED_DISEASES)
    ctd = edges["Compound_Treats_Disease.tsv.gz"] + edges["Compound_Palliates_Disease.tsv.gz"]
    compounds = {c for c, d in ctd if d in diseases}
    diseases |= {d for c, d in ctd if c in compounds}
    genes = {g for c, g in edges["Compound_Binds_Gene.tsv.gz"] if c in compounds}
    genes |= {g for d, g in edges["Disease_Associates_Gene.tsv.gz"] if d in SEED_DISEASES}
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
        with gzip.open(out / name, "wt") as fh:
            fh.write(f":START_ID({s_kind})\t:END_ID({t_kind})\n")
            fh.writelines(f"{a}\t{b}\n" for a, b in sel)
    ids: set[str] = set()
    for name in out.glob("*_*_*.tsv.gz"):
        s_kind, _, t_kind = name.name.split(".")[0].split("_")
        t_kind = t_kind.replace("Compund", "Compound")
        for a, b in _read_edges(name):
            ids.add(f"{s_kind}::{a}")
            ids.add(f"{t_kind}::{b}")
    ids |= {f"Disease::{d}" for d in diseases} | {f"Gene::{g}" for g in EXTRA_GENES}
    # the official sample supplies the other metaedges; keep its rows among kept nodes
    with gzip.open(het / "hetionet-v1.0-edges-5k-per-metaedge.sif.gz", "rt") as fh:
        header = next(fh)
        sample = [line for line in fh if _sample_keep(line, ids)]
    with gzip.open(out / "hetionet-v1.0-edges-5k-per-metaedge.sif.gz", "wt") as fh:
        fh.write(header)
        fh.writelines(sample)
        for line in sample:
            a, _, b = line.rstrip("\n").split("\t")
            ids.update((a, b))
    with (
        gzip.open(het / "hetionet-v1.0-nodes.tsv.gz", "rt") as fh,
        gzip.open(out / "hetionet-v1.0-nodes.tsv.gz", "wt") as oh,
    ):
        oh.write(next(fh))
        oh.writelines(line for line in fh if line.split("\t", 1)[0] in ids)
    for name in ("metaedges.tsv", "metanodes.tsv", "rephetio_metapaths.tsv"):
        shutil.copy(het / name, out / name)
    shutil.copytree(src / "aliases", dest / "aliases", dirs_exist_ok=True)
    (dest / "passages").mkdir(exist_ok=True)
    with gzip.open(src / "passages" / "passages.jsonl.gz", "rt") as fh:
        lines = [json.loads(line) for line in fh][:PASSAGES]
    with gzip.open(dest / "passages" / "passages.jsonl.gz", "wt") as fh:
        fh.writelines(json.dumps(p) + "\n" for p in lines)
    return dest


def _sample_keep(line: str, ids: set[str]) -> bool:
    a, rel, b = line.rstrip("\n").split("\t")
    if rel in {"DpS", "DlA"}:
        return a.split("::", 1)[1] in SEED_DISEASES
    if rel == "PCiC":
        return b in ids
    return a in ids and b in ids
