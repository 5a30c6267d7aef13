"""``python -m helix_mcp --user ID [--http --port N]``: the MCP server without the TUI package.

With ``--http`` and ``HELIX_DATABASE_URL`` it is the team server (``helix_mcp.team``): no
``--user``, each request's bearer token names its user.

``--engine-factory module:attr`` (or ``path/to/file.py:attr``) swaps the engine for a callable
``(Settings) -> engine``; it exists for tests and debugging and is not advertised in --help.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
from pathlib import Path
from typing import cast

from engine.config import Settings
from engine.util.text import user_id_problem
from helix_mcp.ports import EngineFactory, open_helix
from helix_mcp.server import serve


def load_factory(ref: str) -> EngineFactory:
    target, _, attr = ref.rpartition(":")
    if not target or not attr:
        raise SystemExit(f"--engine-factory wants module:attr or file.py:attr, got {ref!r}")
    if target.endswith(".py"):
        spec = importlib.util.spec_from_file_location(Path(target).stem, target)
        if spec is None or spec.loader is None:
            raise SystemExit(f"cannot load {target}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(target)
    return cast(EngineFactory, getattr(module, attr))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m helix_mcp", description=__doc__)
    parser.add_argument("--user", help="The user whose memory the tools act on.")
    parser.add_argument("--http", action="store_true", help="Serve streamable HTTP on loopback.")
    parser.add_argument("--port", type=int, default=8765, help="HTTP port (with --http).")
    parser.add_argument("--engine-factory", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    settings = Settings()
    user = args.user if args.user is not None else settings.user
    problem = user_id_problem(user)
    if problem:
        parser.error(problem)
    factory = load_factory(args.engine_factory) if args.engine_factory else open_helix
    if args.http and settings.database_url:
        if args.user is not None:
            parser.error("a team server takes each request's user from its bearer token")
        from helix_mcp.team import serve_team

        serve_team(settings, port=args.port, engine_factory=factory)
        return
    serve(settings, user, http=args.http, port=args.port, engine_factory=factory)


if __name__ == "__main__":
    main()
