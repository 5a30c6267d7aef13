"""``helix-chat history search TEXT``: search every past session of the user, headless."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.table import Table

from helix_tui.cli_engine import settings_for


@click.group()
def history() -> None:
    """Search your past sessions (``--user`` picks whose)."""


@history.command("search")
@click.argument("text")
@click.option("--json", "as_json", is_flag=True, help="Print the hits as a JSON list.")
@click.option("--limit", type=click.IntRange(1, 500), default=20, show_default=True)
@click.option(
    "--meaning",
    is_flag=True,
    help="Also match by meaning with the embedding model (loads the engine: slower).",
)
@click.pass_context
def search(ctx: click.Context, text: str, as_json: bool, limit: int, meaning: bool) -> None:
    """Turns of your sessions whose question or answer matches TEXT, best first."""
    from sessions.history import search_history
    from sessions.store import SESSIONS_FILE, HistoryUnavailable, SessionStore

    settings = settings_for(ctx.obj["home"], ctx.obj["user"])
    if not text.strip():
        raise click.UsageError("TEXT is empty")
    if not (settings.user_dir(settings.user) / SESSIONS_FILE).exists():
        hits = []
    else:
        engine = None
        if meaning:
            from helix_tui.cli_engine import open_engine

            engine = open_engine(settings)
        try:
            with SessionStore(settings, settings.user) as store:
                embed = engine.embed() if engine is not None else None
                hits = search_history(store, text, embed=embed, limit=limit)
        except HistoryUnavailable as exc:
            raise click.ClickException(str(exc)) from exc
        finally:
            if engine is not None:
                engine.close()
    if as_json:
        click.echo(json.dumps([h.to_dict() for h in hits], ensure_ascii=False, indent=2))
        return
    if not hits:
        click.echo(f"Nothing in {settings.user}'s sessions matches {text!r}.")
        return
    table = Table("when", "session", "#", "question", "match", "by", title=f"History: {text}")
    for h in hits:
        t = h.hit
        table.add_row(
            f"{t.created_at:%Y-%m-%d %H:%M}",
            t.session_title,
            str(t.position),
            t.question,
            t.snippet[:80],
            h.how,
        )
    Console().print(table)
    ids = ", ".join(sorted({h.hit.session_id for h in hits}))
    click.echo(f"Open one with: helix-chat --session ID  (ids: {ids})")
