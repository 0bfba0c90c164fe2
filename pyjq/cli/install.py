"""``pyjq install`` and ``pyjq version``: the jq schema in the database."""

from __future__ import annotations

import click
import psycopg

from .. import __version__, client
from ..errors import NotInstalled
from ..install import install as _install
from .common import connect, dsn_option, echo_json, json_option

__all__ = ["install", "version"]


@click.command(short_help="Install or upgrade jq in the database.")
@dsn_option
@click.pass_context
def install(ctx: click.Context, dsn: str | None) -> None:
    """Install jq into the database, or upgrade it in place (safe to re-run).

    Applies sql/install.sql in one transaction and prints the installed
    schema version.
    """
    with connect(ctx, dsn) as conn:
        before = _installed_version(conn)
        after = _install(conn)
    if before is None:
        click.echo(f"jq {after} installed")
    elif before != after:
        click.echo(f"jq upgraded from {before} to {after}")
    else:
        click.echo(f"jq {after} installed (already up to date)")


def _installed_version(conn: psycopg.Connection) -> str | None:
    """The jq release installed in the database, or None when jq is not there yet."""
    try:
        return client.version(conn)
    except NotInstalled:  # no schema jq, or no jq_version in it
        return None


@click.command(short_help="Print the installed jq schema and pyjq versions.")
@dsn_option
@json_option
@click.pass_context
def version(ctx: click.Context, dsn: str | None, as_json: bool) -> None:
    """Print the jq schema version installed in the database and the pyjq package version."""
    with connect(ctx, dsn) as conn:
        schema = client.version(conn)
    if as_json:
        echo_json({"schema": schema, "pyjq": __version__})
    else:
        click.echo(f"jq schema {schema}")
        click.echo(f"pyjq {__version__}")
