"""The MCP server: tool and resource declarations over ``HelixTools``.

The user is fixed for the life of the process: every memory tool acts on that user's stores,
and no tool takes a user argument. Tools run in worker threads (the engine blocks).

No ``from __future__ import annotations`` here: the SDK reads the tools' annotations (which
refer to the locals of the functions declaring them) to build their JSON schemas.
"""

import functools
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Annotated, Any, Literal, TypeVar

import anyio
import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

from engine.config import Settings
from helix_mcp.models import FactsOut, ForgetOut, MemoryStoreOut, PassagesOut, TriplesOut, WalkOut
from helix_mcp.ports import EngineFactory, MemoryFactory, open_helix, open_user_memory
from helix_mcp.resources import relations_json
from helix_mcp.stdio import run_stdio
from helix_mcp.strict import USER_HINT, StrictTools
from helix_mcp.tools import HelixTools
from helix_mcp.walk import MAX_HOPS

log = logging.getLogger(__name__)
R = TypeVar("R")

INSTRUCTIONS = """\
Helix answers biomedical questions over the Hetionet knowledge graph (drugs, diseases, genes,
anatomy, symptoms, side effects, pathways...) and a passage corpus, with verifiable evidence
paths. Use `ask` for a question in plain language; use `kg_get_triples` and `kg_walk` to inspect
the graph directly (relation codes are in the helix://relations resource); use `dense_search`
for literature passages. The memory tools keep this user's private notes (patients, stated
facts); they never see another user's memory.
"""

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)

NodeArg = Annotated[
    str,
    Field(
        description="A node id such as 'Compound::DB00843' or 'Disease::DOID:10652', or a name "
        "or synonym ('donepezil', 'Aricept', 'Alzheimer disease') that is linked to a node.",
        min_length=1,
        max_length=300,
    ),
]
FactPart = Annotated[str | None, Field(max_length=300)]
LayerName = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,62}$")]
MAX_LAYERS = 16
Current = Callable[[], HelixTools]
"""The tools of the user a call acts for."""


async def _in_thread(fn: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs))


def build_server(
    settings: Settings,
    user: str,
    engine_factory: EngineFactory = open_helix,
    *,
    memory_factory: MemoryFactory = open_user_memory,
) -> MCPServer[Any]:
    """An MCP server for ``user`` over the engine ``engine_factory(settings)`` opens lazily."""
    tools = HelixTools(settings, user, engine_factory, memory_factory)
    return make_server(settings, lambda: tools, tools.close)


def make_server(
    settings: Settings,
    current: Current,
    close: Callable[[], None],
    *,
    user_hint: str = USER_HINT,
    **server_args: Any,
) -> MCPServer[Any]:
    """The tools and resources over ``current()``: the tools of the user a call acts for (the
    process's one user, or the caller's on a team server, ``helix_mcp.team``); ``close`` runs
    when the server stops; ``user_hint`` says who the tools act for when a call names a
    user; ``server_args`` go to ``MCPServer`` (a token verifier and auth)."""
    registry = StrictTools(user_hint)
    _add_ask(registry, settings, current)
    _add_graph_tools(registry, current)
    _add_memory_tools(registry, current)
    server: MCPServer[Any] = MCPServer(
        "helix",
        title="Helix biomedical knowledge-graph assistant",
        instructions=INSTRUCTIONS,
        version="0.1.0",
        log_level="WARNING",
        lifespan=_closing(close),
        tools=registry.tools,
        **server_args,
    )
    _add_resources(server, current)
    return server


def _closing(
    close: Callable[[], None],
) -> Callable[[MCPServer[Any]], AbstractAsyncContextManager[dict[str, Any]]]:
    """The server's lifespan: ``close`` runs (in a worker thread) when the server stops."""

    @asynccontextmanager
    async def lifespan(_: MCPServer[Any]) -> AsyncIterator[dict[str, Any]]:
        try:
            yield {}
        finally:
            await _in_thread(close)

    return lifespan


def _add_ask(registry: StrictTools, settings: Settings, current: Current) -> None:
    """The ``ask`` tool (its question may be as long as ``settings.max_question_chars``)."""

    @registry.tool(
        title="Ask Helix",
        description="Answer a biomedical question with the full Helix pipeline (entity linking, "
        "planned knowledge-graph walk, passage retrieval, review, explanation) and this user's "
        "memory. Returns the result object: status (ANSWERED | NEEDS_CLARIFICATION | "
        "NOT_ANSWERED), ranked answers with ids and names, evidence triples and passages, "
        "paths, a plain-language 'text', a 'clarification' question with 'candidates' when the "
        "question is ambiguous (answer it by calling ask again with 'choice'), 'hubs' (nodes "
        "most paths pass through), and trace_id; with include_graph, also the answer's "
        "subgraph as Cytoscape JSON.",
    )
    async def ask(
        question: Annotated[
            str,
            Field(
                description="The question, in plain language.",
                min_length=1,
                max_length=settings.max_question_chars,
            ),
        ],
        mode: Annotated[
            Literal["hybrid", "graph", "dense"] | None,
            Field(description="Retrieval mode; default: the server's configured mode."),
        ] = None,
        session: Annotated[
            str | None, Field(description="Conversation id, for follow-ups and memory.")
        ] = None,
        choice: Annotated[
            str | None,
            Field(description="A candidate node id chosen in reply to a clarification."),
        ] = None,
        use_memory: Annotated[
            bool, Field(description="Consult and update this user's memory.")
        ] = True,
        layers: Annotated[
            list[LayerName] | None,
            Field(
                description="Graph layers to answer from, e.g. ['hetionet'] or ['hetionet', "
                "'disease-pack']; default: the server's HELIX_LAYERS, else every built layer.",
                min_length=1,
                max_length=MAX_LAYERS,
            ),
        ] = None,
        include_graph: Annotated[
            bool,
            Field(
                description="Also return the answer's subgraph under 'graph', as Cytoscape JSON "
                "(nodes with kind, name, ids, role, sources; edges with relation, sources, "
                "score, the paths they are on): open it in Cytoscape, or load it with "
                "networkx.cytoscape_graph."
            ),
        ] = False,
    ) -> dict[str, Any]:
        return await _in_thread(
            current().ask, question, mode, session, choice, use_memory, layers, include_graph
        )


def _add_graph_tools(registry: StrictTools, current: Current) -> None:
    """The read-only tools over the knowledge graph and the passages: ``kg_get_triples``,
    ``kg_walk``, ``dense_search``."""

    @registry.tool(
        title="Knowledge-graph triples of a node",
        description="The stored triples [subject, relation, object] that touch a node, "
        "optionally of one relation (e.g. 'CtD' = Compound treats Disease; see the "
        "helix://relations resource), with node names.",
        annotations=READ_ONLY,
    )
    async def kg_get_triples(
        node: NodeArg,
        rel: Annotated[
            str | None, Field(description="Relation code to keep, e.g. 'CtD', 'DaG', 'CbG'.")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=200, description="Maximum triples.")] = 50,
    ) -> TriplesOut:
        return await _in_thread(current().kg_get_triples, node, rel, limit)

    @registry.tool(
        title="Walk the knowledge graph",
        description="Multi-hop paths from a node following a sequence of relations, e.g. "
        "start='metformin', relations=['CbG', 'DaG^-1'] gives metformin -binds-> gene "
        "<-associates- disease. 'REL^-1' follows a relation backwards (object to subject). "
        f"1 to {MAX_HOPS} relations; bounded by fanout per node and max_paths.",
        annotations=READ_ONLY,
    )
    async def kg_walk(
        start: NodeArg,
        relations: Annotated[
            list[str],
            Field(
                min_length=1,
                max_length=MAX_HOPS,
                description="Relation codes in walk order, e.g. ['CtD', 'DrD'].",
            ),
        ],
        max_paths: Annotated[int, Field(ge=1, le=200, description="Paths to return.")] = 20,
        fanout: Annotated[
            int, Field(ge=1, le=100, description="Neighbours followed per node.")
        ] = 25,
    ) -> WalkOut:
        return await _in_thread(current().kg_walk, start, relations, max_paths, fanout)

    @registry.tool(
        title="Search passages",
        description="Dense (embedding) search over the passage corpus (PubMed abstracts, "
        "Disease Ontology definitions); returns passage ids, scores and texts.",
        annotations=READ_ONLY,
    )
    async def dense_search(
        text: Annotated[str, Field(min_length=1, max_length=2000, description="Search text.")],
        k: Annotated[int, Field(ge=1, le=50, description="Passages to return.")] = 10,
    ) -> PassagesOut:
        return await _in_thread(current().dense_search, text, k)


def _add_memory_tools(registry: StrictTools, current: Current) -> None:
    """The tools over the user's memory: ``memory_store``, ``memory_search``,
    ``memory_forget``."""

    @registry.tool(
        title="Remember a fact",
        description="Store a fact in this user's private memory, either as a statement "
        "('Patient MRN 4471 was started on metformin today.') from which the fact is "
        "extracted, or directly as subj/rel/obj ('patient:4471', 'takes', "
        "'Compound::DB00331'). 'supersedes' names an older fact this one replaces.",
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False),
    )
    async def memory_store(
        statement: Annotated[
            str | None, Field(max_length=4000, description="What the user said.")
        ] = None,
        subj: FactPart = None,
        rel: FactPart = None,
        obj: FactPart = None,
        supersedes: Annotated[
            list[str] | None,
            Field(min_length=3, max_length=3, description="[subj, rel, obj] replaced."),
        ] = None,
        session: Annotated[str | None, Field(description="Conversation id.")] = None,
    ) -> MemoryStoreOut:
        return await _in_thread(
            current().memory_store, statement, subj, rel, obj, supersedes, session
        )

    @registry.tool(
        title="Search memory",
        description="Facts in this user's memory about a patient, note or entity mentioned in "
        "the query ('MRN 4471', 'Ada Moreno'), or matching its words; current and past "
        "(superseded) facts, with their time intervals. Each fact says whose word it is "
        "(said_by: 'you said' or 'looked up'); the query 'looked-up' or 'stated' lists every "
        "fact of that kind. An MRN matches exactly: an MRN never stated finds nothing.",
        annotations=READ_ONLY,
    )
    async def memory_search(
        query: Annotated[str, Field(min_length=1, max_length=1000)],
        limit: Annotated[int, Field(ge=1, le=200)] = 20,
    ) -> FactsOut:
        return await _in_thread(current().memory_search, query, limit)

    @registry.tool(
        title="Forget",
        description="Remove from this user's memory either everything about a subject "
        "('patient:4471', 'MRN 4471', 'note:crispr-screen'), one fact given as subj/rel/obj, "
        "or one kind of fact: 'looked-up' (what Helix looked up for earlier questions) or "
        "'stated' (everything the user said). "
        "Also purges it from cached answers and conversation logs.",
        annotations=ToolAnnotations(destructive_hint=True, idempotent_hint=True),
    )
    async def memory_forget(
        subject: Annotated[str | None, Field(max_length=300)] = None,
        subj: FactPart = None,
        rel: FactPart = None,
        obj: FactPart = None,
    ) -> ForgetOut:
        return await _in_thread(current().memory_forget, subject, subj, rel, obj)


def _add_resources(server: MCPServer[Any], current: Current) -> None:
    """The resources: the relation vocabulary and a card for each node."""

    @server.resource(
        "helix://relations",
        name="relations",
        title="Relation vocabulary",
        description="Hetionet's 24 relations (metaedges): codes, kinds, verbs, descriptions.",
        mime_type="application/json",
    )
    def relations() -> str:
        return relations_json()

    @server.resource(
        "helix://node/{node_id}",
        name="node",
        title="Node card",
        description="A knowledge-graph node: name, kind, description, relation counts and "
        "sample triples. node_id is a node id such as Compound::DB00843.",
        mime_type="application/json",
    )
    async def node(node_id: str) -> str:
        return await _in_thread(current().node_card_json, node_id)


def serve(
    settings: Settings,
    user: str,
    *,
    http: bool = False,
    host: str = "127.0.0.1",
    port: int = 8765,
    engine_factory: EngineFactory = open_helix,
) -> None:
    """Run the server over stdio (default) or streamable HTTP at ``http://host:port/mcp``."""
    server = build_server(settings, user, engine_factory)
    if http:
        log.warning("Helix MCP for user %r on http://%s:%d/mcp", user, host, port)
        server.run("streamable-http", host=host, port=port)
    else:
        anyio.run(run_stdio, server)
