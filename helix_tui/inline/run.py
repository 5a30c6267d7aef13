"""``helix-chat --inline``: the line editor on a terminal, the lines of standard input
otherwise; answers styled on a terminal, plain text into a file or a pipe."""

from __future__ import annotations

import os
import sys
from typing import TextIO

from engine.config import Settings
from helix_tui.config import LoadedConfig
from helix_tui.inline.chat import InlineChat
from helix_tui.inline.complete import HelixCompleter
from helix_tui.inline.show import Printer
from helix_tui.inline.terminal import HISTORY_FILE, LineReader, PromptReader, Reader
from helix_tui.services import Services, default_services


def run_inline(
    settings: Settings,
    services: Services | None = None,
    *,
    session_id: str | None = None,
    resume: bool = False,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Chat in the terminal until the input ends; the exit status."""
    # the embedding model's loading bars would be drawn over the line being typed
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    printer = Printer.to(stdout)
    completer = HelixCompleter()
    reader: Reader
    if stdin.isatty() and stdout.isatty():
        config = LoadedConfig.load(settings)
        if config.problem:
            printer.error(config.problem)
        history = settings.user_dir(settings.user) / HISTORY_FILE
        reader = PromptReader(history, completer, keys=config.config.editing_mode)
    else:
        reader = LineReader(stdin)
    chat = InlineChat(settings, services or default_services(), reader, printer, completer)
    return chat.run(session_id=session_id, resume=resume)
