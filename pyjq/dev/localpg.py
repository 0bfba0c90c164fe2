"""The one way jq starts a local PostgreSQL: `pyjq dev`, the tests and the benchmarks.

    with LocalPostgres(Path(".jq-dev")) as pg:      # `pyjq dev`: kept between runs
        dsn = pg.dsn                                # postgresql://postgres@127.0.0.1:PORT/jq

    with ThrowawayPostgres({"fsync": "off"}) as pg: # tests, benchmarks: removed afterwards
        pg.dsn("postgres")                          # host=127.0.0.1 port=PORT user=postgres dbname=postgres

Why one Python module, shipped in the wheel: `pyjq dev` needs it there, and the
tricky parts are the same for every caller (PostgreSQL refuses to run as root,
so as root initdb and pg_ctl run as the `postgres` OS user through runuser,
from a directory that user can enter; a free port that another process may grab
first; settings in an included file so that a plain `pg_ctl restart` keeps
them). The test harness (tests/harness/testserver.py, run by run-tests.sh and
conftest.py) and bench/server.py use these classes instead of their own copies.

It never installs packages and never creates OS users: that is machine setup,
done as root by tests/harness/ensure-deps.sh (`make deps`, which `make test` and
`make run` run first). When something is missing, the error says what to do.

The server binaries come from the machine: the newest Debian
/usr/lib/postgresql/<N>/bin, else initdb and pg_ctl on PATH. Every server
listens on 127.0.0.1 only, with its unix socket in its own folder, trusting
local connections as superuser `postgres`.
"""

from __future__ import annotations

import glob
import hashlib
import logging
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg

logger = logging.getLogger("pyjq.dev")

__all__ = ["LocalPostgres", "LocalPostgresError", "ThrowawayPostgres", "find_bindir"]

CONF_FILE = "jq_dev.conf"  # included from postgresql.conf; the name existing .jq-dev clusters use
SERVER_USER = "postgres"  # the OS user that runs the server when we are root
MARKER = ".jq-throwaway-server"  # ThrowawayPostgres removes only folders carrying it

INSTALL_HINT = "install it (Debian/Ubuntu: apt-get install postgresql, or `make deps` as root)"
USER_HINT = (
    "PostgreSQL refuses to run as root and there is no `postgres` OS user to run it: "
    "create one (useradd --system --user-group --no-create-home postgres, or `make deps`)"
)


class LocalPostgresError(RuntimeError):
    """The local server could not be set up; the message says what to do."""


def _is_root() -> bool:
    return os.geteuid() == 0


def _major(path: str) -> int:
    part = path.split("/")[4]  # /usr/lib/postgresql/<N>/bin/initdb
    return int(part) if part.isdigit() else 0


def find_bindir(preferred: str | None = None) -> Path:
    """The directory of initdb and pg_ctl: ``preferred`` when it has them, else the
    newest /usr/lib/postgresql/<N>/bin, else the one on PATH."""
    if preferred:
        if (Path(preferred) / "initdb").exists() and (Path(preferred) / "pg_ctl").exists():
            return Path(preferred)
        logger.warning("%s has no initdb/pg_ctl; ignoring it", preferred)
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_major)
    if found and (Path(found[-1]).parent / "pg_ctl").exists():
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        return Path(initdb).resolve().parent
    raise LocalPostgresError(f"no PostgreSQL server is installed: {INSTALL_HINT}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _port_free(port: int) -> bool:
    """Whether PostgreSQL could listen on 127.0.0.1:port. SO_REUSEADDR as PostgreSQL
    binds: connections of a just-stopped server linger in TIME_WAIT on its port,
    which a plain bind counts as taken (and the port would move on every restart)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _server_user() -> pwd.struct_passwd | None:
    """The OS user to run initdb and pg_ctl as: None (ourselves) unless we are root."""
    if not _is_root():
        return None
    try:
        return pwd.getpwnam(SERVER_USER)
    except KeyError:
        raise LocalPostgresError(USER_HINT) from None


class Cluster:
    """A data directory ``root/data`` with its socket folder ``root/sock`` and log
    ``root/server.log``, and the commands that act on it as the right OS user."""

    def __init__(self, root: Path, bindir: Path):
        self.root = root
        self.bindir = bindir
        self.data = root / "data"
        self.log_path = root / "server.log"
        self.owner = _server_user()

    def as_owner(self, cmd: list[str]) -> list[str]:
        """cmd run as the server's user."""
        if self.owner is None:
            return cmd
        # runuser rather than su: no password, no login shell, arguments passed as-is.
        return ["runuser", "-u", self.owner.pw_name, "--", *cmd]

    def run(self, cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess:
        """Run cmd as the server's user, from a directory that user can enter."""
        kwargs.setdefault("cwd", str(self.root))
        return subprocess.run(self.as_owner(cmd), **kwargs)

    def give_to_owner(self, *paths: Path) -> None:
        if self.owner is not None:
            for path in paths:
                os.chown(path, self.owner.pw_uid, self.owner.pw_gid)

    def initdb(self) -> None:
        logger.info("initdb %s (%s)", self.data, self.bindir)
        self.data.mkdir(parents=True, exist_ok=True)
        self.data.chmod(0o700)
        self.give_to_owner(self.root, self.data)
        out = self.run(
            [
                str(self.bindir / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C.UTF-8",
            ],
            capture_output=True,
            text=True,
        )
        if out.returncode != 0:
            raise LocalPostgresError(f"initdb failed:\n{out.stdout}{out.stderr}")
        # Settings live in a file included from postgresql.conf (not pg_ctl -o) so
        # that a plain `pg_ctl restart` brings the server back as it was.
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(f"include_if_exists '{CONF_FILE}'\n")

    def configured_port(self) -> int | None:
        conf = self.data / CONF_FILE
        if conf.exists():
            for line in conf.read_text().splitlines():
                if line.startswith("port = "):
                    return int(line.split("=")[1])
        return None

    def configure(self, port: int, settings: dict[str, str], writer: str) -> None:
        sock = self.root / "sock"
        sock.mkdir(exist_ok=True)
        lines = [
            f"# written by {writer}",
            "listen_addresses = '127.0.0.1'",
            f"port = {port}",
            f"unix_socket_directories = '{sock}'",
            *(f"{k} = {v}" for k, v in settings.items()),
        ]
        conf = self.data / CONF_FILE
        conf.write_text("\n".join(lines) + "\n")
        self.give_to_owner(conf, sock)

    def pg_ctl_command(self, *args: str) -> list[str]:
        """pg_ctl -D data ARGS. start/restart always log to server.log: without -l the
        server keeps the caller's stdout and stderr open, so a caller capturing them
        would wait forever."""
        cmd = [str(self.bindir / "pg_ctl"), "-D", str(self.data)]
        if args and args[0] in ("start", "restart"):
            cmd += ["-l", str(self.log_path)]
        return [*cmd, *args]

    def pg_ctl(self, *args: str, check: bool = True, quiet: bool = True) -> subprocess.CompletedProcess:
        out = subprocess.DEVNULL if quiet else None
        return self.run(self.pg_ctl_command(*args), check=check, stdout=out, stderr=out)

    def running(self) -> bool:
        return self.pg_ctl("status", check=False).returncode == 0

    def start(self) -> bool:
        """Start the server; False when it did not come up (see server.log)."""
        return self.pg_ctl("start", "-w", "-t", "60", check=False).returncode == 0

    def stop(self) -> None:
        """Stop fast, else immediately, else kill the postmaster."""
        if self.pg_ctl("stop", "-m", "fast", "-w", "-t", "60", check=False).returncode == 0:
            return
        self.pg_ctl("stop", "-m", "immediate", "-w", "-t", "30", check=False)
        pid_file = self.data / "postmaster.pid"
        try:
            pid = int(pid_file.read_text().splitlines()[0])
            os.kill(pid, signal.SIGKILL)
            time.sleep(1)
        except (OSError, ValueError, IndexError):
            pass

    def log_tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text()[-chars:]
        except OSError:
            return ""


class LocalPostgres:
    """`pyjq dev`'s cluster in ``folder``: created once, reused by later runs, started
    on entry and stopped on exit (Ctrl-C included) if this object started it.

    As root the folder is given to the postgres user; when that user cannot reach it
    (a checkout under /root, say) the cluster goes to /var/tmp/jq-dev-<hash of the
    folder> instead, noted in folder/cluster-location."""

    def __init__(self, folder: Path, *, dbname: str = "jq"):
        self.requested = Path(folder).resolve()
        self.dbname = dbname
        self.root = self.requested
        self.port: int | None = None
        self._cluster: Cluster | None = None
        self._started_here = False

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{self.dbname}"

    def __enter__(self) -> LocalPostgres:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> str:
        """Make sure the cluster exists and runs; create the database; return the dsn."""
        bindir = find_bindir()
        self.root = self._choose_root()
        cluster = self._cluster = Cluster(self.root, bindir)
        if not (cluster.data / "PG_VERSION").exists():
            cluster.initdb()
        self.port = self._choose_port(cluster)
        cluster.configure(self.port, {"max_connections": "100"}, "pyjq dev: local development server")
        if not cluster.running():
            logger.info("starting PostgreSQL on 127.0.0.1:%s (%s)", self.port, cluster.data)
            if not cluster.start():
                raise LocalPostgresError(f"PostgreSQL did not start; {cluster.log_path}:\n{cluster.log_tail()}")
            self._started_here = True
        self._create_database()
        return self.dsn

    def stop(self) -> None:
        """Stop the server if this object started it."""
        if self._started_here and self._cluster is not None:
            logger.info("stopping PostgreSQL (%s)", self._cluster.data)
            self._cluster.stop()
            self._started_here = False

    def _choose_root(self) -> Path:
        self.requested.mkdir(parents=True, exist_ok=True)
        owner = _server_user()
        if owner is None:
            return self.requested
        os.chown(self.requested, owner.pw_uid, owner.pw_gid)
        probe = subprocess.run(
            ["runuser", "-u", owner.pw_name, "--", "test", "-w", str(self.requested), "-a", "-x", str(self.requested)],
            capture_output=True,
        )
        if probe.returncode == 0:
            return self.requested
        digest = hashlib.sha1(str(self.requested).encode()).hexdigest()[:10]
        fallback = Path("/var/tmp") / f"jq-dev-{digest}"
        logger.info("the postgres user cannot reach %s; using %s", self.requested, fallback)
        fallback.mkdir(parents=True, exist_ok=True)
        (self.requested / "cluster-location").write_text(f"{fallback}\n")
        return fallback

    @staticmethod
    def _choose_port(cluster: Cluster) -> int:
        """Keep the port of an earlier run when it is still free (or ours); else pick one."""
        port = cluster.configured_port()
        if port is None or (not cluster.running() and not _port_free(port)):
            port = _free_port()
        return port

    def _create_database(self) -> None:
        with psycopg.connect(
            host="127.0.0.1", port=self.port, user="postgres", dbname="postgres", autocommit=True, connect_timeout=10
        ) as conn:
            exists = conn.execute("select 1 from pg_database where datname = %s", [self.dbname]).fetchone()
            if not exists:
                conn.execute(f'create database "{self.dbname}"')


class ThrowawayPostgres:
    """A fresh cluster on a free port for one run (tests, benchmarks), stopped and its
    folder removed on exit, however the block ends.

    ``root``: an empty folder to use (a caller that must own its cleanup from the
    first moment creates it); default a new one under /tmp (as root the postgres
    user must reach it; a repository under /root is not reachable) or $TMPDIR.
    Unix socket paths must stay short (about 100 bytes), another reason for /tmp."""

    def __init__(
        self,
        settings: dict[str, str] | None = None,
        *,
        root: Path | None = None,
        bindir: str | None = None,
        writer: str = "pyjq.dev.localpg",
    ):
        self.settings = dict(settings or {})
        self.given_root = root
        self.preferred_bindir = bindir
        self.writer = writer
        self.root: Path | None = None
        self.port: int | None = None
        self.cluster: Cluster | None = None

    @classmethod
    def attach(cls, root: Path, *, bindir: str | None = None) -> ThrowawayPostgres:
        """The server another process started in ``root``, e.g. to stop it from a script."""
        server = cls(root=root, bindir=bindir)
        server.root = root.resolve()
        server.cluster = Cluster(server.root, find_bindir(bindir))
        server.port = server.cluster.configured_port()
        return server

    def __enter__(self) -> ThrowawayPostgres:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def bindir(self) -> Path:
        assert self.cluster is not None, "not started"
        return self.cluster.bindir

    @property
    def log_path(self) -> Path:
        assert self.cluster is not None, "not started"
        return self.cluster.log_path

    def dsn(self, dbname: str = "postgres") -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={dbname}"

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def prepare(self) -> Cluster:
        """Make the (marked, empty) folder without starting anything, so that where the
        server will live is known early; start() does it when not done yet."""
        if self.cluster is None:
            bindir = find_bindir(self.preferred_bindir)
            _server_user()  # a missing postgres user fails before any folder is made
            self.root = self._make_root()
            (self.root / MARKER).touch()
            self.cluster = Cluster(self.root, bindir)
        return self.cluster

    def start(self) -> None:
        cluster = self.prepare()
        try:
            cluster.initdb()
            self._start_on_a_free_port(cluster)
        except BaseException:
            self.stop()
            raise

    def _make_root(self) -> Path:
        if self.given_root is None:
            base = "/tmp" if _is_root() else None
            return Path(tempfile.mkdtemp(prefix="jq-pg.", dir=base))
        root = self.given_root.resolve()
        root.mkdir(parents=True, exist_ok=True)
        if any(root.iterdir()):
            raise LocalPostgresError(f"{root} is not empty")
        return root

    def _start_on_a_free_port(self, cluster: Cluster) -> None:
        for attempt in range(5):
            self.port = _free_port()
            cluster.configure(self.port, self.settings, self.writer)
            logger.info("starting PostgreSQL on 127.0.0.1:%s", self.port)
            if cluster.start():
                return
            log = cluster.log_tail()
            # Lost the race for the port to another process? Pick another one.
            if attempt < 4 and ("could not bind" in log or "already in use" in log):
                logger.info("port %s was taken; retrying", self.port)
                continue
            raise LocalPostgresError(f"PostgreSQL did not start; {cluster.log_path}:\n{log}")

    def stop(self) -> None:
        """Stop the server and remove its folder (only a folder this class marked)."""
        root, cluster = self.root, self.cluster
        if root is None or not (root / MARKER).exists():
            return
        if cluster is not None and (cluster.data / "postmaster.pid").exists():
            logger.info("stopping PostgreSQL (%s)", root)
            cluster.stop()
        shutil.rmtree(root, ignore_errors=True)
        self.root = self.cluster = None
