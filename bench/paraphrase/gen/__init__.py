"""The paraphrase bench generator behind ``make_bench.py`` (see that script and ``README.md``).

Modules, in the order the bench is built:

- ``kg``: the built KG store (``$HELIX_HOME/stores/kg.duckdb``): entities, edges, metapaths and
  the filter of unambiguous entity names;
- ``slots``: the slot grammar of the wording templates (``[Compound]``, ...) and the bench record;
- ``onehop``, ``multihop``, ``mechanism`` (with the Rephetio second gold), ``claims``,
  ``overview`` (with literature): one module per question family;
- ``memory``: the memory replay stream (its own random generator);
- ``output``: the files written, in order; ``cli``: the command line of ``make_bench.py``.

Deterministic: fixed SEED, every candidate list sorted before sampling.
"""

SEED = 20260417
