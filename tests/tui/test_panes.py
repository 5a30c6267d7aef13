"""Long paths one hop a line, node descriptions and edge sources, answers that appear."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.widgets import Markdown

from engine.result import Answer, Evidence, Result, Status, Triple
from helix_tui.app import make_app
from helix_tui.config import CONFIG_FILE
from helix_tui.present import reveal_steps
from helix_tui.widgets.assistant_turn import AssistantTurn
from helix_tui.widgets.path_tree import PathTree
from helix_tui.widgets.prompt import PromptInput

from .conftest import settle, submit
from .fakes import ACHE, ALZHEIMER, DONEPEZIL, METFORMIN, Harness

SIZE = (120, 40)
T2D = "Disease::DOID:9352"
PPARG = "Gene::5468"
LONG_QUESTION = "Which diseases resemble those treated by drugs that bind ACHE?"
SENTENCES = (
    "Type 2 diabetes mellitus resembles Alzheimer's disease. Donepezil binds ACHE and treats "
    "Alzheimer's disease. Metformin treats type 2 diabetes mellitus! The paths are in the pane."
)


def three_hop(question: str, _choice: str | None) -> Result:
    hops: list[Triple] = [
        (DONEPEZIL, "CbG", ACHE),
        (DONEPEZIL, "CtD", ALZHEIMER),
        (ALZHEIMER, "DrD", T2D),
    ]
    return Result(
        question=question,
        status=Status.ANSWERED,
        answers=[Answer(id=T2D, name="type 2 diabetes mellitus", score=0.7, kind="Disease")],
        evidence=[
            Evidence(kind="triple", triple=hops[0], score=0.9, source="DrugBank via Hetionet"),
            Evidence(kind="triple", triple=hops[2], score=0.7, source="Hetionet DrD"),
        ],
        paths=[hops, [(METFORMIN, "CbG", PPARG), (T2D, "DaG", PPARG)]],
        text=SENTENCES,
        mode="hybrid",
        latency_ms=120.0,
    )


def reveal_app(harness: Harness, config_dir: Path, reveal_ms: int):  # type: ignore[no-untyped-def]
    config_dir.mkdir(exist_ok=True)
    (config_dir / CONFIG_FILE).write_text(f"reveal_ms = {reveal_ms}\n")
    harness.engine.answers[LONG_QUESTION] = three_hop
    return make_app(harness.settings, harness.services)


async def test_a_three_hop_path_reads_one_hop_a_line(harness: Harness, config_dir: Path) -> None:
    app = reveal_app(harness, config_dir, 0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await submit(pilot, LONG_QUESTION)
        tree = app.chat.query_one(PathTree)
        first = tree.root.children[0]
        assert str(first.label) == "1. ACHE ⇢ type 2 diabetes mellitus  (3 hops)"
        assert [str(c.label) for c in first.children] == [
            "←binds— Donepezil  (DrugBank via Hetionet)",
            "—treats→ Alzheimer's disease",
            "—resembles→ type 2 diabetes mellitus  (Hetionet DrD)",
        ]
        # each hop fits the pane; what does not (an edge's source) scrolls, it is not cut
        width = tree.scrollable_content_region.width
        assert all(len(str(c.label).split("  (")[0]) + 8 <= width for c in first.children)
        assert tree.virtual_size.width > max(len(str(c.label)) for c in first.children)
        assert tree.virtual_size.width > width and tree.show_horizontal_scrollbar

        tree.focus()
        tree.move_cursor(first.children[2])
        await pilot.press("enter")
        await settle(pilot)
        detail = app.chat.query_one("#path-detail", Markdown).source
        assert "- source of this edge: Hetionet DrD" in detail
        assert "**Alzheimer's disease** · Disease: A tauopathy" in detail
        assert "type 2 diabetes mellitus** · Disease: _no description in the graph._" in detail
        tree.move_cursor(first.children[0])
        await pilot.press("enter")
        await settle(pilot)
        detail = app.chat.query_one("#path-detail", Markdown).source
        assert "**ACHE** · Gene: acetylcholinesterase (Cartwright blood group)" in detail
        assert "- source of this edge: DrugBank via Hetionet" in detail


async def test_the_answer_appears_sentence_by_sentence(harness: Harness, config_dir: Path) -> None:
    app = reveal_app(harness, config_dir, 150)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        prompt = app.chat.query_one(PromptInput)
        prompt.value = LONG_QUESTION
        pressed = asyncio.create_task(pilot.press("enter"))  # watch while the key is handled
        seen: list[str] = []
        for _ in range(200):
            turns = list(app.chat.query(AssistantTurn))
            # the turn mounts before its answer pane does: poll until both are there
            answers = list(turns[-1].query(".answer").results(Markdown)) if turns else []
            if answers:
                text = answers[0].source
                if text and (not seen or seen[-1] != text):
                    seen.append(text)
                if text == SENTENCES:
                    break
            await asyncio.sleep(0.01)
        await pressed
        assert seen[0] == "Type 2 diabetes mellitus resembles Alzheimer's disease. ▍"
        assert seen[-1] == SENTENCES and len(seen) == 4
        assert all(s.endswith("▍") for s in seen[:-1])


def test_reveal_steps_break_at_sentences_not_at_list_numbers() -> None:
    steps = reveal_steps("Two answers. See the pane!\n\n1. **A** — 0.90\n2. **B** — 0.80")
    assert steps == [
        "Two answers.",
        "Two answers. See the pane!",
        "Two answers. See the pane!\n\n1. **A** — 0.90",
        "Two answers. See the pane!\n\n1. **A** — 0.90\n2. **B** — 0.80",
    ]
    assert reveal_steps("One sentence only.") == ["One sentence only."]
