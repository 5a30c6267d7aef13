"""The default passage corpus, built from its upstream files at ingest time.

PubMedQA PQA-L contexts (one passage per context paragraph, ``pubmedqa:<PMID>:<i>``, titled
with the item's MeSH headings) and the Disease Ontology definitions of the graph's diseases
(``doid:<DOID>``, relation names such as ``located_in`` written as words).
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from pathlib import Path

from engine.ingest.sources import DataError

Passage = tuple[str, str, str, str]
"""(id, source, title, text)"""

_RELATION_WORD = re.compile(r"(?<=[a-z])_(?=[a-z])")


def pubmedqa_passages(path: Path) -> Iterator[Passage]:
    try:
        items = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DataError(f"{path}: not a PubMedQA JSON file ({exc})") from exc
    if not isinstance(items, dict):
        raise DataError(f"{path}: expected an object keyed by PMID")
    for pmid in sorted(items, key=lambda k: (len(k), k)):
        item = items[pmid]
        try:
            title = "; ".join(item.get("MESHES", []))
            contexts = list(item["CONTEXTS"])
        except (AttributeError, KeyError, TypeError) as exc:
            raise DataError(f"{path}: item {pmid} has no CONTEXTS") from exc
        for i, text in enumerate(contexts):
            yield f"pubmedqa:{pmid}:{i}", "pubmedqa", title, str(text)


def pubmedqa_documents(path: Path) -> Iterator[tuple[str, str, str]]:
    """(doc, title, conclusion) of each PubMedQA article: its title and the conclusion of its
    abstract, which a literature answer quotes (the passages hold the other sections)."""
    items = json.loads(path.read_text(encoding="utf-8"))
    for pmid in sorted(items, key=lambda k: (len(k), k)):
        item = items[pmid]
        title, conclusion = str(item.get("QUESTION") or ""), str(item.get("LONG_ANSWER") or "")
        if conclusion.strip():
            yield f"pubmedqa:{pmid}", title.strip(), conclusion.strip()


def disease_definitions(path: Path, disease_ids: set[str]) -> Iterator[Passage]:
    """Definitions of the diseases in ``disease_ids`` (Hetionet ids ``Disease::DOID:…``)."""
    with path.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
            doid, text = row.get("disease_id") or "", (row.get("description") or "").strip()
            if text and f"Disease::{doid}" in disease_ids:
                text = _RELATION_WORD.sub(" ", text)
                yield f"doid:{doid}", "disease-ontology", row.get("name") or "", text
