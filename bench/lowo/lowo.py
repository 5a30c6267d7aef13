"""Leave-one-wording-out on the dev question files.

Each dev question is asked twice by the same engine:

- **all-in**: the engine as shipped;
- **held out**: the engine without what the question's wording (the question with its seed
  entities' names cut out) could have taught it. Every alternative of a relation-cue pattern
  (``engine.understand.lexicon.CUES``) that matches in the wording and in no other wording of the
  given files is dropped, and every exemplar-bank wording that shares at least half of its
  words with it is left out of the semantic scorer (its row is zeroed, so it never ranks among
  a slot's best matches).

``--strict`` drops every cue alternative that matches in the wording, even one all the other
wordings share: what remains is the semantic layer and the cues the question does not use.
The scores come from ``engine.eval.metrics`` (the product's scorer).

    HELIX_HOME=~/helix-home python bench/lowo/lowo.py \
        ../shared/bench/kgqa_dev.jsonl ../shared/bench/multihop_dev.jsonl --out lowo.json
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import engine.understand.parse as parse
from engine.api import Helix
from engine.config import Settings
from engine.eval.metrics import score_question
from engine.eval.runner import load_questions
from engine.understand.lexicon import CUES

WORD = re.compile(r"[a-z0-9][a-z0-9'-]*")
PLACEHOLDER = re.compile(r"\[\w+\]")


def alternatives(pattern: str) -> list[str]:
    """The top-level ``|`` alternatives of a regex (groups are kept whole)."""
    out, depth, cur = [], 0, ""
    for ch in pattern:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "|" and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out


def same_wording(a: str, b: str) -> bool:
    """Two questions share a wording when they share at least 70 % of their words (the
    seed's name cut out of both; an alias left in one still counts as the same wording)."""
    wa, wb = words(a), words(b)
    return bool(wa and wb) and len(wa & wb) / len(wa | wb) >= 0.7


def masked_cues(
    wording: str, others: list[str] | None = None
) -> tuple[tuple[re.Pattern[str], tuple[str, ...], float], ...]:
    """The cue table without the alternatives ``wording`` could have taught it.

    Strict (``others`` is None): every alternative that matches in ``wording``. Leave one
    wording out: only those that match in no other wording of the dev files (``others``),
    i.e. the cues a table fitted without this wording would not have had."""
    kept = []
    for pattern, rels, weight in CUES:
        alts = [
            a
            for a in alternatives(pattern)
            if not re.search(a, wording)
            or (others is not None and any(re.search(a, o) for o in others))
        ]
        if alts:
            kept.append((re.compile("|".join(alts)), rels, weight))
    return tuple(kept)


def words(text: str) -> set[str]:
    return set(WORD.findall(PLACEHOLDER.sub(" ", text.lower())))


def wording_of(question: str, names: list[str]) -> str:
    """The question in lower case with the seeds' names cut out (longest first)."""
    text = question.lower()
    for name in sorted((n.lower() for n in names if n), key=len, reverse=True):
        text = text.replace(name, " ")
    return re.sub(r"\s+", " ", text).strip()


@contextmanager
def held_out(helix: Helix, wording: str, others: list[str] | None = None) -> Iterator[int]:
    """Run with the cues and bank wordings of ``wording`` removed; yields the number of bank
    wordings left out."""
    planner: Any = helix.c.planner
    semantic = planner.semantic
    saved_cues = parse.COMPILED_CUES
    saved_matrix = semantic.matrix if semantic is not None else None
    dropped = 0
    try:
        parse.COMPILED_CUES = masked_cues(wording, others)
        if semantic is not None:
            own = words(wording)
            texts = [w for s in semantic.bank.slots for w in s.wordings]
            rows = []
            for i, text in enumerate(texts):
                theirs = words(text)
                if own and theirs and len(own & theirs) / len(own | theirs) >= 0.5:
                    rows.append(i)
            if rows:
                matrix = semantic.matrix.copy()
                matrix[rows] = 0.0
                semantic.matrix = matrix
            dropped = len(rows)
        yield dropped
    finally:
        parse.COMPILED_CUES = saved_cues
        if semantic is not None:
            semantic.matrix = saved_matrix


def seed_names(helix: Helix, record: dict[str, Any]) -> list[str]:
    store: Any = helix.c.store
    names: list[str] = []
    for seed in record.get("seeds") or []:
        idx = store.index.get(seed)
        if idx is not None:
            names.append(store.names[idx])
    return names


def summarise(scores: list[dict[str, float]]) -> dict[str, float | int]:
    keys = sorted({k for s in scores for k in s})
    out: dict[str, float | int] = {"n": len(scores)}
    for key in keys:
        vals = [s[key] for s in scores if key in s]
        out[key] = round(statistics.fmean(vals), 3) if vals else float("nan")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, help="write per-question rows (JSON) here")
    ap.add_argument(
        "--strict",
        action="store_true",
        help="drop every cue that matches the question's wording, not only those no other "
        "dev wording has",
    )
    args = ap.parse_args(argv)
    helix = Helix.open(Settings(), auto_ingest=False)
    rows = []
    table: dict[str, dict[str, list[dict[str, float]]]] = defaultdict(lambda: defaultdict(list))
    try:
        records = [(path, r) for path in args.files for r in load_questions(path)]
        wordings = [wording_of(r["question"], seed_names(helix, r)) for _, r in records]
        distinct = sorted(set(wordings))
        for (path, record), wording in zip(records, wordings, strict=True):
            question = record["question"]
            others = None if args.strict else [w for w in distinct if not same_wording(w, wording)]
            row: dict[str, Any] = {"id": record["id"], "wording": wording}
            for label in ("all_in", "held_out"):
                if label == "all_in":
                    result = helix.ask(question, qid=record["id"]).to_contract()
                else:
                    with held_out(helix, wording, others) as dropped:
                        result = helix.ask(question, qid=record["id"]).to_contract()
                    row["bank_rows_dropped"] = dropped
                qs = score_question(record, result)
                values = {k: v for k, v in qs.values.items() if v is not None}
                table[path.name][label].append(values)
                row[label] = values
            rows.append(row)
    finally:
        helix.close()
    report = {
        name: {label: summarise(vals) for label, vals in per.items()} for name, per in table.items()
    }
    json.dump(report, sys.stdout, indent=1)
    print()
    if args.out:
        args.out.write_text(json.dumps({"report": report, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
