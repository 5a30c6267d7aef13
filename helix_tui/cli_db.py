"""``helix-chat db migrate|status|copy`` and ``helix-chat users add|list``: the stores of a
team server (PostgreSQL, ``HELIX_DATABASE_URL`` or ``--url``) and of the files."""

from __future__ import annotations

from pathlib import Path

import click

from helix_tui.cli_trace import settings_from_context

URL_HELP = "PostgreSQL URL of the schema owner (default: $HELIX_DATABASE_URL)."


def _url(url: str | None) -> str | None:
    return url or settings_from_context().database_url


def _file_stores() -> list[tuple[str, object]]:
    from memory.store.manage import MEMORY_FILES
    from sessions.store import MIGRATIONS, SESSIONS_FILE

    return [*MEMORY_FILES, (SESSIONS_FILE, MIGRATIONS)]


def _user_dirs() -> list[Path]:
    users = settings_from_context().users_dir
    return sorted(p for p in users.iterdir() if p.is_dir()) if users.is_dir() else []


@click.group("db")
def db() -> None:
    """Migrate and inspect where per-user state is kept (files, or PostgreSQL)."""


@db.command("migrate")
@click.option("--url", help=URL_HELP)
@click.option(
    "--app-role",
    help="Grant this (non-owner) role what the servers need; row-level security binds it.",
)
def migrate_cmd(url: str | None, app_role: str | None) -> None:
    """Apply pending named migrations: the database's (with a URL), else every user's files."""
    from memory.store.pg import DatabaseError

    url = _url(url)
    if url:
        from memory.store.manage import migrate_database

        try:
            ran = migrate_database(url, app_role)
        except (DatabaseError, ValueError) as exc:
            raise click.ClickException(str(exc)) from exc
        click.echo(f"postgres: applied {', '.join(ran) or 'nothing (up to date)'}")
        return
    from memory.store.manage import migrate_file

    for user_dir in _user_dirs():
        for name, migrations in _file_stores():
            ran = migrate_file(user_dir / name, migrations)  # type: ignore[arg-type]
            if ran:
                click.echo(f"{user_dir.name}/{name}: applied {', '.join(ran)}")
    click.echo("files: up to date")


@db.command("status")
@click.option("--url", help=URL_HELP)
def status_cmd(url: str | None) -> None:
    """Applied and pending migrations of the database (with a URL), else of each user's files."""
    from memory.store.pg import DatabaseError

    url = _url(url)
    if url:
        from memory.store.manage import database_status

        try:
            status, users = database_status(url)
        except DatabaseError as exc:
            raise click.ClickException(str(exc)) from exc
        click.echo(f"postgres: applied {', '.join(status.applied) or '-'}")
        click.echo(f"postgres: pending {', '.join(status.pending) or '-'}; {users} user(s)")
        return
    from memory.store.manage import file_status

    dirs = _user_dirs()
    for user_dir in dirs:
        for name, migrations in _file_stores():
            path = user_dir / name
            if path.exists():
                s = file_status(path, migrations)  # type: ignore[arg-type]
                click.echo(
                    f"{user_dir.name}/{name}: {len(s.applied)} applied, "
                    f"pending {', '.join(s.pending) or '-'}"
                )
    click.echo(f"files: {len(dirs)} user(s) under {settings_from_context().users_dir}")


@db.command("copy")
@click.option("--to", "to_url", help="Copy from the files into this PostgreSQL database.")
@click.option("--from", "from_url", help="Copy from this PostgreSQL database into the files.")
@click.option("--user", "who", help="Only this user (default: every user of the source).")
def copy_cmd(to_url: str | None, from_url: str | None, who: str | None) -> None:
    """Copy users' memory, sessions and cache between the files and PostgreSQL, verified by
    row counts and checksums per table (a target already holding the user is refused)."""
    from memory.store.copy import copy_user
    from memory.store.pg import DatabaseError, connect

    if bool(to_url) == bool(from_url):
        raise click.UsageError("give exactly one of --to URL or --from URL")
    url = to_url or from_url
    assert url is not None
    settings = settings_from_context()
    migrations = {name.split(".")[0]: m for name, m in _file_stores()}
    if who is not None:
        dirs = [settings.user_dir(who)]
    elif to_url:
        dirs = _user_dirs()
    else:
        with connect(url) as conn:
            keys = [str(r[0]) for r in conn.execute("SELECT user_id FROM helix.users")]
        dirs = [settings.users_dir / key for key in keys]
    for user_dir in dirs:
        try:
            done = copy_user(user_dir, url, migrations, to_pg=bool(to_url))  # type: ignore[arg-type]
        except (DatabaseError, ValueError) as exc:
            raise click.ClickException(f"{user_dir.name}: {exc}") from exc
        rows = sum(done.counts.values())
        click.echo(f"{done.key}: {rows} rows in {len(done.counts)} tables copied, verified")
        for table, n in done.counts.items():
            click.echo(f"  {table}: {n} rows, sha256 {done.checksums[table][:16]}")


@click.group("users")
def users() -> None:
    """Users of a team server and their bearer tokens (PostgreSQL)."""


@users.command("add")
@click.argument("name")
@click.option("--url", help=URL_HELP)
def users_add(name: str, url: str | None) -> None:
    """Register NAME (if new) and print a new bearer token for it, once: only its hash is
    kept, so a lost token is replaced by running this again."""
    from memory.store.pg import DatabaseError, connect
    from memory.store.pg_admin import add_user

    url = _url(url)
    if not url:
        raise click.UsageError("users live in PostgreSQL: set HELIX_DATABASE_URL or --url")
    try:
        with connect(url) as conn:
            token = add_user(conn, name)
    except (DatabaseError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(token)


@users.command("remove")
@click.argument("name")
@click.option("--url", help=URL_HELP)
def users_remove(name: str, url: str | None) -> None:
    """Remove NAME: revoke their tokens and delete every row of theirs (memory, turns, cache,
    sessions) in one transaction, then their files on this host (traces)."""
    import shutil

    from memory.store.pg import DatabaseError, PgBackend
    from memory.store.pg_admin import remove_user

    url = _url(url)
    if not url:
        raise click.UsageError("users live in PostgreSQL: set HELIX_DATABASE_URL or --url")
    try:
        backend = PgBackend(url, pool_size=1)
    except DatabaseError as exc:
        raise click.ClickException(str(exc)) from exc
    try:
        rows = remove_user(backend, name)
    finally:
        backend.close()
    if rows is None:
        raise click.ClickException(f"no user named {name!r} is registered (see `users list`)")
    here = settings_from_context().user_dir(name)
    if here.exists():
        shutil.rmtree(here)
    click.echo(f"removed {name}: tokens revoked, {rows} row(s) deleted, files on this host gone")


@users.command("list")
@click.option("--url", help=URL_HELP)
def users_list(url: str | None) -> None:
    """Registered users and how many tokens each has."""
    from memory.store.pg import connect
    from memory.store.pg_admin import list_users

    url = _url(url)
    if not url:
        raise click.UsageError("users live in PostgreSQL: set HELIX_DATABASE_URL or --url")
    with connect(url) as conn:
        for name, tokens in list_users(conn):
            click.echo(f"{name}\t{tokens} token(s)")
