"""How an answer was reached: linked entities, intent, mode, why the walk stopped, timings."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from engine.result import Result
from helix_tui.present import timings_line

EMPTY = "Ask a question to see how it was answered."


class RunInfo(Static):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(EMPTY, markup=False, id=id)

    def show_result(self, result: Result) -> None:
        text = Text()
        text.append("Status  ", style="bold")
        text.append(f"{result.status.value}\n")
        if result.intent:
            text.append("Intent  ", style="bold")
            text.append(f"{result.intent}\n")
        if result.mode:
            text.append("Mode    ", style="bold")
            text.append(f"{result.mode}\n")
        text.append("\nLinked entities\n", style="bold")
        if not result.linked:
            text.append("  none\n", style="dim")
        for ent in result.linked:
            text.append(f"  “{ent.mention}” → {ent.name} ({ent.kind})")
            text.append(f"  {ent.method} {ent.score:.2f}\n", style="dim")
        text.append("\nWalk stopped  ", style="bold")
        text.append(f"{result.stop_reason or 'n/a'}\n")
        text.append("Latency       ", style="bold")
        text.append(f"{result.latency_ms:.0f} ms\n")
        if result.timings:
            text.append("\nTimings\n", style="bold")
            text.append(f"  {timings_line(result.timings)}\n")
        if result.degraded:
            text.append("\nDegraded  ", style="bold yellow")
            text.append(", ".join(result.degraded) + "\n")
        if result.memory_boosted:
            text.append("\n★ boosted by your memory\n", style="bold")
        self.update(text)

    def clear_info(self) -> None:
        self.update(EMPTY)
