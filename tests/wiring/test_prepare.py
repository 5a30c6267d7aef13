"""What a user's first questions read is made at ingest (``wiring.open.prepare``): the engine's
prepared parts and every bank of wordings memory embeds through the engine. After it, the first
questions and statements of a new user embed no bank: nothing new is kept under the stores."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.config import Settings
from wiring.open import open_engine, open_memory, prepare
from wiring.turn import take_turn

pytestmark = pytest.mark.integration

TURNS = (
    "What drugs treat Alzheimer's disease?",
    "Started MRN 4471 on donepezil 5 mg at bedtime.",
    "Stopped the donepezil for MRN 4471.",
    "What is MRN 4471 taking?",
    "Which genes are associated with autism?",
)


@pytest.fixture
def home(small_settings: Settings, tmp_path: Path) -> Settings:
    """A copy of the ingested slice home with nothing prepared."""
    dst = tmp_path / "home"
    shutil.copytree(small_settings.home, dst, symlinks=True, ignore=shutil.ignore_patterns("users"))
    shutil.rmtree(dst / "stores" / "understand", ignore_errors=True)
    shutil.rmtree(dst / "stores" / "prepared", ignore_errors=True)
    return small_settings.model_copy(update={"home": dst, "build_layers": "", "user": "new"})


def kept(settings: Settings) -> set[str]:
    return {p.name for p in (settings.stores_dir / "understand").iterdir()}


def test_prepare_embeds_the_memory_banks_a_first_question_would(home: Settings) -> None:
    prepare(home)
    made = kept(home)
    assert made, "prepare keeps the banks' vectors under stores/understand"

    helix = open_engine(home)
    memory = open_memory(home, home.user, helix, warm=True)
    try:
        for text in TURNS:
            take_turn(helix, memory, text)
    finally:
        memory.close()
        helix.close()
    assert kept(home) == made  # no bank was embedded (and kept) at the first questions


def test_without_prepare_the_first_question_embeds_the_memory_bank(home: Settings) -> None:
    """The check above can fail: the engine's own prepare leaves memory's bank to the first
    question, which embeds it and keeps it then."""
    from engine.api import prepare as prepare_engine

    prepare_engine(home)
    made = kept(home)
    helix = open_engine(home)
    memory = open_memory(home, home.user, helix, warm=True)
    try:
        take_turn(helix, memory, TURNS[0])
    finally:
        memory.close()
        helix.close()
    assert kept(home) > made
