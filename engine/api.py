"""The engine's public facade: one object over the stores of a data home.

Everything outside the engine (CLI, TUI, MCP server, memory) talks to ``Helix``.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar

import duckdb

from engine.agent import subtypes
from engine.agent.dense import DenseBaseline
from engine.agent.loop import AgentLoop, Components
from engine.agent.planner import Planner
from engine.config import Mode, Settings
from engine.events import EventSink
from engine.export.subgraph import path_hubs
from engine.graph.edges import Calibration, LocalEdgePredictor
from engine.graph.store import KGStore
from engine.graph.walk import FRONTIER_EMPTY, Budget, Walker
from engine.index.dense import PassageRetriever
from engine.index.lexical import LexicalIndex
from engine.index.vectors import IndexMissing, VectorIndex
from engine.ingest.ready import stores_ready
from engine.ingest.report import Progress
from engine.ports import AliasEntry, Embed, MemoryPort
from engine.providers.embedder.base import Vectors
from engine.providers.embedder.sentence import QUERY_TEXTS, SentenceTransformerEmbedder
from engine.providers.llm import language_model
from engine.ranking.presets import MODES, Fusion
from engine.result import Evidence, LinkedEntity, Result, Status, Triple
from engine.telemetry import Tracing
from engine.understand.bank import Bank
from engine.understand.datarel import DataVocabulary
from engine.understand.followup import substitute
from engine.understand.form import framed_yes_no, is_yes_no
from engine.understand.lexicon import CUE_WORDS, KIND_WORDS
from engine.understand.linking import Linker
from engine.understand.mentions import AliasIndex
from engine.understand.polarity import Directions
from engine.understand.prepared import (
    PREPARED_DIR,
    Prepared,
    alias_index,
    semantic_scorer,
    stored_part,
)
from engine.understand.scope import ScopeReader
from engine.understand.semantic import SemanticScorer, cached_vectors
from engine.understand.spelling import Speller
from engine.understand.vocabulary import Language, Vocabulary, name_words
from engine.util.threads import single_threaded_blas

log = logging.getLogger(__name__)

ROLL_UP_WIDTH = 2
"""Parents of a disease (and of each of them) a question is asked again of (``_roll_up``)."""
ROLL_UP_INTENTS = frozenset({"one_hop", "multi_hop"})
"""Question kinds that may be answered for a disease's parent when the disease has none."""


def _one_disease(result: Result) -> LinkedEntity | None:
    """The one disease the question named (with its place in the question), else None."""
    diseases = [e for e in result.linked if e.kind == "Disease" and 0 <= e.start < e.end]
    return diseases[0] if len(diseases) == 1 else None


P = ParamSpec("P")
R = TypeVar("R")


def _reads_graph(fn: Callable[Concatenate[Helix, P], R]) -> Callable[Concatenate[Helix, P], R]:
    """``fn``'s DuckDB errors (a corrupt block is found only when read) as ``StoreUnreadable``:
    one sentence naming the graph file and the fix, for every front end."""

    @functools.wraps(fn)
    def guarded(self: Helix, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with self.c.store.reading():
            return fn(self, *args, **kwargs)

    return guarded


class Helix:
    """Planner -> Retriever -> Reviewer -> Explainer over the KG and passage stores."""

    def __init__(
        self,
        settings: Settings,
        components: Components,
        tracing: Tracing | None = None,
        load_ms: dict[str, float] | None = None,
        prepared: Prepared | None = None,
    ) -> None:
        """``load_ms``: how long opening each part took (``open`` measures it); ``prepared``:
        which stores-only parts opening had to compute rather than read (``prepared.py``)."""
        self.settings = settings
        self.c = components
        self.loop = AgentLoop(components)
        self.tracing = tracing or Tracing.from_settings(settings)
        self.load_ms: dict[str, float] = dict(load_ms or {})
        self.prepared = prepared or Prepared([], {})

    @classmethod
    def open(
        cls,
        settings: Settings,
        *,
        progress: Progress | None = None,
        auto_ingest: bool = True,
        modes: Collection[Mode] = (),
    ) -> Helix:
        """Open the stores under ``settings.home``, running ingest first when they are missing.

        ``modes``: the retrieval modes that will be asked for besides ``settings.mode``; the
        dense baseline's triple index is made ready now when one is ``dense``."""
        single_threaded_blas()
        timings: dict[str, float] = {}
        t = time.perf_counter()
        if not stores_ready(settings):
            if not auto_ingest:
                raise FileNotFoundError(f"stores missing under {settings.stores_dir}")
            from engine.ingest.build import ingest  # the build's imports, only to build

            ingest(settings, progress=progress)
        timings["ingest_check"] = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        ready = settings.stores_dir / PREPARED_DIR
        store = KGStore(settings.kg_path, layers=settings.layer_set, prepared_dir=ready)
        prepared = Prepared([], {})
        if store.prepared_why:
            prepared.note("graph", store.prepared_why)
        with store.reading():  # a corrupt block read while loading: one sentence
            timings["graph"] = (time.perf_counter() - t) * 1000
            errors: list[str] = []
            degraded: list[str] = []
            embedder = _embedder(settings, errors, degraded)
            t = time.perf_counter()
            aliases = alias_index(store, embedder, ready, prepared)
            timings["aliases"] = (time.perf_counter() - t) * 1000
            names = _load_index(settings, "names", errors, degraded)
            if names is not None:
                names = names.subset(store.index)  # only names of the active layers link
            passages_idx = _load_index(settings, "passages", errors, degraded)
            t = time.perf_counter()
            passages, dense_passages = _passage_retrievers(store, passages_idx, ready, prepared)
            timings["passages"] = (time.perf_counter() - t) * 1000
            t = time.perf_counter()
            semantic = _semantic(settings, embedder, errors, degraded, prepared)
            words = stored_part(
                store,
                "name-words",
                ("engine.understand.vocabulary",),
                lambda: name_words(zip(store.kinds, store.names, strict=True)),
                ready,
                prepared,
            )
            planner = _planner(settings, store, aliases, names, embedder, semantic, words)
            timings["semantic"] = (time.perf_counter() - t) * 1000
            predictor = LocalEdgePredictor(
                Calibration.load(settings.stores_dir / "calibration.json"),
                top_k=settings.edge_top_k,
            )
            dense = DenseBaseline(
                store,
                dense_passages,
                embedder,
                settings.stores_dir,
                settings.dense_top_n,
                eager=any(MODES[m].baseline for m in (*modes, settings.mode)),
            )
            comp = Components(
                settings=settings,
                store=store,
                planner=planner,
                predictor=predictor,
                walker=Walker(store, predictor, Budget.of(settings)),
                embedder=embedder,
                passages=passages,
                dense=dense,
                fusion=Fusion.of(settings),
                errors=errors,
                degraded=degraded,
                llm=language_model(settings),
                llm_calibration=Calibration.load(settings.stores_dir / "calibration-llm.json"),
            )
            return cls(settings, comp, load_ms=timings, prepared=prepared)

    def warm(self) -> None:
        """Load the embedding model now rather than on the first question."""
        if self.c.embedder is not None:
            self.c.embedder.encode(["warm up"])

    @_reads_graph
    def ask(
        self,
        question: str,
        *,
        mode: Mode | None = None,
        memory: MemoryPort | None = None,
        session: str | None = None,
        choice: str | None = None,
        qid: str | None = None,
        on_event: EventSink | None = None,
        user: str | None = None,
        among: Sequence[str] = (),
    ) -> Result:
        """Answer one question. ``choice`` is a node id picked in reply to a clarification;
        ``user`` (default: the settings' user) owns the question's trace; ``among`` keeps the
        answers to these nodes (a follow-up picking from the last answers: "which of them are
        ACE inhibitors")."""
        with self.tracing.question(
            question,
            qid=qid,
            mode=mode or self.settings.mode,
            session=session,
            user=user or self.settings.user,
        ) as trace:
            result = self.loop.ask(
                question,
                mode=mode,
                memory=memory,
                session=session,
                choice=choice,
                qid=qid,
                on_event=trace.tee(on_event),
                among=among,
            )
            result = (
                self._with_subtypes(question, result, mode=mode, memory=memory, session=session)
                or result
            )
            result = (
                self._roll_up(question, result, mode=mode, memory=memory, session=session) or result
            )
            result.degraded = list(dict.fromkeys([*self.c.degraded, *result.degraded]))
            self._cite_sources(result)
            result.name_nodes(self.node_names)
            result.hubs = path_hubs(result)
            return trace.finish(result)

    def _with_subtypes(
        self,
        question: str,
        result: Result,
        *,
        mode: Mode | None,
        memory: MemoryPort | None,
        session: str | None,
    ) -> Result | None:
        """A therapy answer for a disease with few drugs of its own goes on with its
        subtypes' (``engine/agent/subtypes.py``); a one-hop question about a disease with no
        answer of its own (drugs, genes, symptoms) is answered by them."""
        d = _one_disease(result)
        if d is None or result.intent not in (*ROLL_UP_INTENTS, "literature"):
            return None
        # a study question ("does exercise help X") answered from passages stays theirs
        asks_yes_no = is_yes_no(question) or framed_yes_no(question)
        if result.status is Status.ANSWERED and result.answers:
            if (
                not subtypes.therapy_of(result, d.id)
                or len(result.answers) >= subtypes.SUBTYPE_FILL
            ):
                return None
            therapy, children = True, subtypes.subtypes_treated(self.c.store, d.id)
        elif (result.stop_reason or "").endswith(FRONTIER_EMPTY) and (
            (result.status is Status.NOT_ANSWERED and result.intent == "one_hop")
            or (result.intent == "literature" and not asks_yes_no)
        ):
            # none of its own: the walk found no edge of the relation (not a weak reading);
            # passages beside "no path" are no graph answer either
            therapy, children = (
                False,
                subtypes.subtypes_held(self.c.store, d.id, 2 * subtypes.SUBTYPES),
            )
        else:
            return None
        added = taken = 0
        base = result if result.status is Status.ANSWERED and result.answers else None
        for child in children:
            name = self.c.store.name(child)
            again = self.loop.ask(
                substitute(question, d.start, d.end, name),
                mode=mode,
                memory=memory,
                session=session,
            )
            fits = subtypes.therapy_of if therapy else subtypes.one_hop_of
            if not fits(again, child):
                continue
            if base is None:
                base = result.model_copy(deep=True)
                base.status, base.answers, base.paths = Status.ANSWERED, [], []
                base.stop_reason, base.intent = again.stop_reason, again.intent
                what = "drugs" if subtypes.therapy_of(again, child) else "answers to this"
                base.text = (
                    f"The graph records no {what} for {d.name} itself; its subtypes have them."
                )
            added += subtypes.add_subtype(base, again, d.id, child, name)
            base.latency_ms += again.latency_ms
            taken += 1
            if not therapy and taken >= subtypes.SUBTYPES:
                break
        return base if added else None

    def _roll_up(
        self,
        question: str,
        result: Result,
        *,
        mode: Mode | None,
        memory: MemoryPort | None,
        session: str | None,
    ) -> Result | None:
        """A disease subtype the graph knows nothing more about is asked again as its parent
        (``DsD``, from the disease pack); the answer says so and its paths start with the
        ``is a subtype of`` hop. Only for relation questions that found no answer."""
        if result.status is not Status.NOT_ANSWERED or result.intent not in ROLL_UP_INTENTS:
            return None
        child = _one_disease(result)
        if child is None:
            return None
        store = self.c.store
        parents = store.objects(child.id, "DsD")[:ROLL_UP_WIDTH]
        # a parent that holds nothing either ("microcytic anemia" of iron deficiency anemia)
        # is passed through to its own parents
        above = [g for p in parents for g in store.objects(p, "DsD")[:ROLL_UP_WIDTH]]
        for parent in dict.fromkeys([*parents, *above]):
            name = store.name(parent)
            again = self.loop.ask(
                substitute(question, child.start, child.end, name),
                mode=mode,
                memory=memory,
                session=session,
            )
            if again.status is not Status.ANSWERED:
                continue
            via = (
                []
                if parent in parents
                else [p for p in parents if parent in store.objects(p, "DsD")][:1]
            )
            chain = [child.id, *via, parent]
            hops = [(a, "DsD", b) for a, b in pairwise(chain)]
            again.paths = [[*hops, *p] for p in again.paths] or [hops]
            for hop in reversed(hops):
                again.evidence.insert(0, Evidence(kind="triple", triple=hop, score=1.0))
            again.text = (
                f"{child.name} has no such edges of its own; it is a subtype of {name}, "
                f"so this answer is for {name}.\n\n{again.text}"
            )
            again.question, again.linked = question, [child, *again.linked]
            again.latency_ms += result.latency_ms
            return again
        return None

    def _cite_sources(self, result: Result) -> None:
        """Name the layer/source of every KG triple in the evidence ("DISEASES 2022, score 5",
        "DrugCentral: inhibitor"); memory and passage evidence keep their own source."""
        triples = [e.triple for e in result.evidence if e.kind == "triple" and e.triple]
        if not triples:
            return
        found = self.c.store.edge_sources(triples)
        for ev in result.evidence:
            if ev.kind == "triple" and ev.triple and ev.source != "vault":
                sources = found.get(tuple(ev.triple))  # type: ignore[arg-type]
                if sources:
                    ev.source = "; ".join(dict.fromkeys(s.label for s in sources))

    @_reads_graph
    def edge_sources(self, triple: Triple) -> list[str]:
        """Labels of the sources stating a triple in the active layers."""
        found = self.c.store.edge_sources([triple]).get(tuple(triple), [])  # type: ignore[arg-type]
        return list(dict.fromkeys(s.label for s in found))

    @property
    def layers(self) -> tuple[str, ...]:
        """The graph layers this engine answers from."""
        return self.c.store.layers

    @_reads_graph
    def fit(self, text: str) -> float | None:
        """How well ``text`` reads as a graph question: its plan's parse score (higher when
        its words are explained by a relation of its seed; a chain scores lower), 0.0 for a
        plan read without one, None for a question that is no one-hop or chain question.
        A conversation compares the readings of a follow-up with it."""
        planner = self.c.planner
        plan = planner.plan(planner.respell(text))
        if plan.intent not in ("one_hop", "multi_hop"):
            return None
        return plan.parse_score if plan.parse_score is not None else 0.0

    @_reads_graph
    def link(self, text: str, kinds: set[str] | None = None) -> list[LinkedEntity]:
        """Entity mentions in ``text`` linked to KG nodes (exact alias, fuzzy, embedding)."""
        planner = self.c.planner
        out: list[LinkedEntity] = []
        for m in planner.linker.link(text).mentions:
            ids = [n for n in m.node_ids if kinds is None or self.c.store.kind(n) in kinds]
            if ids:
                out.append(planner.entity(m, ids[0]))
        return out

    @_reads_graph
    def aliases(self, key: str) -> list[tuple[str, bool, str]]:
        """Exact alias-table hits ``(node_id, primary, source)`` for a normalised key."""
        return [(c.node_id, c.primary, c.source) for c in self.c.planner.linker.aliases.get(key)]

    @_reads_graph
    def alias_entries(self) -> list[AliasEntry]:
        """Every name of the alias index with its node (initials and eponyms too)."""
        store = self.c.store
        return [
            AliasEntry(
                key, c.alias, c.node_id, store.name(c.node_id), store.kind(c.node_id), c.primary
            )
            for key, cands in self.c.planner.linker.aliases.by_key.items()
            for c in cands
        ]

    @_reads_graph
    def node_name(self, node_id: str) -> str | None:
        return self.c.store.name(node_id) if self.c.store.has(node_id) else None

    @_reads_graph
    def node_names(self, node_ids: Iterable[str]) -> dict[str, str]:
        store = self.c.store
        return {n: store.name(n) for n in dict.fromkeys(node_ids) if store.has(n)}

    @_reads_graph
    def node_kind(self, node_id: str) -> str | None:
        return self.c.store.kind(node_id) if self.c.store.has(node_id) else None

    @_reads_graph
    def node_description(self, node_id: str) -> str | None:
        return self.c.store.description(node_id)

    @_reads_graph
    def triples(self, node_id: str, rel: str | None = None, limit: int = 50) -> list[Triple]:
        return self.c.store.triples_of(node_id, rel, limit)

    @_reads_graph
    def dense_search(self, text: str, k: int = 10) -> list[Evidence]:
        if self.c.passages is None or self.c.embedder is None:
            why = [e for e in self.c.errors if "passages" in e or "embedding" in e]
            raise IndexMissing(why[0] if why else "the passage index is not available")
        qvec = self.c.embedder.encode([text])
        hits = self.c.passages.search(text, qvec, k)
        texts = self.c.store.passages([h.id for h in hits])
        return [
            Evidence(
                kind="passage",
                id=h.id,
                score=round(h.score, 4),
                text=texts.get(h.id, ("", "", ""))[1],
                source=texts.get(h.id, ("", "", "passages"))[2],
            )
            for h in hits
        ]

    def embed(self) -> Embed | None:
        """The embedding function (normalised vectors), for callers such as the answer cache.
        A call of many texts (a reader's bank of wordings, such as memory's) is kept under
        the stores directory (``cached_vectors``): the next start reads it, not the model."""
        embedder = self.c.embedder
        if embedder is None:
            return None
        kept = self.settings.stores_dir / "understand"

        def embed(texts: list[str]) -> Vectors:
            if len(texts) <= QUERY_TEXTS:
                return embedder.encode(texts)
            return cached_vectors(embedder, texts, kept)

        return embed

    def speller(self, words: Iterable[str]) -> Speller | None:
        speller = self.c.planner.speller
        return speller.widened(words, gaps=True) if speller is not None else None

    def directions(self) -> Directions | None:
        semantic = self.c.planner.semantic
        if semantic is None:
            return None
        return Directions(semantic.polarity, semantic.slot_signs())

    def close(self) -> None:
        self.tracing.shutdown()
        self.c.llm.close()
        self.c.store.close()


def prepare(settings: Settings) -> Prepared:
    """Compute and save what opening reads instead of computing (``prepared.py``: the alias
    index with its synonyms, the semantic reader's temperature, the bank's vectors), by
    opening the engine once over the built stores; returns what had to be computed. Run after
    every ingest, so the next start reads them."""
    helix = Helix.open(settings, auto_ingest=False)
    helix.close()
    return helix.prepared


def _embedder(
    settings: Settings, errors: list[str], degraded: list[str]
) -> SentenceTransformerEmbedder | None:
    """The embedding model (loaded on first use), or None with its sentence in ``errors``."""
    try:
        return SentenceTransformerEmbedder(
            settings.embed_model,
            settings.embed_batch_size,
            settings.embed_query_threads,
            runtime=settings.embed_runtime,
        )
    except Exception as exc:
        errors.append(f"the embedding model cannot be loaded ({exc})")
        degraded.append("embedder")
        log.error("embedder unavailable: %s", exc)
        return None


def _passage_retrievers(
    store: KGStore, index: VectorIndex | None, ready: Path, prepared: Prepared
) -> tuple[PassageRetriever | None, PassageRetriever | None]:
    """(FAISS + BM25 grouped by document, for the pipeline; FAISS alone, for the dense
    baseline), or None for both without the passage index. The BM25 index of the passages
    table (every layer's) is prepared in ``ready``."""
    if index is None:
        return None, None

    def build() -> LexicalIndex:
        rows = store.con.execute("SELECT id, title, text FROM passages").fetchall()
        return LexicalIndex([r[0] for r in rows], [f"{r[1]} {r[2]}" for r in rows])

    code = ("engine.index.lexical", "bm25s")
    lexical = stored_part(store, "passages-bm25", code, build, ready, prepared, layered=False)
    return (
        PassageRetriever(index, lexical, group_documents=True),
        PassageRetriever(index, None, group_documents=False),
    )


def _planner(
    settings: Settings,
    store: KGStore,
    aliases: AliasIndex,
    names: VectorIndex | None,
    embedder: SentenceTransformerEmbedder | None,
    semantic: SemanticScorer | None,
    words: dict[str, frozenset[str]],
) -> Planner:
    """The planner over a linker and a speller built whole: the words that say what is asked
    (the exemplar bank's, the data's relations' and action types') never name, and the
    vocabulary tells wording from names (with the embedder's word pieces when the bank reads)."""
    bank_words = semantic.bank.relation_words() if semantic is not None else frozenset()
    data = DataVocabulary.of(store)
    relation_words = bank_words | data.words
    vocabulary = Vocabulary(
        Language(
            aliases.common,
            embedder.word_pieces if semantic is not None and embedder is not None else None,
        ),
        words,
    )
    linker = Linker(
        store,
        aliases,
        settings,
        names=names,
        embedder=embedder,
        relation_words=relation_words,
        vocabulary=vocabulary,
    )
    speller = Speller(KIND_WORDS.keys() | CUE_WORDS | relation_words, vocabulary)
    scope = (
        ScopeReader(embedder, semantic.matrix, cache_dir=settings.stores_dir / "understand")
        if semantic and embedder is not None
        else None
    )
    return Planner(
        store, linker, Budget.of(settings), semantic, speller=speller, data=data, scope=scope
    )


def _semantic(
    settings: Settings,
    embedder: SentenceTransformerEmbedder | None,
    errors: list[str],
    degraded: list[str],
    prepared: Prepared,
) -> SemanticScorer | None:
    """The exemplar-bank scorer (bank embeddings and fitted temperature kept under the stores
    directory, ``prepared.py``)."""
    if embedder is None:
        return None
    try:
        # the bank's vectors and temperature beside the other caches of the bank's texts
        understand = settings.stores_dir / "understand"
        return semantic_scorer(Bank.load(), embedder, understand, prepared)
    except Exception as exc:  # the lexicon alone still answers
        errors.append(f"semantic reading unavailable: {exc}")
        degraded.append("semantic")
        log.error("semantic reading unavailable: %s", exc)
        return None


def _load_index(
    settings: Settings, name: str, errors: list[str], degraded: list[str]
) -> VectorIndex | None:
    """The ``name`` FAISS index, or None with its sentence in ``errors`` and
    ``index:<name>`` in ``degraded`` (every answer then says it was made without it)."""
    try:
        return VectorIndex.load(settings.stores_dir / f"{name}.faiss")
    except (IndexMissing, duckdb.Error) as exc:
        errors.append(str(exc))
        degraded.append(f"index:{name}")
        log.error("%s index unavailable: %s", name, exc)
        return None
