"""``helix-chat mcp [--user ID] [--http --port N]``: serve Helix's tools over MCP."""

from __future__ import annotations

import click

from helix_tui.cli_trace import checked_settings, settings_from_context


@click.command("mcp")
@click.option("--user", default=None, help="User whose memory the tools act on (default: you).")
@click.option("--http", is_flag=True, help="Serve streamable HTTP on 127.0.0.1 instead of stdio.")
@click.option("--port", default=8765, show_default=True, help="Port for --http.")
def mcp(user: str | None, http: bool, port: int) -> None:
    """Run an MCP server (stdio by default) exposing ask, KG look-ups and walks, passage search
    and the user's memory to MCP clients such as IDE agents and desktop assistants."""
    from helix_mcp import serve

    settings = settings_from_context()
    if user is not None:
        settings = checked_settings(settings.model_copy(update={"user": user}))
    serve(settings, settings.user, http=http, port=port)
