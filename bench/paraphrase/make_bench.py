"""Held-out paraphrase benchmark generator for Helix (blind templates x the built KG store).

Fills the wording templates of ``templates.yaml`` (beside this script; slot grammar in
``SLOTS.md``) with entities of the store and writes bench-format JSONL (the format
``helix-chat eval`` reads) whose gold comes from the store's triples, plus a memory replay stream
for ``helix-chat --replay``.

Inputs, all from the data home ``$HELIX_HOME`` (required):

- ``stores/kg.duckdb``: ``nodes``, ``aliases`` and ``triples`` (entities and gold); ``passages``
  (the default corpus: its frequent words rule out entity names that read as everyday words);
  ``metapaths`` (Rephetio metapaths for the second mechanism gold; for a store built before that
  table existed, ``kg_hetionet/rephetio_metapaths.tsv`` is read from the data directory instead).

Run:  HELIX_HOME=~/helix-home python bench/paraphrase/make_bench.py [--out DIR]

Deterministic: fixed SEED, every candidate list sorted before sampling.

The code is the package ``gen/`` beside this script (store loading, slot grammar, one module
per question family, the memory replay, the output files, this command line); this script
is its entry point.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # imported rather than run: make the package gen/ importable
    sys.path.insert(0, str(HERE))

from gen import cli  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    """Generate the bench files (``gen.cli.main``) with this script's command line."""
    cli.main(argv, description=__doc__.split("\n\n")[0])


if __name__ == "__main__":
    main()
