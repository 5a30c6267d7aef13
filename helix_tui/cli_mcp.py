"""``helix-chat mcp [--user ID] [--http --port N]``: serve Helix's tools over MCP."""

from __future__ import annotations

import click

from helix_tui.cli_trace import checked_settings, settings_from_context


@click.command("mcp")
@click.option("--user", default=None, help="User whose memory the tools act on (default: you).")
@click.option("--http", is_flag=True, help="Serve streamable HTTP on 127.0.0.1 instead of stdio.")
@click.option("--port", default=8765, show_default=True, help="Port for --http.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address --http listens on.")
def mcp(user: str | None, http: bool, port: int, host: str) -> None:
    """Run an MCP server (stdio by default) exposing ask, KG look-ups and walks, passage search
    and the user's memory to MCP clients such as IDE agents and desktop assistants.

    With --http and HELIX_DATABASE_URL set, one server serves many users: each request's
    bearer token (from `helix-chat users add NAME`) names its user; --user is refused."""
    settings = settings_from_context()
    if http and settings.database_url:
        if user is not None:
            raise click.UsageError(
                "a team server (--http with HELIX_DATABASE_URL) takes the user from each "
                "request's bearer token, not from --user"
            )
        from helix_mcp.team import serve_team

        serve_team(settings, host=host, port=port)
        return
    from helix_mcp import serve

    if user is not None:
        settings = checked_settings(settings.model_copy(update={"user": user}))
    serve(settings, settings.user, http=http, host=host, port=port)
