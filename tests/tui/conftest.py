from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.worker import WorkerCancelled, WorkerFailed

from helix_tui.app import HelixApp, make_app
from helix_tui.widgets.prompt import PromptInput

from .fakes import Harness, make_harness


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test gets its own chat.toml directory: the user's real one is never written."""
    path = tmp_path / "config"
    monkeypatch.setenv("HELIX_CONFIG_DIR", str(path))
    return path


@pytest.fixture
def harness(tmp_path: Path) -> Harness:
    return make_harness(tmp_path / "home")


@pytest.fixture
def app(harness: Harness) -> HelixApp:
    return make_app(harness.settings, harness.services)


async def settle(pilot: Pilot[None], rounds: int = 50) -> None:
    """Wait until workers are done, messages handled and no question is being answered."""
    app = pilot.app
    assert isinstance(app, HelixApp)
    for _ in range(rounds):
        try:
            await app.workers.wait_for_complete()
        except (WorkerCancelled, WorkerFailed):
            continue
        await pilot.pause()
        chat = app.chat
        busy = chat.asking is not None and chat.engine is not None
        if not busy and not any(w.is_running for w in app.workers):
            await pilot.pause()
            return
        await pilot.pause(0.02)
    raise AssertionError("the app did not settle")


async def submit(pilot: Pilot[None], text: str) -> None:
    """Type ``text`` in the prompt and press Enter, then settle."""
    app = pilot.app
    assert isinstance(app, HelixApp)
    prompt = app.chat.query_one(PromptInput)
    prompt.focus()
    prompt.value = text
    await pilot.press("enter")
    await settle(pilot)
