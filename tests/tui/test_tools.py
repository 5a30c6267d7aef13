"""Copy, export formats, history search, theme and remapped keys, through the real app."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from textual.widgets import DataTable, Input, OptionList

from engine.result import Result
from helix_tui.app import HelixApp, make_app
from helix_tui.config import CONFIG_FILE
from helix_tui.relations import path_text
from helix_tui.screens.export import ExportScreen
from helix_tui.screens.history import HistoryScreen
from helix_tui.widgets.assistant_turn import AssistantTurn
from helix_tui.widgets.evidence_table import EvidenceTable
from helix_tui.widgets.path_tree import PathTree
from helix_tui.widgets.sidebar import Sidebar

from .conftest import settle, submit
from .fakes import (
    ALZ_QUESTION,
    ALZHEIMER,
    AMBIGUOUS_QUESTION,
    DONEPEZIL,
    NAMES,
    Harness,
    alzheimer_result,
    make_harness,
)

SIZE = (120, 40)
CONTRACT_KEYS = ("id", "status", "answers", "evidence", "paths", "clarification", "latency_ms")


def notes(app: HelixApp) -> list[str]:
    return [n.message for n in app._notifications]


async def test_copy_answer_path_and_evidence_row(app: HelixApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+y")
        assert app.clipboard == "" and "Nothing to copy yet" in notes(app)[-1]
        await submit(pilot, ALZ_QUESTION)
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert app.clipboard.startswith("Three approved drugs treat Alzheimer's disease")
        assert re.fullmatch(
            r"Copied the answer to the clipboard \(\d+ characters\)", notes(app)[-1]
        )

        result = app.chat.shown.result  # type: ignore[union-attr]
        assert isinstance(result, Result)
        tree = app.chat.query_one(PathTree)
        tree.focus()
        tree.move_cursor(tree.root.children[0])
        await pilot.press("ctrl+y")
        assert app.clipboard == path_text(result.paths[0], NAMES.__getitem__)
        tree.move_cursor(tree.root.children[3].children[1])
        await pilot.press("ctrl+y")
        assert app.clipboard.startswith("Alzheimer's disease") and "ACHE" in app.clipboard
        assert "Copied the path hop" in notes(app)[-1]

        app.chat.query_one(Sidebar).show_tab("evidence-tab")
        table = app.chat.query_one(EvidenceTable)
        table.focus()
        table.move_cursor(row=3)
        await pilot.press("ctrl+y")
        assert app.clipboard.startswith("Donepezil improved cognition")
        assert app.clipboard.endswith("[passage, pubmedqa, score 0.41]")
        assert "Copied the evidence row" in notes(app)[-1]


def check_contract(row: dict[str, Any]) -> None:
    """The bench README's result object: keys, types, ranked lists, triples of three."""
    for key in CONTRACT_KEYS:
        assert key in row, key
    assert row["status"] in {"ANSWERED", "NEEDS_CLARIFICATION", "NOT_ANSWERED"}
    assert all(isinstance(a["id"], str) and isinstance(a["score"], float) for a in row["answers"])
    for ev in row["evidence"]:
        assert ev["kind"] in {"triple", "passage", "memory"}
        assert "triple" not in ev or len(ev["triple"]) == 3
    assert all(len(t) == 3 for path in row["paths"] for t in path)
    assert isinstance(row["latency_ms"], float)
    Result.model_validate({k: v for k, v in row.items() if k != "id"})


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.external: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.external += [v or "" for k, v in attrs if k in ("src", "href")]
        if tag == "script":
            self.external.append("script")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


async def test_export_asks_the_format_and_writes_json_html_markdown(
    app: HelixApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, ALZ_QUESTION)
        await submit(pilot, AMBIGUOUS_QUESTION)
        await pilot.press("escape")  # the clarification dialog
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ExportScreen)
        options = app.screen.query_one(OptionList)
        assert [options.get_option_at_index(i).id for i in range(options.option_count)] == [
            "markdown",
            "json",
            "html",
            "graphml",
            "cytoscape",
            "gexf",
        ]
        await pilot.press("down", "enter")
        await settle(pilot)
        session = app.chat.sessions.session_id
        written = tmp_path / f"helix-session-{session}.json"
        assert f"Exported to {written}" in notes(app)
        data = json.loads(written.read_text(encoding="utf-8"))
        assert [t["question"] for t in data["turns"]] == [ALZ_QUESTION, AMBIGUOUS_QUESTION]
        for turn in data["turns"]:
            check_contract(turn["result"])
        first = data["turns"][0]["result"]
        assert [a["name"] for a in first["answers"]] == ["Donepezil", "Galantamine", "Rivastigmine"]
        assert first["paths"][3] == [
            ["Compound::DB00843", "CbG", "Gene::43"],
            ["Disease::DOID:10652", "DaG", "Gene::43"],
        ]
        assert data["turns"][1]["result"]["status"] == "NEEDS_CLARIFICATION"

        await submit(pilot, f"/export html {tmp_path / 'page.html'}")
        page = _Page()
        page.feed((tmp_path / "page.html").read_text(encoding="utf-8"))
        text = " ".join(page.text)
        assert page.external == []
        for expected in (ALZ_QUESTION, "Donepezil", "Rivastigmine", "pubmedqa"):
            assert expected in text
        assert "Which one do you mean?" in text

        await submit(pilot, f"/export {tmp_path / 'notes.md'}")
        assert (tmp_path / "notes.md").read_text().startswith("# Which medicines")
        await submit(pilot, f"/export pdf {tmp_path / 'x.pdf'}")
        assert notes(app)[-1] == (
            "Export failed: unknown export format 'pdf': use md, json, html, graphml, cytoscape "
            "or gexf"
        )
        await submit(pilot, f"/export {tmp_path / 'x.pdf'}")
        assert notes(app)[-1] == (
            "Export failed: cannot export to .pdf files: use .md, .json, .html, .graphml, .cyjs "
            "or .gexf"
        )
        assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == [
            f"helix-session-{session}.json",
            "notes.md",
            "page.html",
        ]


async def test_export_graphml_writes_the_subgraph_of_the_last_answer_with_paths(
    app: HelixApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, "/export graphml")
        assert notes(app)[-1] == "Nothing to export yet: this session has no turns."
        await submit(pilot, AMBIGUOUS_QUESTION)
        await pilot.press("escape")  # the clarification dialog
        await submit(pilot, "/export graphml")
        assert notes(app)[-1] == (
            "Export failed: no answer in this session has graph paths or evidence triples to export"
        )
        await submit(pilot, ALZ_QUESTION)
        await submit(pilot, AMBIGUOUS_QUESTION)  # the last turn, a clarification: no graph
        await pilot.press("escape")
        await submit(pilot, "/export graphml")
        session = app.chat.sessions.session_id
        written = tmp_path / f"helix-session-{session}.graphml"
        assert notes(app)[-1] == f"Exported the subgraph of turn 2 to {written}"
        graph = nx.read_graphml(written, force_multigraph=True)
        result = alzheimer_result()
        triples = {tuple(t) for p in result.paths for t in p} | set(result.triples())
        assert {(u, k, v) for u, v, k in graph.edges(keys=True)} == triples
        assert graph.nodes[ALZHEIMER]["role"] == "seed"
        assert graph.nodes[DONEPEZIL]["name"] == "Donepezil"
        assert graph.nodes[DONEPEZIL]["role"] == "answer"

        await submit(pilot, f"/export cytoscape {tmp_path / 'alz.cyjs'}")
        loaded = nx.cytoscape_graph(json.loads((tmp_path / "alz.cyjs").read_text()))
        assert set(loaded) == set(graph) and loaded.number_of_edges() == len(triples)
        await submit(pilot, f"/export {tmp_path / 'alz.gexf'}")
        assert set(nx.read_gexf(tmp_path / "alz.gexf")) == set(graph)


async def test_history_finds_an_older_session_opens_it_and_reasks(
    harness: Harness, app: HelixApp
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, ALZ_QUESTION)
        await submit(pilot, "What do we know about asthma?")
        old = app.chat.sessions.session_id
        await pilot.press("ctrl+n")
        await submit(pilot, "How could metformin act on diabetes?")
        assert app.chat.sessions.session_id != old
        await pilot.press("ctrl+r")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        screen.query_one(Input).value = "asthma"
        await settle(pilot)
        table = screen.query_one(DataTable)
        assert table.row_count == 1
        assert screen.hits[0].hit.session_id == old and screen.hits[0].hit.position == 2
        await pilot.press("down", "enter")
        await settle(pilot)
        assert app.screen is app.chat and app.chat.sessions.session_id == old
        turns = list(app.chat.query(AssistantTurn))
        assert len(turns) == 2 and turns[1].has_class("history-hit")
        assert app.chat.shown is turns[1]
        assert "at turn 2" in notes(app)[-1]

        asked = len(harness.engine.calls)
        await submit(pilot, "/history alzheimer")
        assert isinstance(app.screen, HistoryScreen)
        await settle(pilot)
        assert app.screen.hits[0].hit.question == ALZ_QUESTION
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert len(harness.engine.calls) == asked + 1
        assert harness.engine.calls[-1]["question"] == ALZ_QUESTION
        assert len(list(app.chat.query(AssistantTurn))) == 3


async def test_history_is_per_user(harness: Harness, app: HelixApp, tmp_path: Path) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, ALZ_QUESTION)
    bob = make_harness(tmp_path / "home", user="bob")
    bob_app = make_app(bob.settings, bob.services)
    async with bob_app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, "/history alzheimer")
        await settle(pilot)
        assert isinstance(bob_app.screen, HistoryScreen) and bob_app.screen.hits == []


async def test_theme_is_kept_across_restarts(harness: Harness, config_dir: Path) -> None:
    first = make_app(harness.settings, harness.services)
    async with first.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert first.theme == "textual-dark"
        await submit(pilot, "/theme nord")
        await submit(pilot, "/theme no-such-theme")
        assert "Unknown theme" in notes(first)[-1]
    assert 'theme = "nord"' in (config_dir / CONFIG_FILE).read_text()
    again = make_app(harness.settings, harness.services)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.theme == "nord"


async def test_a_broken_config_is_reported_and_never_overwritten(
    harness: Harness, config_dir: Path
) -> None:
    config_dir.mkdir()
    broken = 'theme = "nord"\n[keys\n'
    (config_dir / CONFIG_FILE).write_text(broken)
    app = make_app(harness.settings, harness.services)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == "textual-dark"
        assert any("is not valid TOML" in n for n in notes(app))
        app.theme = "gruvbox"
        await settle(pilot)
        assert any("not kept" in n for n in notes(app))
    assert (config_dir / CONFIG_FILE).read_text() == broken


async def test_a_remapped_key_works(harness: Harness, config_dir: Path) -> None:
    config_dir.mkdir()
    (config_dir / CONFIG_FILE).write_text(
        '[keys]\n"chat.history" = "f6"\n"chat.export" = "f7"\n"chat.nope" = "f9"\n'
    )
    app = make_app(harness.settings, harness.services)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert any("unknown binding id(s)" in n and "chat.nope" in n for n in notes(app))
        await pilot.press("f6")
        await settle(pilot)
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("escape")
        await submit(pilot, ALZ_QUESTION)
        await pilot.press("f7")
        await settle(pilot)
        assert isinstance(app.screen, ExportScreen)
        await pilot.press("escape")
        await pilot.press("f1")
        await settle(pilot)
        help_text = app.screen.query_one("Markdown").source  # type: ignore[attr-defined]
        assert "| `f6` | History | `chat.history` |" in help_text


async def test_export_to_an_existing_file_asks_before_replacing_it(
    app: HelixApp, tmp_path: Path
) -> None:
    from helix_tui.screens.confirm import ConfirmScreen

    kept = tmp_path / "notes.md"
    kept.write_text("my own notes\n", encoding="utf-8")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, ALZ_QUESTION)
        await submit(pilot, f"/export {kept}")
        assert isinstance(app.screen, ConfirmScreen)
        assert str(kept) in app.screen.question and "Replace" in app.screen.question
        await pilot.press("n")
        await settle(pilot)
        assert kept.read_text(encoding="utf-8") == "my own notes\n"
        assert notes(app)[-1] == f"Not exported: {kept} is kept as it was"
        await submit(pilot, f"/export {kept}")
        await pilot.press("y")
        await settle(pilot)
        assert kept.read_text(encoding="utf-8").startswith("# Which medicines")
        assert notes(app)[-1] == f"Exported to {kept}"


async def test_help_rows_with_a_bar_stay_whole(app: HelixApp) -> None:
    from textual.widgets._markdown import MarkdownTable

    from helix_tui.screens.help import HelpScreen

    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, "/help")
        assert isinstance(app.screen, HelpScreen)
        await pilot.pause()
        table = app.screen.query(MarkdownTable).first()
        rows = [[cell.plain for cell in row] for row in table._rows]
        assert all(len(row) == 2 for row in rows), rows
        usages = [row[0] for row in rows]
        assert "/export [md|json|html|graphml|cytoscape|gexf] [PATH]" in usages, usages
        assert not any("`" in cell for row in rows for cell in row), rows
