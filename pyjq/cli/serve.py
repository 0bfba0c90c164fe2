"""``pyjq serve``: the HTTP API under uvicorn (needs the ``server`` extra)."""

from __future__ import annotations

import click

from .common import CLIError, dsn_option, parse_conninfo, resolve_dsn

__all__ = ["serve"]


@click.command(short_help="Serve the HTTP API (needs pgjq[server]).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0 for all).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
@dsn_option
@click.option(
    "--max-body",
    type=click.IntRange(min=1),
    default=1024 * 1024,
    show_default=True,
    metavar="BYTES",
    help="Largest request body; a larger one gets 413.",
)
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"], case_sensitive=False),
    default="info",
    show_default=True,
    help="Logging level (log lines go to stderr).",
)
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, dsn: str | None, max_body: int, log_level: str) -> None:
    """Serve the jq HTTP API with uvicorn until SIGTERM or SIGINT.

    Bearer tokens come from JQ_API_TOKENS (comma-separated token:scope, scope
    producer or admin) or from the file named by JQ_API_TOKENS_FILE (the same
    entries, by commas or lines). Without any token it refuses to start.

    \b
    Example:
        JQ_API_TOKENS='s3cret-producer:producer,s3cret-admin:admin' \\
            pyjq serve --host 0.0.0.0 --port 8000 --dsn "$DATABASE_URL"
    """
    conninfo = resolve_dsn(ctx, dsn)
    parse_conninfo(conninfo)  # a malformed one is a usage error before anything starts
    try:
        import uvicorn

        from ..http import TokenConfigError, create_app, load_tokens
    except ModuleNotFoundError as exc:
        raise CLIError(f"pyjq serve needs {exc.name}: pip install 'pgjq[server]'", exit_code=2) from exc
    try:
        tokens = load_tokens()
    except TokenConfigError as exc:
        raise CLIError(str(exc), exit_code=2) from exc
    if not tokens:
        raise CLIError(
            "no API tokens: set JQ_API_TOKENS (token:scope,...) or JQ_API_TOKENS_FILE",
            hint="scope is producer (enqueue, status, cancel) or admin (everything)",
            exit_code=2,
        )
    app = create_app(conninfo, tokens=tokens, max_body_bytes=max_body)
    uvicorn.run(app, host=host, port=port, log_level=log_level.lower(), server_header=False)
