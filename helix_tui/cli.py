"""``helix-chat``: the chat app by default, plus ``ask``, ``eval``, ``ingest``, ``calibrate``."""

from __future__ import annotations

import gc
import importlib
import json
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from engine.util.faults import StoreFault
from helix_tui.cli_engine import MODES, ensure_stores, layers_option, open_engine, settings_for

LAZY_COMMANDS = {
    "eval": "helix_tui.cli_eval:eval_cmd",
    "ingest": "helix_tui.cli_ingest:ingest",
    "calibrate": "helix_tui.cli_eval:calibrate",
    "data": "helix_tui.cli_data:data",
    "doctor": "helix_tui.cli_doctor:doctor",
    "trace": "helix_tui.cli_trace:trace",
    "kg": "helix_tui.cli_kg:kg",
    "db": "helix_tui.cli_db:db",
    "users": "helix_tui.cli_db:users",
    "history": "helix_tui.cli_history:history",
    "mcp": "helix_tui.cli_mcp:mcp",
}
"""Commands whose module is imported only when the command runs or is listed: ``ask`` and the
chat do not pay for ``doctor``'s or ``eval``'s imports (about 1.4 s of every start)."""


class SaysFaults(click.Group):
    """A store that cannot be used, met by any command, is its one-sentence error (exit 1)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = sorted({*super().list_commands(ctx), *LAZY_COMMANDS})
        return [n for n in names if self.get_command(ctx, n) is not None]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is not None or cmd_name not in LAZY_COMMANDS:
            return found
        module_name, attr = LAZY_COMMANDS[cmd_name].split(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            if cmd_name == "mcp":  # the optional MCP extra is not installed
                return None
            raise
        command: click.Command = getattr(module, attr)
        self.add_command(command, cmd_name)
        return command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except StoreFault as exc:
            raise click.ClickException(str(exc)) from None


@click.group(
    cls=SaysFaults,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.option("--user", "-u", help="User id whose sessions and memory to use (default: $USER).")
@click.option("--session", "-s", "session_id", help="Open this session id.")
@click.option("--resume", is_flag=True, help="Resume the user's most recent session.")
@click.option(
    "--replay",
    "replay",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Run a scripted memory stream (JSONL) on a simulated clock.",
)
@click.option("--tui", is_flag=True, help="With --replay: play the stream visibly in the app.")
@click.option(
    "--inline",
    is_flag=True,
    help="Chat line by line in the terminal (scrollback, SSH, screen readers); reads the "
    "lines of standard input when it is a file or a pipe, and prints plain text when the "
    "output is.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="With --replay: write one result line per ask event here.",
)
@click.option(
    "--extract",
    type=click.Choice(["fact", "text"]),
    default="fact",
    show_default=True,
    help="With --replay: store the given facts, or extract them from the text.",
)
@click.option(
    "--track",
    is_flag=True,
    help="With --replay (headless): log the replay's memory figures as an MLflow run "
    "(see eval --track). Needs '.[track]'.",
)
@click.option(
    "--home",
    type=click.Path(file_okay=False, path_type=Path),
    help="Data home (default: $HELIX_HOME or the platform data dir).",
)
@layers_option()
@click.pass_context
def cli(
    ctx: click.Context,
    user: str | None,
    session_id: str | None,
    resume: bool,
    replay: Path | None,
    tui: bool,
    inline: bool,
    out: Path | None,
    extract: str,
    track: bool,
    home: Path | None,
    layers: str | None,
) -> None:
    """Helix: biomedical answers with verifiable knowledge-graph paths, evidence and memory."""
    ctx.ensure_object(dict)
    ctx.obj["home"] = home
    ctx.obj["user"] = user
    if ctx.invoked_subcommand is not None:
        return
    settings = settings_for(home, user, layers)
    if track and (replay is None or tui):
        raise click.UsageError("--track goes with a headless --replay (or with eval --track)")
    if inline:
        if replay is not None or tui:
            raise click.UsageError("--inline cannot be combined with --replay or --tui")
        ensure_stores(settings)
        from helix_tui.inline.run import run_inline

        sys.exit(run_inline(settings, session_id=session_id, resume=resume))
    if replay is not None and not tui:
        from helix_tui.replay_cli import run_headless_replay

        tracker = None
        if track:
            from helix_tui.cli_track import open_tracker

            tracker = open_tracker(settings)
        helix = open_engine(settings)
        try:
            sys.exit(run_headless_replay(helix, settings, replay, out, extract, tracker))
        finally:
            helix.close()
    ensure_stores(settings)
    from helix_tui.launch import launch

    launch(settings, session_id=session_id, resume=resume, replay=replay, extract=extract)  # type: ignore[arg-type]


@cli.command()
@click.argument("question", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the result object (bench contract).")
@click.option("--mode", type=MODES, help="Retrieval mode (default from settings: hybrid).")
@click.option("--choice", help="Node id chosen in reply to a clarifying question.")
@click.option(
    "--session",
    "session_id",
    help="Ask within this chat session of the user: a follow-up ('and its side effects?') "
    "reads the session's last question, and the turn is added to the session.",
)
@click.option(
    "--graph",
    "graph_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the answer's subgraph (paths and evidence triples) to this file, for "
    "Cytoscape or Gephi; the suffix names the format: .graphml, .gexf, .cyjs or .json "
    "(Cytoscape JSON).",
)
@layers_option()
@click.pass_context
def ask(
    ctx: click.Context,
    question: str | None,
    as_json: bool,
    mode: str | None,
    choice: str | None,
    session_id: str | None,
    graph_file: Path | None,
    layers: str | None,
) -> None:
    """Answer one QUESTION (use '-' to read it from standard input).

    A question that starts with '-' goes after '--', so it is not read as an option:

        helix-chat ask -- "-x: which drugs treat asthma?"
    """
    if question is None:
        raise click.UsageError("missing QUESTION (use '-' to read it from standard input)")
    if graph_file is not None:
        _check_graph_file(graph_file)
    if question == "-":
        raw = sys.stdin.buffer.read()
        question = raw.decode("utf-8", errors="replace")
    from sessions.store import SessionStore
    from wiring.turn import take_turn

    # one question, then the process ends: the cycle collector would walk the engine's
    # hundreds of thousands of objects while it loads, over and over, and free nothing
    gc.disable()
    settings = settings_for(ctx.obj["home"], ctx.obj["user"], layers)
    # the session's store first: one that cannot be used is said before the engine loads
    unsaved = None
    with SessionStore(settings, settings.user) if session_id else nullcontext() as store:
        helix = open_engine(settings, warm=False)
        try:
            if store is None or session_id is None:
                turn = take_turn(helix, None, question, mode=mode, choice=choice)  # type: ignore[arg-type]
            else:
                turn, unsaved = _ask_in_session(helix, store, session_id, question, mode, choice)
        finally:
            helix.close()
    result = turn.result
    assert result is not None  # with no memory to note in, the whole text is asked
    if as_json:
        click.echo(json.dumps(result.to_contract(), ensure_ascii=False))
    else:
        from helix_tui.render import render_result

        Console().print(render_result(result))
    if graph_file is not None:
        _write_graph(result, graph_file)
    if unsaved is not None:  # answered, but the session could not keep the turn
        raise click.ClickException(f"the answer was not saved in session {session_id}: {unsaved}")


def _check_graph_file(path: Path) -> None:
    """Refuse a ``--graph`` file whose format is unknown before the question is asked."""
    from helix_tui.export import ExportError
    from helix_tui.export_graph import graph_format

    try:
        graph_format(path)
    except ExportError as exc:
        raise click.BadParameter(str(exc), param_hint="'--graph'") from None


def _write_graph(result: Any, path: Path) -> None:
    """Write the answer's subgraph; said on stderr (stdout may be the --json line)."""
    from helix_tui.cli_engine import err
    from helix_tui.export import ExportError
    from helix_tui.export_graph import write_graph

    try:
        fmt, graph = write_graph(result, path)
    except (ExportError, OSError) as exc:
        raise click.ClickException(f"no graph written to {path}: {exc}") from None
    err.print(
        f"Wrote the answer's subgraph ({graph.number_of_nodes()} nodes, "
        f"{graph.number_of_edges()} edges) as {fmt.label} to {path}",
        highlight=False,
        soft_wrap=True,
    )


def _ask_in_session(
    helix: Any, store: Any, session_id: str, question: str, mode: Any, choice: str | None
) -> tuple[Any, str | None]:
    """One turn of a stored chat session: its last turns give the follow-up context, and the
    turn is added to it. Returns the turn, and why it could not be added (its store cannot
    be written: the disk is full), the answer being shown all the same."""
    from wiring.turn import context_from, take_turn

    context = context_from((t.question, t.result) for t in store.turns(session_id))
    turn = take_turn(
        helix, None, question, mode=mode, session=session_id, choice=choice, context=context
    )
    if turn.result is not None:
        try:
            store.add_turn(session_id, question, turn.result)
        except StoreFault as exc:
            return turn, str(exc)
    return turn, None


def main() -> None:
    cli(obj={})


if __name__ == "__main__":
    main()
