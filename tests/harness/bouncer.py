"""The tests' PgBouncer: transaction pooling in front of the throwaway server.

    bouncer = Bouncer(root, server_port=5433)   # its files in root/pgbouncer/
    bouncer.start()                             # a free port on 127.0.0.1, as the server's OS user
    bouncer.port                                # exported to the tests as JQ_TEST_PGBOUNCER_PORT
    Bouncer.attach(root).stop()                 # from another process: stop it, remove its files

``pool_mode = transaction``: a server connection belongs to a client for one
transaction only, the setup that breaks server-side prepared statements,
session settings and LISTEN. Authentication is ``trust`` (the test server
trusts every local connection too); ``postgres`` is the one user. Every
database name passes through to the same name on the test server.

As root PgBouncer runs as the server's OS user (it refuses to run as root), as
an ordinary user as that user. The binary comes from the machine (Debian's
``pgbouncer`` package, installed by tests/harness/ensure-deps.sh), or
$JQ_TEST_PGBOUNCER_BIN.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from pyjq.dev.localpg import LocalPostgresError, _free_port, _server_user

__all__ = ["Bouncer", "find_pgbouncer"]

FOLDER = "pgbouncer"
INSTALL_HINT = "install it (Debian/Ubuntu: apt-get install pgbouncer, or `make deps` as root)"


def find_pgbouncer() -> Path:
    """The pgbouncer binary: $JQ_TEST_PGBOUNCER_BIN, /usr/sbin/pgbouncer, or the one on PATH."""
    for candidate in (os.environ.get("JQ_TEST_PGBOUNCER_BIN"), "/usr/sbin/pgbouncer", shutil.which("pgbouncer")):
        if candidate and os.access(candidate, os.X_OK):
            return Path(candidate)
    raise LocalPostgresError(f"pgbouncer is not installed: {INSTALL_HINT}")


class Bouncer:
    """One PgBouncer whose config, log and pid file live in ``root/pgbouncer``."""

    def __init__(self, root: Path, *, server_port: int | None = None, pool_mode: str = "transaction"):
        self.dir = Path(root) / FOLDER
        self.server_port = server_port
        self.pool_mode = pool_mode
        self.port: int | None = None
        self.owner = _server_user()

    @classmethod
    def attach(cls, root: Path) -> Bouncer:
        bouncer = cls(root)
        port_file = bouncer.dir / "port"
        if port_file.exists():
            bouncer.port = int(port_file.read_text())
        return bouncer

    @property
    def log_path(self) -> Path:
        return self.dir / "pgbouncer.log"

    def start(self) -> None:
        """Write the config and start PgBouncer on a free port; raises LocalPostgresError if it does not come up."""
        binary = find_pgbouncer()
        self.dir.mkdir(parents=True, exist_ok=True)
        for attempt in range(5):
            self.port = _free_port()
            self._write_config()
            cmd = [str(binary), "-d", str(self.dir / "pgbouncer.ini")]
            if self.owner is not None:
                cmd = ["runuser", "-u", self.owner.pw_name, "--", *cmd]
            out = subprocess.run(cmd, cwd=self.dir, capture_output=True, text=True)
            if out.returncode == 0 and self._accepting(timeout=10):
                (self.dir / "port").write_text(str(self.port))
                return
            log = self._log_tail()
            self.stop(remove=False)
            if attempt < 4 and "Address already in use" in log:
                continue  # lost the race for the port: pick another
            raise LocalPostgresError(f"pgbouncer did not start ({out.stderr.strip()}); {self.log_path}:\n{log}")

    def stop(self, *, remove: bool = True) -> None:
        """Stop PgBouncer (SIGTERM: immediate shutdown) and, by default, remove its folder."""
        pid = self._pid()
        if pid is not None:
            try:
                os.kill(pid, signal.SIGTERM)
                for _ in range(100):
                    os.kill(pid, 0)
                    time.sleep(0.05)
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if remove:
            shutil.rmtree(self.dir, ignore_errors=True)

    def _write_config(self) -> None:
        ini = f"""\
;; written by tests/harness/bouncer.py
[databases]
* = host=127.0.0.1 port={self.server_port}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {self.port}
unix_socket_dir =
auth_type = trust
auth_file = {self.dir / "userlist.txt"}
admin_users = postgres
pool_mode = {self.pool_mode}
max_client_conn = 1000
default_pool_size = 40
max_db_connections = 80
server_login_retry = 0
ignore_startup_parameters = extra_float_digits
logfile = {self.log_path}
pidfile = {self.dir / "pgbouncer.pid"}
"""
        (self.dir / "pgbouncer.ini").write_text(ini)
        (self.dir / "userlist.txt").write_text('"postgres" ""\n')
        if self.owner is not None:
            for path in (self.dir, *self.dir.iterdir()):
                os.chown(path, self.owner.pw_uid, self.owner.pw_gid)

    def _accepting(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port or 0), timeout=1):
                    return True
            except OSError:
                time.sleep(0.05)
        return False

    def _pid(self) -> int | None:
        try:
            return int((self.dir / "pgbouncer.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def _log_tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text()[-chars:]
        except OSError:
            return ""
