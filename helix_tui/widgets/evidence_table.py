"""Evidence of an answer: triples, passages and memory facts, with scores and sources."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

from engine.result import Evidence
from helix_tui.present import EVIDENCE_KIND
from helix_tui.present import evidence_line as describe
from helix_tui.relations import Namer

__all__ = ["EvidenceTable", "describe"]


class EvidenceTable(DataTable[Text]):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.evidence: list[Evidence] = []

    def on_mount(self) -> None:
        self.add_column(Text("#"), key="rank")
        self.add_column(Text("score", justify="right"), key="score")
        self.add_column(Text("kind"), key="kind")
        self.add_column(Text("evidence"), key="what")
        self.add_column(Text("source"), key="source")

    def show_evidence(self, evidence: list[Evidence], name: Namer) -> None:
        self.evidence = list(evidence)
        self.clear()
        for i, ev in enumerate(self.evidence):
            off_topic = ev.kind == "passage" and ev.relevant is False
            style = "dim" if off_topic else ""
            kind = EVIDENCE_KIND.get(ev.kind, ev.kind) + (" (off-topic)" if off_topic else "")
            self.add_row(
                Text(str(i + 1), style=style),
                Text(f"{ev.score:.2f}", justify="right", style=style),
                Text(kind, style=style),
                Text(describe(ev, name), overflow="ellipsis", no_wrap=True, style=style),
                Text(ev.source or "", style=style),
                key=str(i),
            )

    def evidence_for(self, row_key: str | None) -> Evidence | None:
        if row_key is None or not row_key.isdigit() or int(row_key) >= len(self.evidence):
            return None
        return self.evidence[int(row_key)]
