"""The layers: import-linter contracts (``[tool.importlinter]`` in pyproject.toml) and what
the interpreter actually loads.

The contracts say who may import whom, including imports inside functions; the two runtime
checks catch what a static graph cannot see (imports made by libraries or by ``importlib``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "memory", "sessions", "wiring", "prompts", "helix_tui", "helix_mcp")
LINT = (
    "import sys; from importlinter.cli import lint_imports; "
    "sys.exit(lint_imports(no_cache=True, no_logo=True))"
)


def _python(code: str, root: Path = REPO) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True
    )


def test_the_import_contracts_hold() -> None:
    done = _python(LINT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


@pytest.mark.parametrize(
    ("module", "line", "chain", "broken"),
    [
        # the inner engine layers and the "never reach up into the agent" contract
        ("engine/graph/walk.py", "from engine.agent import loop", "engine.graph.walk -> ", 2),
        ("memory/service.py", "from sessions import store", "memory.service -> sessions.store", 1),
        ("memory/service.py", "from wiring import open", "memory.service -> wiring.open", 1),
        # the inner engine layers alone: the graph, an index or a provider reading questions,
        # reading a question reaching into the agent, utilities reaching into the graph
        (
            "engine/graph/store.py",
            "from engine.understand import mentions",
            "engine.graph.store -> engine.understand.mentions",
            1,
        ),
        (
            "engine/index/vectors.py",
            "from engine.understand import lexicon",
            "engine.index.vectors -> engine.understand.lexicon",
            1,
        ),
        (
            "engine/providers/llm/base.py",
            "from engine.graph import relations",
            "engine.providers.llm.base -> engine.graph.relations",
            1,
        ),
        (
            "engine/understand/linking.py",
            "from engine.agent import plan",
            "engine.understand.linking -> engine.agent.plan",
            1,
        ),
        ("engine/util/text.py", "from engine.graph import store", "engine.util.text -> ", 1),
        # the full-screen chat and the inline chat each keep to their own toolkit
        (
            "helix_tui/screens/help.py",
            "from helix_tui.inline import terminal",
            "helix_tui.screens.help -> helix_tui.inline.terminal",
            1,
        ),
        ("helix_tui/inline/names.py", "from helix_tui import app", "helix_tui.inline.names -> ", 1),
    ],
)
def test_a_contract_breaks_when_a_layer_reaches_up(
    tmp_path: Path, module: str, line: str, chain: str, broken: int
) -> None:
    """The contracts are not vacuous: the graph importing the agent, memory importing sessions
    or the wiring, or a lower engine layer importing a higher one (the graph or an index
    reading questions, a provider knowing the graph) breaks them (checked on a copy of the
    tree)."""
    for package in PACKAGES:
        ignore = shutil.ignore_patterns("__pycache__")
        shutil.copytree(REPO / package, tmp_path / package, ignore=ignore)
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / module
    target.write_text(target.read_text(encoding="utf-8") + f"\n{line}  # noqa\n")
    done = _python(LINT, tmp_path)
    assert done.returncode != 0, done.stdout
    assert f"{broken} broken" in done.stdout and chain in done.stdout, done.stdout


def test_no_package_but_the_app_loads_textual() -> None:
    code = (
        "import sys, importlib, pkgutil\n"
        "import engine, memory, sessions, wiring, prompts, helix_mcp\n"
        "for pkg in (engine, memory, sessions, wiring, prompts, helix_mcp):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(m.name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'textual', 'helix_tui'})\n"
        "print(','.join(bad))\n"
    )
    done = _python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"UI modules imported: {done.stdout}"


@pytest.mark.parametrize(
    ("module", "other"),
    [("helix_tui.app", "prompt_toolkit"), ("helix_tui.inline.run", "textual")],
)
def test_each_chat_loads_only_its_own_toolkit(module: str, other: str) -> None:
    """The full-screen chat starts without the line editor, ``--inline`` without Textual."""
    done = _python(
        f"import sys, {module}; "
        f"loaded = sorted(m for m in sys.modules if m.split('.')[0] == {other!r}); "
        "assert not loaded, loaded"
    )
    assert done.returncode == 0, done.stderr


def test_the_app_module_loads_neither_the_engine_nor_the_stores_at_import() -> None:
    code = (
        "import helix_tui.app; import sys; "
        "heavy = sorted(m for m in sys.modules if m in ('engine.api', 'torch', 'faiss', "
        "'duckdb', 'sentence_transformers') "
        "or m.split('.')[0] in ('memory', 'sessions', 'wiring')); "
        "assert not heavy, heavy"
    )
    done = _python(code)
    assert done.returncode == 0, done.stderr
