"""The bench files: generated in a fixed order from one random generator, written as JSONL."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from . import SEED
from .claims import gen_claims
from .kg import Metapath
from .mechanism import gen_mechanism, rephetio_gold
from .memory import MemoryStream
from .multihop import gen_multihop
from .onehop import gen_onehop
from .overview import gen_literature, gen_overview


def write(out: Path, name: str, rows: list[dict]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with (out / name).open("w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"{name}: {len(rows)}")


def write_bench(out: Path, T: dict, metapaths: list[Metapath]) -> None:
    """Generate every bench file from the templates ``T`` and write it into ``out``."""
    # one generator for the question files, drawn from in this order; the replay has its own
    rng = random.Random(SEED)
    write(out, "paraphrase_onehop.jsonl", gen_onehop(T, rng))
    write(out, "paraphrase_multihop.jsonl", gen_multihop(T, rng))
    mech = gen_mechanism(T, rng)
    write(out, "paraphrase_mechanism.jsonl", mech)
    write(out, "paraphrase_mechanism.rephetio_gold.jsonl", rephetio_gold(mech, metapaths))
    write(out, "paraphrase_claims.jsonl", gen_claims(T, rng))
    write(out, "paraphrase_overview.jsonl", gen_overview(T, rng))
    write(out, "paraphrase_literature.jsonl", gen_literature(T))

    replay, probe_kinds = MemoryStream(T["memory"]).build()
    write(out, "paraphrase_memory.replay.jsonl", replay)
    print("  memory events:", Counter(r["type"] for r in replay), dict(probe_kinds))
