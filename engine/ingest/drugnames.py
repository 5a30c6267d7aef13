"""International drug names from DrugCentral's identifier table.

DrugCentral names each active ingredient by its WHO INN and lists the DrugBank id of the same
ingredient, so the graph's drugs, named by DrugBank's (often US) names, get the international
one as an alias: Acetaminophen is also paracetamol, Albuterol salbutamol, Glyburide
glibenclamide. A name maps to a drug only through an identifier the file states; nothing is
matched by spelling.
"""

from __future__ import annotations

import csv
import gzip
from collections.abc import Iterator, Mapping
from pathlib import Path

SOURCE = "drugcentral"


def inn_names(path: Path, names: Mapping[str, str]) -> Iterator[tuple[str, str, str]]:
    """(alias, node_id, source) for each INN whose DrugBank id is a graph compound in ``names``
    (node id -> its name) and that differs from that name."""
    opener = gzip.open if path.suffix == ".gz" else open
    seen: set[tuple[str, str]] = set()
    with opener(path, "rt", encoding="utf-8", newline="") as fh:  # type: ignore[operator]
        for row in csv.DictReader(fh, delimiter="\t"):
            if row.get("ID_TYPE") != "DRUGBANK_ID":
                continue
            node = f"Compound::{(row.get('IDENTIFIER') or '').strip()}"
            inn = (row.get("DRUG_NAME") or "").strip()
            if node not in names or not inn or inn.lower() == names[node].lower():
                continue
            if (inn, node) not in seen:
                seen.add((inn, node))
                yield inn[:1].upper() + inn[1:], node, SOURCE
