"""What depends only on the stores is made at ingest and read at open: the graph's nodes and
adjacency, the alias index with its admitted synonyms, the passages' BM25 index and the
semantic reader's fitted temperature (``engine/understand/prepared.py``). An open over prepared
stores reads no adjacency, fits nothing and embeds no synonym; a stale or broken file is
recomputed and said so, never read as current."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from engine.api import Helix
from engine.config import Settings
from engine.graph.store import KGStore
from engine.index.lexical import LexicalIndex
from engine.understand.mentions import AliasIndex
from engine.understand.semantic import SemanticScorer

pytestmark = pytest.mark.integration

ALL = ["graph", "aliases", "passages-bm25", "temperature", "name-words"]
FROM_STORE = ["graph", "aliases", "passages-bm25", "name-words"]
QUESTIONS = (
    "What drugs treat Alzheimer's disease?",
    "Which drugs palliate paralysis agitans?",
    "what does aricept treat",
    "Which genes are associated with autism?",
)


@pytest.fixture
def home(small_settings: Settings, tmp_path: Path) -> Settings:
    """A copy of the ingested slice home without any prepared file."""
    dst = tmp_path / "home"
    shutil.copytree(small_settings.home, dst, symlinks=True)
    shutil.rmtree(dst / "stores" / "understand", ignore_errors=True)
    shutil.rmtree(dst / "stores" / "prepared", ignore_errors=True)
    # built as the slice home was: Hetionet alone (the slice has no pack files)
    return small_settings.model_copy(update={"home": dst, "build_layers": ""})


def _forbid_computing(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*_a: object, **_k: object) -> None:
        raise AssertionError("computed at open")

    monkeypatch.setattr(AliasIndex, "__init__", fail)
    monkeypatch.setattr(AliasIndex, "admit_synonyms", fail)
    monkeypatch.setattr(SemanticScorer, "fit_temperature", fail)
    monkeypatch.setattr(KGStore, "_load_adjacency", fail)
    monkeypatch.setattr(LexicalIndex, "__init__", fail)
    monkeypatch.setattr("engine.api.name_words", fail)
    # nor learnt from the bank at the first question: the twin and chain words are read too
    monkeypatch.setattr("engine.understand.semantic.learn_twins", fail)
    monkeypatch.setattr("engine.understand.semantic.learn_chains", fail)


def _answers(helix: Helix) -> list[tuple[str, list[str]]]:
    return [(r.status.value, [a.id for a in r.answers]) for r in map(helix.ask, QUESTIONS)]


def test_ingest_prepares_and_open_reuses(home: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    from helix_tui.cli_engine import ingest_or_fail

    computed = Helix.open(home, auto_ingest=False)  # computes everything, as before
    expected = _answers(computed)
    computed.close()
    assert computed.prepared.computed == ALL
    assert any(status == "ANSWERED" for status, _ in expected)
    ready, understand = home.stores_dir / "prepared", home.stores_dir / "understand"
    for made in [*ready.glob("*.pickle"), *understand.glob("bank-*")]:
        made.unlink()

    report = ingest_or_fail(home)  # the stores are built: only the prepared files are made
    assert report.steps["kg"] == "up to date"
    assert report.steps["prepared"] == f"computed {', '.join(ALL)}"
    assert len(list(ready.glob("*.pickle"))) == 4 and list(understand.glob("bank-*"))

    _forbid_computing(monkeypatch)
    helix = Helix.open(home, auto_ingest=False)
    try:
        assert helix.prepared.computed == []
        assert _answers(helix) == expected
    finally:
        helix.close()


def test_an_open_without_them_computes_them_once(home: Settings) -> None:
    first = Helix.open(home, auto_ingest=False)
    first.close()
    assert first.prepared.computed == ALL
    assert "helix-chat ingest" in first.prepared.why["aliases"]
    second = Helix.open(home, auto_ingest=False)
    second.close()
    assert second.prepared.computed == []
    assert second.c.planner.linker.aliases.meant == first.c.planner.linker.aliases.meant


def test_a_changed_store_makes_the_alias_index_stale(home: Settings) -> None:
    Helix.open(home, auto_ingest=False).close()
    kg = home.kg_path
    st = kg.stat()
    os.utime(kg, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    again = Helix.open(home, auto_ingest=False)
    again.close()
    assert again.prepared.computed == FROM_STORE
    for part in FROM_STORE:
        assert "stale (mtime_ns changed)" in again.prepared.why[part]


def test_a_broken_file_is_recomputed_not_trusted(home: Settings) -> None:
    Helix.open(home, auto_ingest=False).close()
    (path,) = (home.stores_dir / "prepared").glob("aliases-*.pickle")
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    (temp,) = (home.stores_dir / "understand").glob("bank-*.pickle")
    temp.write_text("not a pickle")
    again = Helix.open(home, auto_ingest=False)
    again.close()
    assert again.prepared.computed == ["aliases", "temperature"]
    assert "cannot be read" in again.prepared.why["aliases"]
    assert Helix.open(home, auto_ingest=False).prepared.computed == []


def test_synonyms_are_kept_per_model(home: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """The synonyms admitted with a model are saved under its name and read back; an engine
    without an embedder reads the same file and admits none."""
    import engine.understand.mentions as mentions
    from engine.understand.prepared import alias_index

    admitted = frozenset({("autism", "Disease::DOID:12849")})
    monkeypatch.setattr(mentions, "synonyms", lambda pairs, encode: admitted)
    first = Helix.open(home, auto_ingest=False)
    first.close()
    assert "aliases" in first.prepared.computed
    monkeypatch.undo()
    _forbid_computing(monkeypatch)
    again = Helix.open(home, auto_ingest=False)
    again.close()
    aliases = again.c.planner.linker.aliases
    assert again.prepared.computed == [] and admitted <= aliases.meant
    bare = alias_index(again.c.store, None, home.stores_dir / "prepared")
    assert bare.meant == bare.headed and not admitted <= bare.meant


def test_a_graph_read_from_its_prepared_file_queries_nothing_the_file_holds(
    home: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The nodes, adjacency, sampled relations, KGX predicates and whether articles are kept
    are read from the prepared graph as they were read from the store, with no query."""
    ready = home.stores_dir / "prepared"
    computed = KGStore(home.kg_path, prepared_dir=ready)
    for part in ("_read_nodes", "_load_adjacency", "_sampled", "_predicates"):
        monkeypatch.setattr(KGStore, part, lambda *_a, p=part: pytest.fail(f"{p} queried at open"))
    read = KGStore(home.kg_path, prepared_dir=ready)
    try:
        assert computed.prepared_why and read.prepared_why is None
        assert "DpS" in read.sampled and read.sampled == computed.sampled
        assert (read.predicates, read._documents) == (computed.predicates, computed._documents)
        assert (read.ids, read.names, read.n_triples) == (
            computed.ids,
            computed.names,
            computed.n_triples,
        )
    finally:
        read.close()
        computed.close()


def test_a_read_alias_index_is_the_built_one(home: Settings) -> None:
    """Saved and read back (its candidates as text columns, its span matcher over the table),
    the alias index holds the same keys, candidates and everyday words, and finds the same
    spans."""
    from engine.understand.mentions import tokenize
    from engine.understand.prepared import alias_index

    ready = home.stores_dir / "prepared"
    store = KGStore(home.kg_path)
    try:
        built = alias_index(store, None, ready)  # computed and saved
        read = alias_index(store, None, ready)
        assert read is not built
        assert read.keys == built.keys and len(read.keys) > 1000
        assert [(k, read.by_key[k]) for k in read.keys] == [
            (k, built.by_key[k]) for k in built.keys
        ]
        assert read.get("no such alias") == [] and "no such alias" not in read.by_key
        assert (read.common, read.headed, read.meant) == (built.common, built.headed, built.meant)
        assert read.by_length == built.by_length
        for question in (*QUESTIONS, "Is TNF-α raised in type 2 diabetes mellitus?", ""):
            norms = [t.norm for t in tokenize(question)]
            assert read.matcher.spans(norms) == built.matcher.spans(norms)
        assert any(read.matcher.spans([t.norm for t in tokenize(q)]) for q in QUESTIONS)
    finally:
        store.close()


def test_a_bank_of_wordings_embedded_through_the_engine_is_kept_for_the_next_start(
    helix: Helix, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Memory's readers embed their banks through ``Helix.embed``: a call of many texts is
    kept under the stores directory and read back, not embedded at every start."""
    embed = helix.embed()
    assert embed is not None and helix.c.embedder is not None
    texts = [f"what was the patient's dose of drug {i} before" for i in range(12)]
    first = embed(texts)
    ran: list[int] = []
    encode = helix.c.embedder.encode
    monkeypatch.setattr(helix.c.embedder, "encode", lambda t: ran.append(len(t)) or encode(t))
    again = helix.embed()
    assert again is not None
    assert (again(texts) == first).all() and ran == []
    again(["a question"])  # a question's own few texts are embedded as they come
    assert ran == [1]
