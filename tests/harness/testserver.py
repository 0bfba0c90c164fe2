"""The tests' throwaway PostgreSQL: pyjq.dev.localpg.ThrowawayPostgres with the tests' settings.

    python tests/harness/testserver.py start DIR   initdb + start in DIR, PgBouncer in front; writes DIR/env.sh
    python tests/harness/testserver.py stop DIR    stop PgBouncer and that server, delete DIR
    python tests/harness/testserver.py ctl DIR ARGS...   pg_ctl ARGS on it, as the server's OS user

run-tests.sh (`make test`) runs start/stop around pg_prove and pytest; conftest.py
starts one itself when pytest runs without PGHOST/PGPORT.
Tests restart the server with ``$JQ_TEST_PGCTL restart -m fast`` (the ``ctl`` command).

The data is throwaway, so durability is traded for speed (fsync off).

In front of the server runs a PgBouncer in transaction pooling mode
(tests/harness/bouncer.py), on its own port: JQ_TEST_PGBOUNCER_PORT.
"""

from __future__ import annotations

import logging
import os
import shlex
import sys
from pathlib import Path

from pyjq.dev.localpg import MARKER, LocalPostgresError, ThrowawayPostgres

try:  # run as a script (run-tests.sh) or imported as harness.testserver (conftest.py)
    from bouncer import Bouncer
except ImportError:
    from harness.bouncer import Bouncer

SETTINGS = {
    "max_connections": "200",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
}


def planned(root: Path | None = None) -> ThrowawayPostgres:
    """The tests' server, not started yet (see ThrowawayPostgres.prepare)."""
    return ThrowawayPostgres(
        SETTINGS, root=root, bindir=os.environ.get("JQ_TEST_PGBIN"), writer="tests/harness/testserver.py"
    )


def start(server: ThrowawayPostgres) -> None:
    """Start the server, then PgBouncer in front of it (both stopped again if either fails)."""
    server.start()
    assert server.root is not None
    try:
        Bouncer(server.root, server_port=server.port).start()
    except BaseException:
        stop(server)
        raise


def stop(server: ThrowawayPostgres) -> None:
    """Stop PgBouncer and the server, and remove the server's folder."""
    if server.root is not None:
        Bouncer.attach(server.root).stop()
    server.stop()


def environment(server: ThrowawayPostgres) -> dict[str, str]:
    """What a test run needs: where the server's files are and how to restart it
    (JQ_TEST_*, known once it is prepared), and how to reach it (libpq's PGHOST,
    PGPORT, PGUSER, once it has started)."""
    cluster = server.prepare()
    ctl = [sys.executable, str(Path(__file__).resolve()), "ctl", str(cluster.root)]
    env = {
        "JQ_TEST_PGDATA": str(cluster.data),
        "JQ_TEST_PGBIN": str(cluster.bindir),
        "JQ_TEST_PGLOG": str(cluster.log_path),
        "JQ_TEST_PGCTL": shlex.join(ctl),  # a command prefix: $JQ_TEST_PGCTL restart -m fast
    }
    if server.port is not None:
        env.update(PGHOST="127.0.0.1", PGPORT=str(server.port), PGUSER="postgres")
        bouncer = Bouncer.attach(cluster.root)
        if bouncer.port is not None:
            env["JQ_TEST_PGBOUNCER_PORT"] = str(bouncer.port)
            env["JQ_TEST_PGBOUNCER_LOG"] = str(bouncer.log_path)
    return env


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO, format="==> %(message)s", stream=sys.stderr)
    if len(argv) < 2 or argv[0] not in ("start", "stop", "ctl"):
        print(__doc__, file=sys.stderr)
        return 2
    command, root = argv[0], Path(argv[1]).resolve()
    try:
        if command == "start":
            server = planned(root)
            start(server)
            env = environment(server)
            (root / "env.sh").write_text("".join(f"export {k}={shlex.quote(v)}\n" for k, v in env.items()))
        elif command == "stop":
            if (root / MARKER).exists():
                stop(ThrowawayPostgres.attach(root, bindir=os.environ.get("JQ_TEST_PGBIN")))
        else:
            cluster = ThrowawayPostgres.attach(root, bindir=os.environ.get("JQ_TEST_PGBIN")).cluster
            assert cluster is not None
            # exec, not a child: pg_ctl's exit is the caller's, with nothing after it
            # (the crash tests time the restart and look for connections made after it).
            os.chdir(cluster.root)
            command = cluster.as_owner(cluster.pg_ctl_command(*argv[2:]))
            os.execvp(command[0], command)
    except LocalPostgresError as exc:
        print(f"jq harness: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
