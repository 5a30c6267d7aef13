"""The chat screen's state and its side panes: layout, status line, the evidence and
details panes, and the memory pane (``chat_asking`` answers questions over it; ``chat``
adds the commands and sessions)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Header
from textual.worker import get_current_worker

from engine.config import Mode, Settings
from engine.ports import EnginePort
from helix_tui.asking import ActiveAsk
from helix_tui.backend import Backend, Cancelled
from helix_tui.clarify import Clarifying
from helix_tui.facts import FactView
from helix_tui.jobs import describe_node, read_memory
from helix_tui.messages import MemoryFacts, NodeDetails
from helix_tui.relations import Namer
from helix_tui.services import Services
from helix_tui.session_keeper import SessionKeeper
from helix_tui.turns import Memories
from helix_tui.widgets.assistant_turn import AssistantTurn
from helix_tui.widgets.conversation import Conversation
from helix_tui.widgets.fact_table import FactTable
from helix_tui.widgets.keys_footer import KeysFooter
from helix_tui.widgets.memory_panel import MemoryPanel
from helix_tui.widgets.prompt import PromptInput
from helix_tui.widgets.sidebar import Sidebar
from helix_tui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from helix_tui.replay import ReplayPlayer

log = logging.getLogger(__name__)

LOADING = "◌ Loading the engine (embedding model, knowledge graph)… you can type already"
WELCOME = """Ask about drugs, diseases, genes and how they connect; answers come with their
knowledge-graph paths and evidence (panes on the right). Try:

- *Which medicines are used to treat Alzheimer's disease?*
- *How could metformin act on type 2 diabetes?*
- *Switched MRN 4471 from metformin to sitagliptin.* (noted in your memory)

`/help` lists commands · `Esc` cancels a running question."""


@dataclass(frozen=True)
class StartOptions:
    session_id: str | None = None
    resume: bool = False
    replay: ReplayPlayer | None = None


class ChatBase(Screen[None]):
    """What every part of the chat screen shares: the engine, the user's memories and
    sessions, the question being answered, and the panes that show them."""

    mode: reactive[Mode] = reactive[Mode]("hybrid", init=False)

    def __init__(self, settings: Settings, services: Services, options: StartOptions) -> None:
        super().__init__()
        self.settings = settings
        self.services = services
        self.options = options
        self.backend = Backend()
        self.memories = Memories(settings, services)
        self.sessions = SessionKeeper(settings, services, settings.user)
        self.engine: EnginePort | None = None
        self.engine_error: str | None = None
        self.engine_ready = asyncio.Event()
        self.asking: ActiveAsk | None = None
        self.turn: AssistantTurn | None = None
        self.idle = asyncio.Event()
        self.idle.set()
        self.clarifying: Clarifying | None = None
        self.shown: AssistantTurn | None = None
        self._ask_ids = 0
        self.set_reactive(ChatBase.mode, settings.mode)

    # ----------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="chat-column"):
                yield Conversation(id="conversation")
                yield StatusLine(id="status")
                yield PromptInput(id="prompt")
            yield Sidebar(id="sidebar")
        yield KeysFooter()

    def on_unmount(self) -> None:
        if self.asking is not None:
            self.asking.token.cancel()
        engine, memories = self.engine, self.memories

        def close() -> None:
            memories.close()
            if engine is not None:
                engine.close()

        self.backend.close(close)
        if not self.backend.join(timeout=1.0):
            log.warning("the backend was still busy at exit; its stores were not closed")
        self.sessions.close()

    def _show_status(self) -> None:
        where = f"mode {self.mode} · user {self.sessions.user} · {self.sessions.title}"
        status = self.query_one(StatusLine)
        if self.engine_error is not None:
            status.show(f"✗ Engine failed to load: {self.engine_error}", "error")
        elif self.engine is None:
            status.show(f"{LOADING} · {where}", "loading")
        elif self.asking is not None:
            status.show(f"◐ Answering… Esc cancels · {where}", "busy")
        else:
            status.show(f"● Ready · {where}", "ready")
        self.app.sub_title = self.sessions.user

    # ----------------------------------------------------------------- panes
    def show_turn(self, turn: AssistantTurn) -> None:
        if turn.result is not None:
            self.shown = turn
            self.query_one(Sidebar).show_turn(turn)

    def on_assistant_turn_selected(self, message: AssistantTurn.Selected) -> None:
        self.show_turn(message.turn)

    def on_sidebar_node_wanted(self, message: Sidebar.NodeWanted) -> None:
        name = self.query_one(Sidebar).name_of
        self.fetch_node(message.node_id, message.target, message.head, name, message.also)

    @work(thread=True, group="details", exclusive=True, exit_on_error=False)
    def fetch_node(
        self, node_id: str, target: str, head: str, name: Namer, also: tuple[str, ...] = ()
    ) -> None:
        engine = self.engine
        if engine is None:
            return
        job = partial(describe_node, engine, node_id, name, also=also)
        try:
            body = self.backend.run(job, abandon=worker_cancelled)
        except Cancelled:
            return
        except Exception as exc:
            body = f"_Could not read the node: {exc}_"
        self.post_message(NodeDetails(node_id, f"{head}\n\n---\n\n{body}", target))

    def on_node_details(self, message: NodeDetails) -> None:
        self.query_one(Sidebar).show_details(message.target, message.markdown)

    # ----------------------------------------------------------------- memory
    @work(thread=True, group="memory", exclusive=True, exit_on_error=False)
    def refresh_memory(self, forget: str | FactView | None = None) -> None:
        engine, user = self.engine, self.sessions.user
        if engine is None:
            return
        job = partial(read_memory, self.memories, engine, user, self.post_message, forget)
        try:
            self.post_message(self.backend.run(job, abandon=worker_cancelled))
        except Cancelled:
            return
        except Exception as exc:
            self.post_message(MemoryFacts(user, [], {}, f"{type(exc).__name__}: {exc}"))

    def on_memory_facts(self, message: MemoryFacts) -> None:
        if message.user != self.sessions.user:
            return
        panel = self.query_one(MemoryPanel)
        if message.error:
            panel.show_message(f"Memory unavailable: {message.error}")
        else:
            panel.show_facts(message.facts, message.names, message.user)

    def on_fact_table_forget(self, message: FactTable.Forget) -> None:
        self.refresh_memory(message.fact)


def worker_cancelled() -> bool:
    return get_current_worker().is_cancelled
