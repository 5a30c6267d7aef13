"""Helix as an MCP tool server: ask, knowledge-graph look-ups and walks, passage search and the
server user's own memory, over stdio or streamable HTTP on loopback.

``build_server(settings, user, engine_factory)`` builds the server; ``serve(...)`` runs it.
Never imports textual or helix_tui.
"""

from helix_mcp.server import build_server, serve

__all__ = ["build_server", "serve"]
