"""``helix-chat --inline`` driven through prompt-toolkit's own test input and output
(``create_pipe_input``, ``DummyOutput``): names complete with their kind, a clarification is
answered by its number, a follow-up reads the last subject, the history of what was typed
survives a restart, and output that is no terminal is plain text."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from engine.config import Settings
from helix_tui.inline.chat import InlineChat
from helix_tui.inline.complete import HelixCompleter
from helix_tui.inline.names import NameIndex
from helix_tui.inline.run import run_inline
from helix_tui.inline.show import Printer
from helix_tui.inline.terminal import HISTORY_FILE, PromptReader
from helix_tui.services import Services
from tests.support.fake_engine import FakeEngine

from .fakes import AMBIGUOUS_QUESTION, MS, answer_ambiguous, make_harness

DIABETES = "which drugs treat type 2 diabetes mellitus?"
UP, CTRL_D, CTRL_R, ALT_ENTER = "\x1b[A", "\x04", "\x12", "\x1b\r"
PASTE = "\x1b[200~{}\x1b[201~"


@pytest.fixture
def engine() -> FakeEngine:
    """The shared fake graph (treatments of a named disease) that also asks back about MS."""
    return FakeEngine(answers={AMBIGUOUS_QUESTION: answer_ambiguous})


@pytest.fixture
def home(tmp_path: Path, engine: FakeEngine) -> tuple[Settings, Services]:
    harness = make_harness(tmp_path / "home")
    return harness.settings, replace(harness.services, open_engine=lambda _s: engine)


@dataclass
class Driven:
    """An inline chat running on its own thread over a pipe: type into it, read what it
    printed."""

    chat: InlineChat
    pipe: PipeInput
    out: io.StringIO
    engine: FakeEngine

    def wait(self, done: Callable[[], bool], what: str) -> None:
        for _ in range(500):
            if done():
                return
            time.sleep(0.01)
        raise AssertionError(f"timed out waiting for {what}")

    def typed(self, keys: str, shows: str | None = None) -> None:
        """Type ``keys`` into the line being edited and wait until it ``shows`` that text
        (by default: what it held, then ``keys``)."""
        buffer = self.reader.session.default_buffer
        wanted = buffer.text + keys if shows is None else shows
        self.pipe.send_text(keys)
        self.wait(lambda: buffer.text == wanted, f"the line to read {wanted!r}")

    def enter(self, keys: str = "") -> None:
        """Type ``keys`` and Enter, then wait until the turn is answered."""
        taken = self.chat.taken
        self.pipe.send_text(keys + "\r")
        self.wait(lambda: self.chat.taken > taken, f"{keys!r} to be answered")

    @property
    def reader(self) -> PromptReader:
        assert isinstance(self.chat.reader, PromptReader)
        return self.chat.reader

    def asked(self) -> list[str]:
        return [c["question"] for c in self.engine.calls]


@contextmanager
def inline(home: tuple[Settings, Services], engine: FakeEngine) -> Iterator[Driven]:
    """The chat as ``helix-chat --inline`` runs it on a terminal, with a pipe for keys; ctrl+d
    ends it when the block does."""
    settings, services = home
    with create_pipe_input() as pipe:
        completer = HelixCompleter()
        history = settings.user_dir(settings.user) / HISTORY_FILE
        reader = PromptReader(history, completer, input=pipe, output=DummyOutput())
        out = io.StringIO()
        chat = InlineChat(settings, services, reader, Printer.to(out), completer)
        status: list[int] = []
        thread = threading.Thread(target=lambda: status.append(chat.run()), daemon=True)
        thread.start()
        driven = Driven(chat, pipe, out, engine)
        driven.wait(lambda: completer.names is not None, "the names to be read")
        yield driven
        pipe.send_text(CTRL_D)
        thread.join(10)
        assert not thread.is_alive() and status == [0]


def test_tab_completes_a_name_and_shows_its_kind(
    home: tuple[Settings, Services], engine: FakeEngine
) -> None:
    with inline(home, engine) as chat:
        names = chat.chat.completer.names if chat.chat.completer else None
        assert names is not None
        shown = [o.choice.shown for o in names.offers("what does arice")]
        assert shown == ["Aricept — Donepezil (Compound)"]
        offered = [
            (c.text, c.display_text)
            for c in chat.reader.session.completer.get_completions(  # type: ignore[union-attr]
                Document("which genes does donep"), CompleteEvent(completion_requested=True)
            )
        ]
        assert offered == [("Donepezil", "Donepezil (Compound)")]

        chat.typed("which genes does donep")
        chat.typed("\t", shows="which genes does Donepezil")
        chat.enter(" bind?")
    assert chat.asked() == ["which genes does Donepezil bind?"]


def test_a_clarification_is_answered_by_its_number(
    home: tuple[Settings, Services], engine: FakeEngine
) -> None:
    with inline(home, engine) as chat:
        chat.enter(AMBIGUOUS_QUESTION)
        assert "1 multiple sclerosis (Disease)" in chat.out.getvalue()
        assert chat.chat.clarifying is not None
        chat.enter("1")
    assert [(c["question"], c["choice"]) for c in engine.calls] == [
        (AMBIGUOUS_QUESTION, None),
        (AMBIGUOUS_QUESTION, MS),
    ]
    printed = chat.out.getvalue()
    assert "→ multiple sclerosis (Disease)" in printed
    assert "MOG is associated with multiple sclerosis." in printed


def test_a_follow_up_asks_of_the_last_subject(
    home: tuple[Settings, Services], engine: FakeEngine
) -> None:
    with inline(home, engine) as chat:
        chat.enter(DIABETES)
        chat.enter("and what else treats it?")
    assert chat.asked() == [DIABETES, "and what else treats type 2 diabetes mellitus?"]
    printed = chat.out.getvalue()
    assert "Reading 'it' as type 2 diabetes mellitus." in printed
    assert printed.count("Sitagliptin —treats→ type 2 diabetes mellitus") == 4  # paths, evidence


def test_a_follow_up_asked_back_about_is_asked_again_as_it_was_read(
    home: tuple[Settings, Services], engine: FakeEngine
) -> None:
    """A pick re-asks the question the engine was asked, the follow-up already read."""
    read = "which genes are linked to type 2 diabetes mellitus?"
    engine.answers[read] = answer_ambiguous
    with inline(home, engine) as chat:
        chat.enter(DIABETES)
        chat.enter("which genes are linked to it?")
        chat.enter("1")
    assert [(c["question"], c.get("choice")) for c in engine.calls] == [
        (DIABETES, None),
        (read, None),
        (read, MS),
    ]


def test_what_was_typed_is_found_again_after_a_restart(
    home: tuple[Settings, Services], engine: FakeEngine
) -> None:
    with inline(home, engine) as chat:
        chat.enter("what treats alzheimer?")
        chat.enter(DIABETES)
    history = home[0].user_dir(home[0].user) / HISTORY_FILE
    assert history.is_file()
    engine.calls.clear()
    with inline(home, engine) as chat:
        chat.enter(UP)  # the last line of the earlier run
        # ctrl+r searches backwards; the first Enter takes the line found, the second asks it
        chat.enter(CTRL_R + "alzh\r")
    assert chat.asked() == [DIABETES, "what treats alzheimer?"]


def test_several_lines_make_one_turn(home: tuple[Settings, Services], engine: FakeEngine) -> None:
    with inline(home, engine) as chat:
        chat.enter(PASTE.format("which drugs treat\ntype 2 diabetes mellitus?"))
        chat.typed("what treats")
        chat.typed(ALT_ENTER, shows="what treats\n")
        chat.enter("alzheimer?")
    assert chat.asked() == [DIABETES, "what treats alzheimer?"]


def test_output_that_is_no_terminal_is_plain_text(
    home: tuple[Settings, Services], engine: FakeEngine
) -> None:
    """``helix-chat --inline < questions.txt > answers.txt``: each line a turn (a trailing
    backslash joins the next), the turns echoed, no escape codes."""
    settings, services = home
    questions = io.StringIO(
        f"{AMBIGUOUS_QUESTION}\n1\nwhich drugs treat\\\n type 2 diabetes mellitus?\n"
    )
    answers = io.StringIO()
    assert run_inline(settings, services, stdin=questions, stdout=answers) == 0
    printed = answers.getvalue()
    assert "\x1b" not in printed
    assert f"» {AMBIGUOUS_QUESTION}" in printed and "» 1\n→ multiple sclerosis" in printed
    assert "Metformin —treats→ type 2 diabetes mellitus" in printed
    assert [c["question"] for c in engine.calls][-1] == DIABETES
    assert not any(line.endswith(" ") for line in printed.splitlines())

    styled = io.StringIO()
    Printer(Console(file=styled, force_terminal=True)).answer(engine.ask(DIABETES), [])
    assert "\x1b[" in styled.getvalue()  # the same answer on a terminal has colour


def test_an_engine_that_cannot_load_is_said_once_and_ends_the_chat(
    home: tuple[Settings, Services],
) -> None:
    settings, services = home

    def broken(_s: Settings) -> FakeEngine:
        raise OSError("kg.duckdb: disk I/O error")

    answers = io.StringIO()
    questions = io.StringIO("which drugs treat asthma?\nand its genes?\n")
    status = run_inline(
        settings, replace(services, open_engine=broken), stdin=questions, stdout=answers
    )
    assert status == 1
    assert answers.getvalue().count("The engine could not load: OSError: kg.duckdb") == 1
    assert "and its genes?" not in answers.getvalue()


def test_inline_is_not_combined_with_a_replay(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from helix_tui.cli import cli

    stream = tmp_path / "day.replay.jsonl"
    stream.write_text("")
    done = CliRunner().invoke(
        cli, ["--home", str(tmp_path), "--inline", "--replay", str(stream)], obj={}
    )
    assert done.exit_code == 2
    assert "--inline cannot be combined with --replay or --tui" in done.output


def test_the_app_s_commands_work_on_the_line(
    home: tuple[Settings, Services], engine: FakeEngine, tmp_path: Path
) -> None:
    """Memory, forgetting (asked first, answered on the next line), the mode and the app's
    export, in plain output."""
    import json

    settings, services = home
    target = tmp_path / "notes.json"
    lines = [
        "Switched MRN 4471 from metformin to sitagliptin.",
        "/memory",
        "/forget MRN 4471",
        "n",
        "/forget MRN 4471",
        "y",
        "/memory",
        "/mode graph",
        DIABETES,
        f"/export json {target}",
        f"/export json {target}",
        "n",
    ]
    answers = io.StringIO()
    run_inline(settings, services, stdin=io.StringIO("\n".join(lines) + "\n"), stdout=answers)
    printed = answers.getvalue()
    assert "MRN 4471   takes      Sitagliptin" in printed
    assert "Forget it? This cannot be undone. [y/N] n\nKept: nothing was forgotten." in printed
    assert "Forget it? This cannot be undone. [y/N] y\nForgot 1 fact about MRN 4471" in printed
    assert "alice: no facts yet." in printed
    assert engine.calls[-1]["mode"] == "graph"
    assert f"Exported to {target} (JSON;" in printed
    assert f"Not exported: {target} is kept as it was" in printed
    turns = json.loads(target.read_text())["turns"]
    assert [t["question"] for t in turns] == [lines[0], DIABETES]


def test_vi_keys_are_kept_in_chat_toml(tmp_path: Path, config_dir: Path) -> None:
    from prompt_toolkit.enums import EditingMode

    from helix_tui.config import CONFIG_FILE, LoadedConfig

    config_dir.mkdir(parents=True)
    (config_dir / CONFIG_FILE).write_text('editing_mode = "vi"\n')
    settings = Settings(home=tmp_path / "home", _env_file=None)  # type: ignore[call-arg]
    keys = LoadedConfig.load(settings).config.editing_mode
    reader = PromptReader(tmp_path / HISTORY_FILE, HelixCompleter(), keys=keys)
    assert reader.session.editing_mode is EditingMode.VI
    (config_dir / CONFIG_FILE).write_text('editing_mode = "ed"\n')
    assert "editing_mode" in (LoadedConfig.load(settings).problem or "")


def test_the_names_offered_rank_own_names_and_exact_keys_first() -> None:
    index = NameIndex(FakeEngine().alias_entries())
    assert [o.choice.text for o in index.offers("alzh")] == ["Alzheimer's disease", "Alzheimer"]
    assert [o.typed for o in index.offers("treat alzh")] == ["alzh", "alzh"]
    assert index.offers("which drugs treat type 2 diab")[0].typed == "type 2 diab"
    assert index.offers("donepezil ") == [] and index.offers("d") == []
    near = index.offers("metfromin")
    assert [o.choice.shown for o in near] == ["Metformin (Compound)"]
    assert index.offers("metfromin", near=False) == []


def test_commands_complete_with_their_words() -> None:
    completer = HelixCompleter()

    def offered(text: str) -> list[str]:
        event = CompleteEvent(completion_requested=True)
        return [c.text for c in completer.get_completions(Document(text), event)]

    assert offered("/ex") == ["/export", "/exit"]
    assert offered("/mode g") == ["graph"]
    assert offered("/export j") == ["json"]
    assert offered("which genes") == []  # no names before the engine has loaded


@pytest.mark.integration
def test_the_engine_s_alias_index_completes_names(helix: object) -> None:
    """On the real engine over the slice's stores: a brand name and a shared symbol are
    offered with the nodes they name."""
    from engine.api import Helix

    assert isinstance(helix, Helix)
    index = NameIndex(helix.alias_entries())
    assert "Donepezil (Compound)" in [o.choice.shown for o in index.offers("what does donep")]
    aricept = [o.choice.shown for o in index.offers("arice")]
    assert "Aricept — Donepezil (Compound)" in aricept, aricept
