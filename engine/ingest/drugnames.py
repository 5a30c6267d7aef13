"""International drug names from DrugCentral's identifier table.

DrugCentral names each active ingredient by its WHO INN and lists the DrugBank id of the same
ingredient, so the graph's drugs, named by DrugBank's (often US) names, get the international
one as an alias: Acetaminophen is also paracetamol, Glyburide glibenclamide. A name maps to a
drug only through an identifier the file states; nothing is matched by spelling.
"""

from __future__ import annotations

import csv
import gzip
from collections import defaultdict
from collections.abc import Iterator, Mapping
from pathlib import Path

SOURCE = "drugcentral"


def _listed(path: Path, names: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """DrugCentral drug id -> {graph compound id: INN} of the DrugBank ids it lists."""
    opener = gzip.open if path.suffix == ".gz" else open
    out: dict[str, dict[str, str]] = defaultdict(dict)
    with opener(path, "rt", encoding="utf-8", newline="") as fh:  # type: ignore[operator]
        for row in csv.DictReader(fh, delimiter="\t"):
            if row.get("ID_TYPE") != "DRUGBANK_ID":
                continue
            node = f"Compound::{(row.get('IDENTIFIER') or '').strip()}"
            inn = (row.get("DRUG_NAME") or "").strip()
            if node in names and inn:
                out[row.get("DRUG_ID") or inn][node] = inn
    return out


def inn_names(path: Path, names: Mapping[str, str]) -> Iterator[tuple[str, str, str]]:
    """(alias, node_id, source) for each INN whose DrugBank id is a graph compound in ``names``
    (node id -> its name) and that differs from that name. A drug listing several graph
    compounds keeps the one no other drug lists ("levodopa" lists dopamine's id beside its
    own); with none or several such, its name is no alias of any."""
    listed = _listed(path, names)
    claims: dict[str, int] = defaultdict(int)
    for nodes in listed.values():
        for node in nodes:
            claims[node] += 1
    for nodes in listed.values():
        own = [n for n in nodes if claims[n] == 1] if len(nodes) > 1 else list(nodes)
        if len(own) != 1:
            continue
        node, inn = own[0], nodes[own[0]]
        if inn.lower() != names[node].lower():
            yield inn[:1].upper() + inn[1:], node, SOURCE
