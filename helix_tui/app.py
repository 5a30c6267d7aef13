"""The Helix chat app: a thin shell around the chat screen, built by ``make_app``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import ClassVar, Literal

from textual.app import App
from textual.binding import Binding, BindingType

from engine.config import Settings
from helix_tui.palette import HelixCommands
from helix_tui.screens.chat import ChatScreen, StartOptions
from helix_tui.services import Services, default_services


class HelixApp(App[None]):
    TITLE = "Helix"
    CSS_PATH = "styles/helix.tcss"
    COMMANDS = App.COMMANDS | {HelixCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
    ]

    def __init__(self, settings: Settings, services: Services, options: StartOptions) -> None:
        super().__init__()
        self.settings = settings
        self.services = services
        self.options = options

    def get_default_screen(self) -> ChatScreen:
        return ChatScreen(self.settings, self.services, self.options)

    @property
    def chat(self) -> ChatScreen:
        screen = self.screen_stack[0]
        assert isinstance(screen, ChatScreen)
        return screen


def make_app(
    settings: Settings,
    services: Services | None = None,
    *,
    session_id: str | None = None,
    resume: bool = False,
) -> HelixApp:
    """The chat app for ``settings.user``; ``session_id`` or ``resume`` reopen earlier turns."""
    options = StartOptions(session_id=session_id, resume=resume)
    return HelixApp(settings, services or default_services(), options)


def make_replay_app(
    settings: Settings,
    replay: Path,
    services: Services | None = None,
    *,
    delay: float = 0.8,
    extract: Literal["fact", "text"] = "fact",
) -> HelixApp:
    """The chat app playing a ``*.replay.jsonl`` stream on a simulated clock.

    ``say`` events go to the event user's memory (``extract="fact"`` stores the given fact,
    ``"text"`` extracts it from the text); ``ask`` events are answered and checked against
    ``expect``. ``delay`` seconds of wall time pass between events so the play can be watched.
    """
    from helix_tui.replay import ReplayPlayer

    player = ReplayPlayer.load(replay, extract=extract, delay=delay)
    services = replace(services or default_services(), clock=player.clock)
    return HelixApp(settings, services, StartOptions(replay=player))
