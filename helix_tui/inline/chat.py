"""The inline chat: read a line, take the turn, print the answer, until ctrl+d.

The same pieces as the Textual chat: a typed line is read by ``clarify.read_typed`` (a command,
a pick among a clarification's candidates, or a question), the turn is ``turns.chat_turn`` on
the one backend thread every engine and memory call runs on, and the session is kept by
``SessionKeeper``. The engine loads in the background while the first line is typed; ctrl+c
while an answer is made cancels it, as Esc does in the app."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from functools import partial
from typing import TypeVar

from engine.config import Mode, Settings
from engine.events import StepEvent
from engine.ports import EnginePort, FactPort
from engine.result import Result
from engine.util.faults import StoreFault
from helix_tui import present
from helix_tui.backend import Backend, Cancelled, CancelToken
from helix_tui.clarify import Clarifying, picked_line, read_typed
from helix_tui.commands import UnknownCommand
from helix_tui.facts import notes_of
from helix_tui.inline import actions
from helix_tui.inline.complete import QUIT, HelixCompleter
from helix_tui.inline.names import NameIndex
from helix_tui.inline.show import Printer
from helix_tui.inline.terminal import Reader, one_line
from helix_tui.services import Services
from helix_tui.session_keeper import SessionKeeper
from helix_tui.turns import AskRequest, Memories, chat_turn

T = TypeVar("T")

LOADING = "Loading the engine (embedding model, knowledge graph)…"
WELCOME = (
    "Ask about drugs, diseases, genes and how they connect, or state a fact to remember. "
    "Tab completes names · ↑ and ctrl+r search what you typed · alt+enter adds a line · "
    "ctrl+c cancels · /help · ctrl+d quits"
)


class InlineChat:
    def __init__(
        self,
        settings: Settings,
        services: Services,
        reader: Reader,
        printer: Printer,
        completer: HelixCompleter | None = None,
    ) -> None:
        self.settings = settings
        self.services = services
        self.reader = reader
        self.printer = printer
        self.completer = completer
        self.backend = Backend()
        self.memories = Memories(settings, services)
        self.sessions = SessionKeeper(settings, services, settings.user)
        self.mode: Mode = settings.mode
        self.clarifying: Clarifying | None = None
        self.last: Result | None = None
        """The last answer shown (``/trace``, ``/copy``)."""
        self.events: list[StepEvent] = []
        """The steps of the last answer."""
        self.failed = False
        """The engine could not load: the chat ends with exit status 1."""
        self.taken = 0
        """Lines taken so far (each a command, a pick or a question)."""
        self._loading: Future[EnginePort] | None = None

    # ----------------------------------------------------------------- the loop
    def run(self, *, session_id: str | None = None, resume: bool = False) -> int:
        """Chat until the input ends; the exit status (1 when the engine could not load)."""
        self._loading = self.backend.submit(partial(self.services.open_engine, self.settings))
        if self.completer is not None:
            self.backend.submit(self._read_names)
        try:
            self._open_session(session_id, resume)
            if not self.printer.plain:
                self.printer.line(f"Helix · {self._where()}", "bold")
                self.printer.line(WELCOME, "dim")
            while not self.failed and (typed := self.reader.read(self._prompt())) is not None:
                text = one_line(typed)
                if text.lower() in {f"/{word}" for word in QUIT}:
                    break
                if not text:
                    continue
                try:
                    self.take(text)
                except KeyboardInterrupt:  # ctrl+c while an answer was printed
                    self.printer.line("Cancelled.", "yellow")
                self.taken += 1
        finally:
            self.close()
        return 1 if self.failed else 0

    def take(self, text: str) -> None:
        """One typed line: a command, a pick of the clarification, or a question."""
        if self.printer.plain:  # no prompt shows what was typed
            self.printer.echo(text)
        try:
            typed = read_typed(text, self.clarifying)
        except UnknownCommand as exc:
            self.printer.line(str(exc), "yellow")
            return
        if typed.command is not None:
            try:
                actions.run(self, *typed.command)
            except StoreFault as exc:  # a store the command reads: said, the chat goes on
                self.printer.error(str(exc))
        elif typed.pick is not None and self.clarifying is not None:
            pending, self.clarifying = self.clarifying, None
            self.printer.line(picked_line(typed.pick, typed.pick.id), "bold")
            self.ask(pending.question, choice=typed.pick.id)
        else:
            self.clarifying = None
            self.ask(text)

    def _prompt(self) -> str:
        if self.clarifying is not None:
            return f"pick 1-{len(self.clarifying.candidates)} › "
        return "helix › "

    def _where(self) -> str:
        return f"user {self.sessions.user} · mode {self.mode} · {self.sessions.title}"

    # ----------------------------------------------------------------- asking
    def ask(self, question: str, *, choice: str | None = None) -> None:
        """Take the turn and print what it noted and answered; the turn joins the session."""
        engine = self.engine()
        if engine is None:
            return
        said = self.sessions.problem
        session = self.sessions.ensure(question)
        if self.sessions.problem is not None and self.sessions.problem != said:
            self.printer.error(f"Not saved: {self.sessions.problem}")
        request = AskRequest(question, self.sessions.user, session.id, self.mode, choice)
        token, events, notes = CancelToken(), list[StepEvent](), list[str]()

        def sink(event: StepEvent) -> None:
            token.check()
            events.append(event)

        def noted(fact: FactPort) -> None:
            notes.extend(notes_of(fact))

        def job() -> tuple[Result, FactPort | None]:
            memory = self.memories.get(request.user, engine)
            contexts = self.memories.contexts
            unusable = self.memories.errors.get(request.user)
            return chat_turn(
                engine, memory, request, contexts, on_event=sink, on_noted=noted, unusable=unusable
            )

        try:
            result, _ = self.wait(job, "Thinking…", events)
        except KeyboardInterrupt:
            token.cancel()
            self.printer.line("Cancelled.", "yellow")
            return
        except Cancelled:
            return
        except StoreFault as exc:  # one sentence with the file and the fix; the chat goes on
            self.printer.error(str(exc))
            return
        except Exception as exc:
            self.printer.error(f"{type(exc).__name__}: {exc}")
            return
        self.show(result, events, notes)
        try:
            self.sessions.save(request.question, result)
        except Exception as exc:
            self.printer.error(f"Could not save the turn: {exc}")
        self.clarifying = Clarifying.of(request.question, result)

    def show(self, result: Result, events: list[StepEvent], notes: list[str]) -> None:
        if result.intent != "statement":  # a statement's answer is its note
            self.printer.notes(notes)
        self.printer.answer(result, events)
        self.last, self.events = result, events

    def confirm(self, question: str) -> bool:
        """A yes/no question (no unless yes); plain output shows it with its reply."""
        yes = self.reader.confirm(question)
        if self.printer.plain:
            self.printer.line(f"{question} [y/N] {'y' if yes else 'n'}")
        return yes

    def wait(self, job: Callable[[], T], label: str, events: list[StepEvent] | None = None) -> T:
        """Run ``job`` on the backend thread; a spinner shows the latest step meanwhile."""
        future = self.backend.submit(job)
        with self.printer.waiting(label) as progress:
            while True:
                try:
                    return future.result(timeout=0.1)
                except TimeoutError:
                    if events:
                        progress(present.step_line(events[-1]))

    def call(self, job: Callable[[], T], label: str = "Reading…") -> T | None:
        """``wait`` for a command's job; a failure is said in one line (None). A
        ``LookupError`` of the job's own says the user's memory is unavailable."""
        try:
            return self.wait(job, label)
        except KeyboardInterrupt:
            self.printer.line("Cancelled.", "yellow")
        except StoreFault as exc:
            self.printer.error(str(exc))
        except Exception as exc:
            if type(exc) is LookupError:
                self.printer.error(f"Memory unavailable: {exc}")
            else:
                self.printer.error(f"{type(exc).__name__}: {exc}")
        return None

    # ----------------------------------------------------------------- the engine
    def engine(self) -> EnginePort | None:
        """The engine, waiting for it to load; None (said once, the chat then ends) when it
        could not."""
        loading = self._loading
        assert loading is not None, "run() starts loading the engine"
        try:
            if not loading.done():
                with self.printer.waiting(LOADING):
                    loading.result()
            return loading.result()
        except KeyboardInterrupt:
            self.printer.line("Cancelled: the engine is still loading.", "yellow")
            return None
        except StoreFault as exc:
            problem = str(exc)
        except Exception as exc:
            problem = f"{type(exc).__name__}: {exc}"
        self.printer.error(f"The engine could not load: {problem}")
        self.failed = True
        return None

    def loaded(self) -> EnginePort | None:
        """The engine when it has loaded, else None (without waiting)."""
        loading = self._loading
        if loading is None or not loading.done() or loading.exception() is not None:
            return None
        return loading.result()

    def _read_names(self) -> None:
        """Backend thread, after the engine: the alias index, sorted for completion on a
        thread of its own (completion offers names once it is there)."""
        engine = self.loaded()
        if engine is None or self.completer is None:
            return
        entries = engine.alias_entries()
        completer = self.completer

        def build() -> None:
            completer.names = NameIndex(entries)

        threading.Thread(target=build, name="helix-names", daemon=True).start()

    # ----------------------------------------------------------------- sessions
    def _open_session(self, session_id: str | None, resume: bool) -> None:
        from wiring.turn import context_from

        try:
            if session_id:
                info = self.sessions.use(session_id)
            elif resume:
                info = self.sessions.resume_latest()
                if info is None:
                    self.printer.line("No earlier session to resume: starting a new one.")
            else:
                info = None
            turns = list(self.sessions.turns()) if info is not None else []
        except Exception as exc:
            self.printer.error(f"Sessions unavailable: {exc}")
            return
        if info is None or not turns:
            return
        context = context_from((t.question, t.result) for t in turns)
        if context is not None:
            self.memories.contexts[(self.sessions.user, info.id)] = context
        self.printer.line(
            f"Resumed “{self.sessions.title}” ({len(turns)} turns; last: {turns[-1].question})",
            "dim",
        )

    def close(self) -> None:
        loading, memories = self._loading, self.memories

        def last() -> None:
            memories.close()
            if loading is not None and loading.done() and loading.exception() is None:
                loading.result().close()

        self.backend.close(last)
        self.backend.join(timeout=5.0)
        self.sessions.close()
