"""Leave-one-wording-out for memory questions: the dev replay without what its wordings taught.

The replay's ask wordings (names, MRNs, values and dates cut out) are grouped into wordings
(``lowo.same_wording``). Then, for every wording at once:

- every ask cue of ``memory/relations.yaml`` and every routing or time regex of
  ``memory/rules.yaml`` that matches in **only one** wording is dropped (a cue no other wording
  uses can only have been taught by that one, and it matches no other, so dropping it for all
  is the same as dropping it for its own);
- for each question, every ``memory_ask`` wording of the exemplar bank that shares at least
  half of its words with that question (its names masked) is left out of its reading
  (``--strict-bank``: those of every dev ask wording, for all questions).

The replay then runs twice in one process, as shipped and held out, on fresh homes whose
``stores/`` point at the given home's store, and both reports are printed.

    HELIX_HOME=~/helix-home python bench/lowo/memory_lowo.py ../shared/bench/memory_dev.replay.jsonl
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml
from lowo import same_wording, words  # beside this script

import memory.asks as asks
import memory.relations as relations
import memory.router as router

NAME = re.compile(
    r"\b(?:MRN|pt|patient|Mr|Mrs|Ms|Dr)\.?\s*#?\d*\b|#?\b\S*\d\S*|(?<!^)(?<![.?!] )\b[A-Z]\w+"
)


def wording(text: str) -> str:
    """The ask with its names, numbers and capitalised words cut out, lower-cased."""
    return re.sub(r"\s+", " ", NAME.sub(" ", text)).strip().lower()


def clusters(texts: list[str]) -> list[list[str]]:
    """Wordings grouped by ``same_wording`` (greedy, first member as the representative)."""
    groups: list[list[str]] = []
    for text in texts:
        for group in groups:
            if same_wording(group[0], text):
                group.append(text)
                break
        else:
            groups.append([text])
    return groups


def taught_by_one(pattern: str, groups: list[list[str]], raw: dict[str, list[str]]) -> bool:
    """The regex matches in the questions of exactly one wording."""
    rx = re.compile(pattern, re.IGNORECASE)
    hits = sum(any(rx.search(q) for w in g for q in raw[w]) for g in groups)
    return hits == 1


def held_out_files(asks_raw: list[str], out: Path, strict_bank: bool) -> dict[str, Any]:
    raw: dict[str, list[str]] = {}
    for q in asks_raw:
        raw.setdefault(wording(q), []).append(q)
    groups = clusters(sorted(raw))
    dropped: dict[str, Any] = {"wordings": len(groups)}

    cat = yaml.safe_load(relations.DEFAULT_PATH.read_text(encoding="utf-8"))
    n = 0
    for spec in cat["relations"].values():
        kept = []
        for cue in spec.get("ask") or []:
            rx = cue["re"] if isinstance(cue, dict) else cue
            if taught_by_one(rx, groups, raw):
                n += 1
            else:
                kept.append(cue)
        spec["ask"] = kept
    dropped["relation_ask_cues"] = n
    (out / "relations.yaml").write_text(yaml.safe_dump(cat, sort_keys=False), encoding="utf-8")

    rules = yaml.safe_load(router.DEFAULT_RULES.read_text(encoding="utf-8"))
    n = 0
    for rule in rules["rules"]:
        kept = [p for p in rule["match"] if not taught_by_one(p, groups, raw)]
        n += len(rule["match"]) - len(kept)
        rule["match"] = kept or [r"(?!)"]
    temporal = rules["temporal"]
    for key in ("before", "after", "first", "previous", "current", "current_soft"):
        pats = temporal.get(key) or []
        kept = [p for p in pats if not taught_by_one(p, groups, raw)]
        n += len(pats) - len(kept)
        temporal[key] = kept or [r"(?!)"]
    dropped["rule_regexes"] = n
    (out / "rules.yaml").write_text(yaml.safe_dump(rules, sort_keys=False), encoding="utf-8")

    bank = yaml.safe_load(asks.DEFAULT_BANK.read_text(encoding="utf-8"))
    dev_words = [words(w) for w in raw] if strict_bank else []
    n = 0
    for slot in (bank.get("memory_ask") or {}).values():
        kept = []
        for w in slot.get("wordings") or []:
            own = words(w)
            if any(own and d and len(own & d) / len(own | d) >= 0.5 for d in dev_words):
                n += 1
            else:
                kept.append(w)
        slot["wordings"] = kept or ["(none left)"]
    dropped["bank_wordings"] = n
    (out / "exemplars.yaml").write_text(yaml.safe_dump(bank, sort_keys=False), encoding="utf-8")
    return dropped


def _read_without_own(self: asks.AskScorer, masked: str) -> asks.AskReading:
    """``AskScorer.read`` with the bank wordings that share half their words with the
    question left out (their rows zeroed for this one reading)."""
    bank = self._bank()
    own = words(masked)
    rows = [
        i
        for i, text in enumerate(w for s in self.slots for w in s.wordings)
        if own and (theirs := words(text)) and len(own & theirs) / len(own | theirs) >= 0.5
    ]
    if not rows:
        return _READ(self, masked)
    saved = bank.copy()
    bank[rows] = 0.0
    try:
        return _READ(self, masked)
    finally:
        bank[:] = saved


_READ = asks.AskScorer.read


@contextmanager
def patched(out: Path, per_question: bool) -> Iterator[None]:
    saved = relations.DEFAULT_PATH, router.DEFAULT_RULES, asks.DEFAULT_BANK
    relations.DEFAULT_PATH = out / "relations.yaml"
    router.DEFAULT_RULES = out / "rules.yaml"
    asks.DEFAULT_BANK = out / "exemplars.yaml"
    if per_question:
        asks.AskScorer.read = _read_without_own  # type: ignore[method-assign]
    try:
        yield
    finally:
        relations.DEFAULT_PATH, router.DEFAULT_RULES, asks.DEFAULT_BANK = saved
        asks.AskScorer.read = _READ  # type: ignore[method-assign]


def run(stream: Path, store_home: Path) -> str:
    from engine.config import Settings
    from memory.replay.run import format_report, run_replay
    from wiring.open import memory_opener, open_engine

    with tempfile.TemporaryDirectory() as home:
        (Path(home) / "stores").symlink_to((store_home / "stores").resolve())
        settings = Settings(home=Path(home))
        engine = open_engine(settings)
        try:
            report = run_replay(stream, settings, open_memory=memory_opener(engine))
        finally:
            engine.close()
    return format_report(report)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stream", type=Path)
    ap.add_argument(
        "--strict-bank",
        action="store_true",
        help="leave out the bank wordings close to any dev wording, for every question",
    )
    args = ap.parse_args(argv)
    from engine.config import Settings

    store_home = Settings().home
    events = [json.loads(line) for line in args.stream.read_text().splitlines() if line.strip()]
    asked = [e["text"] for e in events if e.get("type") == "ask"]
    print("== all in ==")
    print(run(args.stream, store_home))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        dropped = held_out_files(asked, out, args.strict_bank)
        print("== held out ==", json.dumps(dropped))
        for cache in (relations._load, router._load, asks._load):
            cache.cache_clear()
        with patched(out, per_question=not args.strict_bank):
            print(run(args.stream, store_home))
    return 0


if __name__ == "__main__":
    sys.exit(main())
