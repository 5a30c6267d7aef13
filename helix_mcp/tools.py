"""The tools' logic, synchronous and transport-free (``server.py`` exposes it over MCP).

One instance serves one user. The engine and the user's memory are opened on first use; the
user's calls are serialised by the instance's lock (its memory writes keep their order and
transactions, its conversations their context). The engine answers the calls of several users
at once (``engines.py``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError

from engine.config import Mode, Settings
from engine.export.formats import to_cytoscape
from engine.export.subgraph import answer_graph
from engine.graph.relations import BY_ABBREV
from engine.ports import EnginePort, FactPort, UserMemoryPort
from engine.result import Result, Status, Triple
from engine.util.faults import StoreFault
from engine.util.ids import kind_of
from engine.util.text import question_problem
from helix_mcp.engines import Engines
from helix_mcp.models import (
    FactOut,
    FactsOut,
    ForgetOut,
    MemoryStoreOut,
    NodeRef,
    PassageOut,
    PassagesOut,
    TripleOut,
    TriplesOut,
    WalkOut,
)
from helix_mcp.ports import EngineFactory, MemoryFactory
from helix_mcp.walk import WalkError, parse_hops, walk
from memory.origin import said_as
from wiring.turn import SessionContext, take_turn


def fact_out(fact: FactPort) -> FactOut:
    """A fact of the user's memory as tool output."""
    return FactOut(
        subj=fact.subj,
        rel=fact.rel,
        obj=fact.obj,
        subj_name=fact.subj_name,
        obj_name=fact.obj_name,
        current=fact.t_end is None,
        since=fact.t_start,
        until=fact.t_end,
        source=fact.source,
        quality=fact.quality,
        detail=fact.detail,
        said_by=said_as(fact.source),
    )


def _noted_contract(text: str, fact: FactPort) -> dict[str, Any]:
    """The answer to a turn that only noted a fact (nothing was asked)."""
    out = fact_out(fact)
    result = Result(
        question=text,
        status=Status.ANSWERED,
        intent="statement",
        text=f"Noted: {out.subj_name or out.subj} {out.rel} {out.obj_name or out.obj}",
    )
    return {**result.to_contract(), "question": text, "noted": out.model_dump(mode="json")}


def _one_line(exc: BaseException, most: int = 240) -> str:
    """``exc`` in one line; a long one keeps its start and its end, where drivers put the
    cause ("… vault.duckdb.wal": No space left on device). A store's fault is its own
    sentence, kept whole."""
    if isinstance(exc, StoreFault):
        return str(exc)
    text = (str(exc).strip().splitlines() or [""])[0]
    if len(text) > most:
        text = f"{text[: most // 2]} … {text[-most // 2 :]}"
    return f"{type(exc).__name__}: {text}"


def _after_failed_write(
    memory: UserMemoryPort,
    exc: BaseException,
    triple: tuple[str | None, str | None, str | None],
    statement: str | None,
) -> MemoryStoreOut:
    """What a write that raised left behind, said truly: the fact may be in the vault already
    (a later step, such as clearing cached answers, failed: the disk filled up between the
    two), or not stored at all, or, when the vault cannot even be read now, unknown."""
    reason = _one_line(exc)
    if isinstance(exc, StoreFault) and exc.unwritten:  # it never reached the store
        return MemoryStoreOut(stored=False, message=f"not stored: {reason}")
    try:
        current = memory.facts(include_superseded=False)
    except Exception:
        said = (  # a store's sentence carries its own fix
            f"not known whether it was stored: {reason}"
            if isinstance(exc, StoreFault)
            else f"not known whether it was stored ({reason}); run `helix-chat doctor`"
        )
        return MemoryStoreOut(stored=False, message=said)
    subj, rel, obj = triple
    found = [
        f
        for f in current
        if (subj is not None and (f.subj, f.rel, f.obj) == (subj, rel, obj))
        or (subj is None and statement and f.evidence == statement)
    ]
    if not found:
        return MemoryStoreOut(stored=False, message=f"not stored: {reason}")
    out = fact_out(found[-1])
    return MemoryStoreOut(
        stored=True,
        fact=out,
        message=(
            f"stored {out.subj} {out.rel} {out.obj}, but a later step failed ({reason}): "
            "answers cached before it may be stale until `helix-chat doctor` passes"
        ),
    )


class HelixTools:
    def __init__(
        self,
        settings: Settings,
        user: str,
        engine_factory: EngineFactory,
        memory_factory: MemoryFactory,
        *,
        engines: Engines | None = None,
        slots: AbstractContextManager[object] | None = None,
    ) -> None:
        """``engines``: those of a team server, shared by its users and closed by it (this
        instance then closes only the user's memory); by default its own. ``slots``: what a
        call holds while it runs, after its user's turn comes (a team server's bound on the
        calls it runs at once); by default nothing."""
        self.settings = settings
        self.user = user
        self._memory_factory = memory_factory
        self._owns_engines = engines is None
        self.engines = engines or Engines(settings, engine_factory)
        self._memory: UserMemoryPort | None = None
        self.lock = threading.RLock()
        self._slots = slots or nullcontext()
        self.contexts: dict[str | None, SessionContext] = {}
        """Each conversation's context for follow-ups, by MCP session id."""

    @contextmanager
    def turn(self) -> Iterator[None]:
        """One tool call: this user's calls one at a time, then a slot of the server's."""
        with self.lock, self._slots:
            yield

    # --- lazily opened resources ---------------------------------------------------------
    def engine(self) -> EnginePort:
        with self.lock:
            return self.engines.main()

    def engine_for(self, layers: Sequence[str] | None) -> EnginePort:
        """The engine answering from ``layers`` (``Engines.for_layers``)."""
        with self.lock:
            return self.engines.for_layers(layers)

    def memory(self) -> UserMemoryPort:
        with self.lock:
            if self._memory is None:
                engine = self.engine()
                where: object = self.settings.user_dir(self.user)
                try:
                    self._memory = self._memory_factory(self.settings, self.user, engine)
                except StoreFault as exc:  # its own sentence names the file and the fix
                    raise ToolError(str(exc)) from exc
                except Exception as exc:
                    reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                    fix = "make that directory writable, or run `helix-chat doctor`"
                    if self.settings.database_url:
                        where, fix = "HELIX_DATABASE_URL", "see README, 'Team server'"
                    raise ToolError(
                        f"the memory of user {self.user!r} under {where} cannot be opened "
                        f"({reason}); {fix}"
                    ) from exc
            return self._memory

    def _usable_memory(self, wanted: bool) -> tuple[UserMemoryPort | None, str | None]:
        """The user's memory, or None and why it cannot be opened (the question is then
        answered from the graph alone: a memory fault must not take the graph down)."""
        if not wanted:
            return None, None
        try:
            return self.memory(), None
        except ToolError as exc:
            return None, str(exc)

    def close_memory(self) -> None:
        """Close the user's memory only (a team server shares the engines between users)."""
        with self.lock:
            if self._memory is not None:
                self._memory.close()
                self._memory = None

    def close(self) -> None:
        """Close the user's memory, and the engines unless a team server shares them."""
        with self.lock:
            self.close_memory()
            if self._owns_engines:
                self.engines.close()

    # --- helpers -------------------------------------------------------------------------
    def node(self, ref: str) -> NodeRef:
        """A KG node from an id (``Compound::DB00843``) or a name/synonym (``Aricept``)."""
        engine = self.engine()
        ref = ref.strip()
        if not ref:
            raise ToolError("empty node reference: give a node id or a name")
        name = engine.node_name(ref)
        if name is not None:
            return NodeRef(
                id=ref, name=name, kind=engine.node_kind(ref) or kind_of(ref) or "unknown"
            )
        linked = engine.link(ref)
        if not linked:
            raise ToolError(f"no knowledge-graph node matches {ref!r}")
        best = max(linked, key=lambda e: e.score)
        return NodeRef(id=best.id, name=best.name, kind=best.kind)

    def _paths_out(self, paths: Sequence[Sequence[Triple]]) -> list[list[TripleOut]]:
        """Each path's triples with names (one look-up for all the paths)."""
        flat = iter(self._triples_out([t for p in paths for t in p]))
        return [[next(flat) for _ in p] for p in paths]

    def _triples_out(self, triples: Sequence[Triple]) -> list[TripleOut]:
        """The triples with the names of their ends (looked up in one call)."""
        names = self.engine().node_names(n for t in triples for n in (t[0], t[2]))
        return [
            TripleOut(subj=s, rel=r, obj=o, subj_name=names.get(s), obj_name=names.get(o))
            for s, r, o in triples
        ]

    # --- tools ---------------------------------------------------------------------------
    def ask(
        self,
        question: str,
        mode: Mode | None = None,
        session: str | None = None,
        choice: str | None = None,
        use_memory: bool = True,
        layers: Sequence[str] | None = None,
        include_graph: bool = False,
    ) -> dict[str, Any]:
        """The turn's result object; with ``include_graph``, also the answer's subgraph as
        Cytoscape JSON under ``graph`` (no elements when it has no graph paths or triples)."""
        problem = question_problem(question, self.settings.max_question_chars)
        if problem:
            raise ToolError(problem)
        with self.turn(), self.engines.using(layers) as engine:
            memory, unusable = self._usable_memory(use_memory)
            try:
                turn = take_turn(  # a memory failing in the turn: answered from the graph
                    engine,
                    memory,
                    question,
                    mode=mode,
                    session=session,
                    choice=choice,
                    context=self.contexts.get(session),
                    unusable=unusable,
                    user=self.user,  # traced in this user's directory, where forget looks
                )
                if turn.context is not None:
                    self.contexts[session] = turn.context
            except ToolError:
                raise
            except StoreFault as exc:
                raise ToolError(str(exc)) from exc
            except Exception as exc:
                raise ToolError(f"ask failed: {type(exc).__name__}: {exc}") from exc
        if turn.result is None:
            assert turn.noted is not None  # a turn asks unless it noted a fact
            data = _noted_contract(question, turn.noted)
            if include_graph:
                data["graph"] = to_cytoscape(answer_graph(Result.model_validate(data)))
            return data
        data = turn.result.to_contract()
        data["question"] = question
        if include_graph:
            data["graph"] = to_cytoscape(answer_graph(turn.result))
        if turn.memory_error is not None:
            data["memory_error"] = (
                f"{turn.memory_error}; answered from the graph alone, nothing noted"
            )
        if turn.noted is not None:
            data["noted"] = fact_out(turn.noted).model_dump(mode="json")
        return data

    def kg_get_triples(self, node: str, rel: str | None = None, limit: int = 50) -> TriplesOut:
        if rel is not None and rel not in BY_ABBREV:
            raise ToolError(f"unknown relation {rel!r}; known: {', '.join(sorted(BY_ABBREV))}")
        with self.turn():
            ref = self.node(node)
            triples = self.engine().triples(ref.id, rel, limit + 1)
            return TriplesOut(
                node=ref,
                triples=self._triples_out(triples[:limit]),
                truncated=len(triples) > limit,
            )

    def kg_walk(
        self, start: str, relations: Sequence[str], max_paths: int = 20, fanout: int = 25
    ) -> WalkOut:
        with self.turn():
            ref = self.node(start)
            try:
                hops = parse_hops(relations, ref.kind)
            except WalkError as exc:
                raise ToolError(str(exc)) from exc
            engine = self.engine()
            outcome = walk(
                ref.id,
                hops,
                lambda n, r, k: engine.triples(n, r, k),
                fanout=fanout,
                max_paths=max_paths,
            )
            return WalkOut(
                start=ref,
                relations=[h.code for h in hops],
                paths=self._paths_out(outcome.paths),
                expanded=outcome.expanded,
                truncated=outcome.truncated,
            )

    def dense_search(self, text: str, k: int = 10) -> PassagesOut:
        if not text.strip():
            raise ToolError("the search text is empty")
        with self.turn():
            try:
                hits = self.engine().dense_search(text, k)
            except ToolError:
                raise
            except Exception as exc:
                raise ToolError(f"dense search failed: {exc}") from exc
        return PassagesOut(
            passages=[
                PassageOut(id=h.id, score=h.score, text=h.text, source=h.source) for h in hits
            ]
        )

    def memory_store(
        self,
        statement: str | None = None,
        subj: str | None = None,
        rel: str | None = None,
        obj: str | None = None,
        supersedes: Sequence[str] | None = None,
        session: str | None = None,
    ) -> MemoryStoreOut:
        structured = [subj, rel, obj]
        if any(structured) and not all(structured):
            raise ToolError("give subj, rel and obj together (or only a statement)")
        if not statement and not all(structured):
            raise ToolError("give a statement, or a fact as subj, rel and obj")
        if supersedes is not None and len(supersedes) != 3:
            raise ToolError("supersedes must be a triple [subj, rel, obj]")
        with self.turn():
            memory = self.memory()
            try:
                if subj and rel and obj:
                    old = (supersedes[0], supersedes[1], supersedes[2]) if supersedes else None
                    fact = memory.store_fact(subj, rel, obj, old, statement, session=session)
                    facts, unread = ([fact] if fact is not None else []), []
                else:
                    noted = memory.state_each(statement or "", session)
                    facts, unread = list(noted.facts), list(noted.unread)
            except (ToolError, ValueError):  # refused input: said by the caller as it is
                raise
            except Exception as exc:
                return _after_failed_write(memory, exc, (subj, rel, obj), statement)
        if not facts:
            return MemoryStoreOut(
                stored=False,
                unread=unread,
                message="no fact recognised; nothing was stored (try subj/rel/obj)",
            )
        outs = [fact_out(f) for f in facts]
        said = "; ".join(f"{o.subj} {o.rel} {o.obj}" for o in outs)
        message = f"stored {said}"
        if unread:
            message = (
                f"stored {len(outs)} of {len(outs) + len(unread)} statements: {said}; "
                "could not read: " + " | ".join(unread)
            )
        return MemoryStoreOut(stored=True, fact=outs[0], facts=outs, unread=unread, message=message)

    def memory_search(self, query: str, limit: int = 20) -> FactsOut:
        if not query.strip():
            raise ToolError("the query is empty")
        with self.turn():
            facts = self.memory().search(query, limit)
        return FactsOut(facts=[fact_out(f) for f in facts[:limit]])

    def memory_forget(
        self,
        subject: str | None = None,
        subj: str | None = None,
        rel: str | None = None,
        obj: str | None = None,
    ) -> ForgetOut:
        triple = (subj, rel, obj)
        if subject and any(triple):
            raise ToolError("give either a subject or a fact (subj, rel, obj), not both")
        with self.turn():
            memory = self.memory()
            if subject:
                removed = memory.forget(subject)
            elif subj and rel and obj:
                removed = memory.forget((subj, rel, obj))
            else:
                raise ToolError("give a subject to forget, or a whole fact as subj, rel and obj")
            left = memory.residue if removed else None
        return ForgetOut(removed=int(removed), left_behind=left)

    # --- resources -----------------------------------------------------------------------
    def node_card_json(self, node_id: str, sample: int = 12) -> str:
        with self.turn():
            ref = self.node(node_id)
            engine = self.engine()
            triples = engine.triples(ref.id, None, 500)
            counts: dict[str, int] = {}
            for _, r, _ in triples:
                counts[r] = counts.get(r, 0) + 1
            card: dict[str, Any] = {
                **ref.model_dump(),
                "description": engine.node_description(ref.id),
                "relation_counts": counts,
                "relation_counts_capped_at": 500,
                "sample": [t.model_dump() for t in self._triples_out(triples[:sample])],
            }
        return json.dumps(card, indent=1)
