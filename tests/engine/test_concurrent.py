"""One open engine answers from several threads at once (a team server's users): each thread
reads the store through its own DuckDB cursor, and the engine's caches are safe to share, so
answers given concurrently are those given one at a time."""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from engine.api import Helix

pytestmark = pytest.mark.integration

QUESTIONS = (
    "What drugs treat Alzheimer's disease?",
    "Which drugs palliate paralysis agitans?",
    "Which genes are targeted by drugs that treat Alzheimer's disease?",
    "Does Memantine treat Parkinson's disease?",
    "Does Donepezil treat Alzheimer's disease?",
    "How might Donepezil work against Alzheimer's disease?",
    "what does aricept treat",
    "Which genes are associated with autism?",
    "What is known about NEP?",
    "Which side effects does donepezil cause?",
    "What anatomy expresses APP?",
    "Does Memantine treat asthma?",
)
THREADS = 6


def answer(helix: Helix, question: str) -> dict[str, Any]:
    """What the answer says, without its timings."""
    data = helix.ask(question).to_contract()
    for key in ("latency_ms", "timings", "trace_id"):
        data.pop(key, None)
    return data


def reads(helix: Helix) -> tuple[object, ...]:
    """The store reads other tools make: triples, links, passages."""
    return (
        helix.triples("Compound::DB00843", None, 20),
        helix.triples("Disease::DOID:10652", "CtD", 20),
        [e.id for e in helix.link("donepezil and alzheimer")],
        [(e.id, e.score) for e in helix.dense_search("memory loss in Alzheimer's disease", 5)],
    )


def test_concurrent_asks_on_one_engine_give_the_serial_answers(helix: Helix) -> None:
    serial = {q: answer(helix, q) for q in QUESTIONS}
    serial_reads = reads(helix)
    assert sum(a["status"] == "ANSWERED" for a in serial.values()) >= len(QUESTIONS) // 2

    start = threading.Barrier(THREADS)

    def worker(seed: int) -> list[tuple[str, dict[str, Any] | tuple[object, ...]]]:
        order = list(QUESTIONS)
        random.Random(seed).shuffle(order)
        start.wait(timeout=60)  # every thread asks at the same moment
        out: list[tuple[str, dict[str, Any] | tuple[object, ...]]] = []
        for i, q in enumerate(order):
            out.append((q, answer(helix, q)))
            if i % 4 == seed % 4:
                out.append(("reads", reads(helix)))
        return out

    with ThreadPoolExecutor(THREADS) as pool:
        results = [r for rs in pool.map(worker, range(THREADS)) for r in rs]

    assert len(results) > THREADS * len(QUESTIONS)
    for key, got in results:
        assert got == (serial_reads if key == "reads" else serial[key]), key


def test_each_thread_reads_the_store_through_its_own_cursor(helix: Helix) -> None:
    store = helix.c.store
    # the cursors themselves are kept: an id alone may be reused once a finished thread's
    # cursor is freed
    seen: list[object] = []

    def worker() -> None:
        con = store.con
        assert store.con is con  # the same cursor for all of this thread's reads
        seen.append(con)
        assert helix.triples("Compound::DB00843", None, 5)

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    ids = {id(c) for c in seen}
    assert len(ids) == 3 and id(store.con) not in ids
