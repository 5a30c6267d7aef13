"""Score paraphrase-bench runs (bench README metrics, independent of the product's scorer).

usage: score_bench.py --runs DIR [--generated DIR] TAG[=LABEL] [TAG ...]

Reads DIR/TAG.results.jsonl and DIR/TAG.replay.results.jsonl (as written by ``run.sh``) and the
generated bench files (default: ``generated/`` beside this script) and prints markdown tables:
one row per file and run, one-hop by slot, and the memory replay.

An independent scorer on purpose: it shares no code with the product, but its definitions are
the product's. A cross-user **leak** is the one of ``memory/replay/score.py``: a null probe
whose top-1 answer is a value (any member of a ``say`` event's fact) that another user stated
earlier in the stream and the asking user has not stated.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
G = HERE / "generated"  # bench files; set by main from --generated
R = HERE / "runs"  # run outputs; set by main from --runs
FILES = ["onehop", "multihop", "mechanism", "claims", "overview", "literature"]


def jl(p):
    return [json.loads(x) for x in Path(p).read_text(encoding="utf-8").splitlines() if x.strip()]


def trip(x):
    return tuple(x) if isinstance(x, list | tuple) and len(x) == 3 else None


def tri_ev(res):
    return [
        t
        for e in res.get("evidence") or []
        if e.get("kind") == "triple" and (t := trip(e.get("triple")))
    ]


def paths(res):
    return [frozenset(t for s in p if (t := trip(s))) for p in res.get("paths") or []]


def ans(res):
    return [a.get("id") for a in res.get("answers") or []]


def recall5(ranked, gold):
    gold = set(gold)
    return None if not gold else len(gold & set(ranked[:5])) / min(5, len(gold))


def hit(ranked, gold, k):
    gold = set(gold)
    return None if not gold else float(bool(gold & set(ranked[:k])))


def pf1(ps, gold):
    gold = set(gold)
    if not gold:
        return None
    top = set(ps[:5])
    h = len(top & gold)
    if not top or not h:
        return 0.0
    p, r = h / len(top), h / min(5, len(gold))
    return 2 * p * r / (p + r)


def yes_like(a, claim):
    i, n = str(a.get("id") or "").lower(), str(a.get("name") or "").lower().rstrip(".!")
    return (
        i in ("yes", "true")
        or n in ("yes", "true")
        or i.rsplit(":", 1)[-1] in ("yes", "true")
        or (claim is not None and a.get("id") in (claim[0], claim[2]))
    )


def status_ok(rec, res):
    if res.get("status") != rec["expect_status"]:
        return 0.0
    if rec["kind"] == "negative" and res.get("status") == "ANSWERED":
        claim = trip(rec.get("claim"))
        sup = set(tri_ev(res)) | {t for p in paths(res) for t in p}
        if any(yes_like(a, claim) for a in res.get("answers") or []) or sup - {
            trip(t) for t in rec["gold_triples"]
        }:
            return 0.0
    return 1.0


def pct(vals, q):
    v = sorted(vals)
    if not v:
        return None
    pos = (len(v) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def mean(xs):
    xs = [x for x in xs if x is not None]
    return (sum(xs) / len(xs), len(xs)) if xs else (None, 0)


def score_file(name, results):
    rows = jl(G / (name if name.endswith(".jsonl") else f"paraphrase_{name}.jsonl"))
    m = defaultdict(list)
    lat = []
    missing = 0
    for rec in rows:
        res = results.get(rec["id"])
        if res is None:
            missing += 1
            res = {}
        elif isinstance(res.get("latency_ms"), int | float):
            lat.append(res["latency_ms"])
        k = rec["kind"]
        m["status"].append(status_ok(rec, res))
        if k in ("one_hop", "claim_true"):
            m["R@5"].append(recall5(tri_ev(res), [trip(t) for t in rec["gold_triples"]]))
        if k in ("one_hop", "multi_hop"):
            m["Hit@1"].append(hit(ans(res), rec["answers"], 1))
        if k == "overview":
            m["Hit@5"].append(hit(ans(res), rec["answers"], 5))
        if k in ("multi_hop", "mechanism"):
            m["PF1"].append(
                pf1(paths(res), [frozenset(trip(t) for t in p) for p in rec["gold_paths"]])
            )
        if k == "negative":
            m["neg_status"].append(status_ok(rec, res))
        if k == "claim_true":
            m["true_status"].append(status_ok(rec, res))
    out = {k: mean(v) for k, v in m.items()}
    out["n"] = len(rows)
    out["missing"] = missing
    out["p50"], out["p95"] = pct(lat, 50), pct(lat, 95)
    return out


def stated_by_others(owners, user, top):
    """A leak: ``top`` is a value another user stated earlier and ``user`` never did (the
    definition of ``memory/replay/score.py``, ``ReplayScore.is_leak``)."""
    return bool(owners.get(top)) and user not in owners[top]


def score_replay(tag):
    events = jl(G / "paraphrase_memory.replay.jsonl")
    asks = [e for e in events if e["type"] == "ask"]
    p = R / f"{tag}.replay.results.jsonl"
    if not p.exists():
        return None
    res = jl(p)
    if len(res) != len(asks):
        print(f"warning: {tag}: {len(res)} replay results for {len(asks)} asks", file=sys.stderr)
    tallies = defaultdict(lambda: [0, 0])
    null_answered = leaks = nulls = 0
    lat = []
    owners = defaultdict(set)  # value -> users who stated it so far (any member of a fact)
    results = iter(res)
    for e in events:
        if e["type"] == "say":
            for value in e.get("fact") or ():
                owners[value].add(e["user"])
            continue
        r = next(results, None)
        if r is None:
            break
        assert r.get("expect") == e["expect"] and r.get("user") == e["user"], (e, r)
        if isinstance(r.get("latency_ms"), int | float):
            lat.append(r["latency_ms"])
        top = ans(r)[0] if r.get("status") == "ANSWERED" and r.get("answers") else None
        if e["expect"] is None:
            nulls += 1
            tallies[e["probe"]][0] += 1
            if top is not None:
                null_answered += 1
                tallies[e["probe"]][1] += 1
                if stated_by_others(owners, e["user"], top):
                    leaks += 1
            continue
        grp = "current" if e["probe"] == "current" else "prevtype"
        for g in {grp, e["probe"], "all"}:
            tallies[g][0] += 1
            tallies[g][1] += top == e["expect"]
    return {
        "tallies": dict(tallies),
        "nulls": nulls,
        "null_answered": null_answered,
        "leaks": leaks,
        "p50": pct(lat, 50),
        "p95": pct(lat, 95),
    }


def f(x, d=3):
    return "–" if x is None else f"{x:.{d}f}"


def cell(v):
    return "–" if v is None or v[0] is None else f"{v[0]:.3f}"


def main(tags):
    labels = []
    for t in tags:
        tag, _, label = t.partition("=")
        labels.append((tag, label or tag))
    print("| file | n | run | Recall@5 | Hit@1 | Path-F1@5 | status acc | latency p50 / p95 ms |")
    print("|---|---|---|---|---|---|---|---|")
    scored = {}
    alt = "paraphrase_mechanism.rephetio_gold.jsonl"  # same questions, Rephetio-metapath gold
    for tag, _ in labels:
        path = R / f"{tag}.results.jsonl"
        results = {r["id"]: r for r in jl(path)} if path.exists() else {}
        scored[tag] = {fn: score_file(fn, results) for fn in [*FILES, alt]}
        scored[tag]["_results"] = results
    for fn in [*FILES, alt]:
        for tag, label in labels:
            s = scored[tag][fn]
            extra = ""
            if fn == "claims":
                extra = f" (true {cell(s.get('true_status'))} / neg {cell(s.get('neg_status'))})"
            if fn == "overview":
                extra = f" (Hit@5 any neighbour {cell(s.get('Hit@5'))})"
            miss = f" [missing {s['missing']}]" if s["missing"] else ""
            print(
                f"| {fn} | {s['n']} | {label} | {cell(s.get('R@5'))} | {cell(s.get('Hit@1'))} | "
                f"{cell(s.get('PF1'))} | {cell(s.get('status'))}{extra}{miss} | "
                f"{f(s['p50'], 0)} / {f(s['p95'], 0)} |"
            )
    print()
    print("One-hop by slot (Recall@5 / Hit@1 / status acc):")
    print()
    print("| slot | n | " + " | ".join(label for _, label in labels) + " |")
    print("|---|---|" + "---|" * len(labels))
    rows = jl(G / "paraphrase_onehop.jsonl")
    slots = sorted({r["slot"] for r in rows})
    for sl in slots:
        cells = []
        for tag, _ in labels:
            res = scored[tag]["_results"]
            sub = [r for r in rows if r["slot"] == sl]
            r5 = mean(
                recall5(tri_ev(res.get(r["id"], {})), [trip(t) for t in r["gold_triples"]])
                for r in sub
            )[0]
            h1 = mean(hit(ans(res.get(r["id"], {})), r["answers"], 1) for r in sub)[0]
            st = mean(status_ok(r, res.get(r["id"], {})) for r in sub)[0]
            cells.append(f"{r5:.2f} / {h1:.2f} / {st:.2f}")
        print(f"| {sl} | {len(sub)} | " + " | ".join(cells) + " |")
    print()
    print(
        "| memory replay | run | Recall@1 all | current "
        "| previous-type (first/previous/before/as_of) "
        "| null probes answered (no-relation / cross-user) | leaks | ask latency p50 / p95 ms |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for tag, label in labels:
        s = score_replay(tag)
        if s is None:
            print(f"| paraphrase_memory | {label} | not run | | | | | |")
            continue
        t = s["tallies"]

        def r(k, t=t):
            """Recall@1 of one probe group as 'rate (hits/n)'."""
            n, h = t.get(k, [0, 0])
            return f"{h / n:.3f} ({h}/{n})" if n else "–"

        sub = " / ".join(f"{r(k)}" for k in ("first", "previous", "before", "as_of"))
        nn = t.get("null-norel", [0, 0])
        nc = t.get("null-cross", [0, 0])
        print(
            f"| paraphrase_memory | {label} | {r('all')} | {r('current')} | "
            f"{r('prevtype')}: {sub} | "
            f"{s['null_answered']}/{s['nulls']} ({nn[1]}/{nn[0]} / {nc[1]}/{nc[0]}) | "
            f"{s['leaks']} | {f(s['p50'], 1)} / {f(s['p95'], 1)} |"
        )


def cli(argv: list[str] | None = None) -> None:
    global G, R
    ap = argparse.ArgumentParser(description="Score paraphrase-bench runs.")
    ap.add_argument("--runs", type=Path, required=True, help="directory run.sh wrote to")
    ap.add_argument(
        "--generated", type=Path, default=G, help=f"generated bench files (default: {G})"
    )
    ap.add_argument("tags", nargs="+", metavar="TAG[=LABEL]", help="run tags to compare")
    args = ap.parse_args(argv)
    G, R = args.generated, args.runs
    main(args.tags)


if __name__ == "__main__":
    cli()
