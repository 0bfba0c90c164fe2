"""A throwaway PostgreSQL server for the benchmarks, with durable settings.

The server is pyjq.dev.localpg's ThrowawayPostgres, the one launcher the tests
and `pyjq dev` use too (as root it runs as the `postgres` OS user). The test
server turns fsync and synchronous_commit off for speed; a benchmark must not.
This one runs with PostgreSQL's default settings, except where it listens:
fsync, synchronous_commit and full_page_writes on, shared_buffers 128 MB,
autovacuum_naptime 1 min, max_connections 100.

    with BenchServer() as server:      # initdb + start on a free port
        server.dsn("mydb")             # "host=127.0.0.1 port=... user=postgres dbname=mydb"
        server.createdb("mydb")
    # stopped and its directory removed, however the block ends

`python bench/server.py` starts one and keeps it until Ctrl-C, for poking at.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from pathlib import Path

from pyjq.dev.localpg import LocalPostgresError, ThrowawayPostgres


class BenchServer(ThrowawayPostgres):
    def __init__(self, extra_conf: dict[str, str] | None = None, verbose: bool = True):
        super().__init__(
            extra_conf,
            bindir=os.environ.get("JQ_TEST_PGBIN"),
            writer="bench/server.py: where to listen; everything else is PostgreSQL's default",
        )
        if verbose:
            _say_what_the_launcher_does()

    def start(self) -> None:
        try:
            super().start()
        except LocalPostgresError as exc:
            raise SystemExit(f"bench: {exc}") from None

    @property
    def pgbin(self) -> Path:
        return self.bindir

    # -- use -------------------------------------------------------------------------

    def psql(self, dbname: str, *args: str, quiet: bool = True) -> str:
        cmd = [
            str(self.pgbin / "psql"),
            "-X",
            "-v",
            "ON_ERROR_STOP=1",
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            "postgres",
            "-d",
            dbname,
            *args,
        ]
        if quiet:
            cmd.insert(1, "-q")
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"psql {' '.join(args)} on {dbname} failed:\n{out.stderr[-3000:]}")
        return out.stdout

    def createdb(self, dbname: str) -> None:
        self.psql("postgres", "-c", f'create database "{dbname}"')


def _say_what_the_launcher_does() -> None:
    """The launcher's steps (initdb, start, stop) on stderr as `==> ...` lines; only its logger."""
    log = logging.getLogger("pyjq.dev")
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("==> %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)


if __name__ == "__main__":
    import signal

    # Ctrl-C or SIGTERM (also when started in the background): stop the server and remove it.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: sys.exit(0))
    with BenchServer() as s:
        print(f"export PGHOST=127.0.0.1 PGPORT={s.port} PGUSER=postgres   # Ctrl-C stops it", flush=True)
        while True:
            time.sleep(3600)
