"""The panes beside the chat: paths, evidence, how the answer was reached, memory."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, TabbedContent, TabPane, Tree

from engine.result import Triple
from helix_tui.relations import short_id
from helix_tui.render import edge_sources
from helix_tui.widgets.assistant_turn import AssistantTurn
from helix_tui.widgets.detail_view import HINT, DetailView, evidence_markdown, triple_markdown
from helix_tui.widgets.evidence_table import EvidenceTable
from helix_tui.widgets.memory_panel import MemoryPanel
from helix_tui.widgets.path_tree import Hop, PathTree
from helix_tui.widgets.run_info import RunInfo


class Sidebar(Vertical):
    """Shows one answer's evidence; asks the screen for a node's edges when one is chosen."""

    class NodeWanted(Message):
        def __init__(
            self, node_id: str, target: str, head: str, also: tuple[str, ...] = ()
        ) -> None:
            super().__init__()
            self.node_id = node_id
            self.also = also
            """Other nodes to describe (the other end of a hop)."""
            self.target = target
            """Selector of the detail view to fill."""
            self.head = head

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.turn: AssistantTurn | None = None
        self.sources: dict[Triple, str] = {}
        """Triple -> the source of its edge, from the shown answer's evidence."""

    def compose(self) -> ComposeResult:
        with TabbedContent(id="tabs", initial="paths-tab"):
            with TabPane("Paths", id="paths-tab"):
                yield PathTree(id="paths")
                yield DetailView(id="path-detail")
            with TabPane("Evidence", id="evidence-tab"):
                yield EvidenceTable(id="evidence")
                yield DetailView(id="evidence-detail")
            with TabPane("Run", id="run-tab"):
                yield RunInfo(id="run")
            with TabPane("Memory", id="memory-tab"):
                yield MemoryPanel(id="memory")

    def show_turn(self, turn: AssistantTurn) -> None:
        if turn.result is None:
            return
        self.turn = turn
        self.sources = edge_sources(turn.result)
        self.query_one(PathTree).show_paths(turn.result.paths, turn.name_of, self.sources)
        self.query_one(EvidenceTable).show_evidence(turn.result.evidence, turn.name_of)
        self.query_one(RunInfo).show_result(turn.result)
        for detail in self.query(DetailView):
            detail.update(HINT)

    def clear(self) -> None:
        self.turn = None
        self.query_one(PathTree).show_paths([], short_id)
        self.query_one(EvidenceTable).show_evidence([], short_id)
        self.query_one(RunInfo).clear_info()
        for detail in self.query(DetailView):
            detail.update(HINT)

    def show_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab

    def show_details(self, target: str, markdown: str) -> None:
        self.query_one(target, DetailView).update(markdown)

    def name_of(self, node_id: str) -> str:
        return self.turn.name_of(node_id) if self.turn else short_id(node_id)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if isinstance(event.data_table, EvidenceTable):
            ev = event.data_table.evidence_for(event.row_key.value)
            if ev is not None:
                self.show_details("#evidence-detail", evidence_markdown(ev, self.name_of))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if isinstance(event.data_table, EvidenceTable):
            ev = event.data_table.evidence_for(event.row_key.value)
            if ev is not None and ev.triple:
                head = evidence_markdown(ev, self.name_of)
                wanted = self.NodeWanted(ev.triple[0], "#evidence-detail", head, (ev.triple[2],))
                self.post_message(wanted)

    def on_tree_node_selected(self, event: Tree.NodeSelected[Hop]) -> None:
        hop = event.node.data
        if hop is not None and hop.triple is not None:
            head = triple_markdown(hop.triple, self.name_of, self.sources.get(hop.triple))
            self.show_details("#path-detail", head)
            wanted = self.NodeWanted(hop.triple[0], "#path-detail", head, (hop.triple[2],))
            self.post_message(wanted)
