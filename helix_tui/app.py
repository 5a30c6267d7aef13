"""The Helix chat app: a thin shell around the chat screen, built by ``make_app``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import ClassVar, Literal

from textual.app import App
from textual.binding import Binding, BindingType
from textual.theme import Theme

from engine.config import Settings
from helix_tui.config import LoadedConfig
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
        self.config = LoadedConfig.load(settings)

    def on_mount(self) -> None:
        problems = [self.config.problem] if self.config.problem else []
        config = self.config.config
        if config.theme in self.available_themes:
            self.theme = config.theme
        else:
            problems.append(f"unknown theme {config.theme!r} in {self.config.path}")
        known = binding_ids()
        unknown = sorted(set(config.keys) - known)
        if unknown:
            problems.append(f"unknown binding id(s) in {self.config.path}: {', '.join(unknown)}")
        self.set_keymap({k: v for k, v in config.keys.items() if k in known})
        for problem in problems:
            self.notify(problem, severity="warning", timeout=10)
        self.theme_changed_signal.subscribe(self, self._keep_theme)

    def _keep_theme(self, theme: Theme) -> None:
        if theme.name == self.config.config.theme:
            return
        self.config.config.theme = theme.name
        try:
            self.config.save()
        except (OSError, ValueError) as exc:
            self.notify(f"Theme {theme.name} not kept: {exc}", severity="warning")

    def get_default_screen(self) -> ChatScreen:
        return ChatScreen(self.settings, self.services, self.options)

    @property
    def chat(self) -> ChatScreen:
        screen = self.screen_stack[0]
        assert isinstance(screen, ChatScreen)
        return screen


def binding_ids() -> set[str]:
    """The ids of every key binding of the app (what ``chat.toml``'s ``[keys]`` may remap)."""
    from helix_tui.screens import clarify, confirm, export, help, history, rename, sessions
    from helix_tui.widgets import fact_table, prompt

    owners: list[type] = [HelixApp, ChatScreen]
    for module in (clarify, confirm, export, help, history, rename, sessions, fact_table, prompt):
        owners += [
            c for c in vars(module).values() if isinstance(c, type) and "BINDINGS" in vars(c)
        ]
    return {
        b.id for cls in owners for b in vars(cls)["BINDINGS"] if isinstance(b, Binding) and b.id
    }


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
