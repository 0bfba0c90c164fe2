"""A local PostgreSQL cluster for development: `pyjq dev` and `make run`.

    with LocalPostgres(Path(".jq-dev")) as pg:
        dsn = pg.dsn            # postgresql://postgres@127.0.0.1:PORT/jq

The cluster lives in a project-local folder and survives between runs; it is
started on entry and stopped on exit (Ctrl-C included). The server binaries
come from the machine (Debian keeps them in /usr/lib/postgresql/<N>/bin);
when they are missing and we are root they are installed from the
distribution's packages, otherwise the error says what to install.

PostgreSQL refuses to run as root: as root, the folder is given to the
`postgres` OS user (created if missing) and initdb/pg_ctl run through runuser.
When that user cannot reach the project folder (a checkout under /root, say),
the cluster goes to /var/tmp/jq-dev-<hash of the folder> instead.
"""

from __future__ import annotations

import glob
import hashlib
import logging
import os
import pwd
import shutil
import socket
import subprocess
from pathlib import Path

logger = logging.getLogger("pyjq.dev")

__all__ = ["LocalPostgres", "LocalPostgresError"]


class LocalPostgresError(RuntimeError):
    """The local server could not be set up; the message says what to do."""


def _is_root() -> bool:
    return os.geteuid() == 0


def _find_bindir() -> Path | None:
    """The newest /usr/lib/postgresql/<N>/bin with initdb and pg_ctl, else one on PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        return Path(initdb).resolve().parent
    return None


def _apt_install(*packages: str) -> None:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    cmd = ["apt-get", "install", "-y", "-q", *packages]
    if subprocess.run(cmd, env=env).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], env=env, check=False)
        subprocess.run(cmd, env=env, check=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalPostgres:
    """Start (creating if needed) and stop a local cluster in ``folder``."""

    def __init__(self, folder: Path, *, dbname: str = "jq"):
        self.requested = Path(folder).resolve()
        self.dbname = dbname
        self.root = self.requested
        self.bindir: Path | None = None
        self.port: int | None = None
        self._started_here = False

    # -- public -------------------------------------------------------------------

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{self.dbname}"

    def __enter__(self) -> LocalPostgres:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> str:
        """Make sure the cluster exists and runs; create the database; return the dsn."""
        self.bindir = self._ensure_binaries()
        self.root = self._choose_root()
        data = self.root / "data"
        if not (data / "PG_VERSION").exists():
            self._initdb(data)
        self.port = self._configure_port(data)
        if not self._running(data):
            logger.info("starting PostgreSQL on 127.0.0.1:%s (%s)", self.port, data)
            self._pg_ctl(data, "start", "-w", "-t", "60", "-l", str(self.root / "server.log"))
            self._started_here = True
        self._create_database()
        return self.dsn

    def stop(self) -> None:
        """Stop the server if this object started it."""
        if not self._started_here or self.bindir is None:
            return
        data = self.root / "data"
        logger.info("stopping PostgreSQL (%s)", data)
        try:
            self._pg_ctl(data, "stop", "-m", "fast", "-w", "-t", "60")
        except subprocess.CalledProcessError:
            self._pg_ctl(data, "stop", "-m", "immediate", "-w", "-t", "30", check=False)
        self._started_here = False

    # -- steps ----------------------------------------------------------------------

    def _ensure_binaries(self) -> Path:
        bindir = _find_bindir()
        if bindir is not None:
            return bindir
        if not _is_root():
            raise LocalPostgresError(
                "no PostgreSQL server is installed: install it (Debian/Ubuntu: "
                "sudo apt-get install postgresql) or set DATABASE_URL to an existing database")
        logger.info("installing PostgreSQL from the distribution's packages")
        _apt_install("postgresql")
        bindir = _find_bindir()
        if bindir is None:
            raise LocalPostgresError("apt-get installed postgresql but no initdb/pg_ctl was found")
        return bindir

    def _choose_root(self) -> Path:
        self.requested.mkdir(parents=True, exist_ok=True)
        if not _is_root():
            return self.requested
        self._ensure_postgres_user()
        if self._postgres_can_use(self.requested):
            return self.requested
        digest = hashlib.sha1(str(self.requested).encode()).hexdigest()[:10]
        fallback = Path("/var/tmp") / f"jq-dev-{digest}"
        logger.info("the postgres user cannot reach %s; using %s", self.requested, fallback)
        fallback.mkdir(parents=True, exist_ok=True)
        (self.requested / "cluster-location").write_text(f"{fallback}\n")
        return fallback

    def _postgres_can_use(self, folder: Path) -> bool:
        shutil.chown(folder, "postgres", "postgres")
        probe = subprocess.run(["runuser", "-u", "postgres", "--", "test", "-w", str(folder), "-a", "-x", str(folder)],
                               capture_output=True)
        return probe.returncode == 0

    @staticmethod
    def _ensure_postgres_user() -> None:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            logger.info("creating system user postgres")
            subprocess.run(["useradd", "--system", "--user-group", "--no-create-home", "postgres"], check=True)

    def _initdb(self, data: Path) -> None:
        logger.info("initdb %s", data)
        data.mkdir(parents=True, exist_ok=True)
        data.chmod(0o700)
        if _is_root():
            for path in (self.root, data):
                shutil.chown(path, "postgres", "postgres")
        self._run([str(self.bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                   "--encoding=UTF8", "--locale=C.UTF-8"], capture_output=True, check=True)
        with open(data / "postgresql.conf", "a") as conf:
            conf.write("include_if_exists 'jq_dev.conf'\n")

    def _configure_port(self, data: Path) -> int:
        """Keep the port of an earlier run when it is still free (or ours); else pick one."""
        conf = data / "jq_dev.conf"
        port = None
        if conf.exists():
            for line in conf.read_text().splitlines():
                if line.startswith("port = "):
                    port = int(line.split("=")[1])
        if port is None or (not self._running(data) and not self._port_free(port)):
            port = _free_port()
        (self.root / "sock").mkdir(exist_ok=True)
        conf.write_text(
            "# written by pyjq dev: local development server\n"
            "listen_addresses = '127.0.0.1'\n"
            f"port = {port}\n"
            f"unix_socket_directories = '{self.root / 'sock'}'\n"
            "max_connections = 100\n")
        if _is_root():
            for path in (conf, self.root / "sock"):
                shutil.chown(path, "postgres", "postgres")
        return port

    @staticmethod
    def _port_free(port: int) -> bool:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                return False
        return True

    def _running(self, data: Path) -> bool:
        return self._pg_ctl(data, "status", check=False, quiet=True).returncode == 0

    def _create_database(self) -> None:
        import psycopg  # noqa: PLC0415 -- the core dependency, imported when needed

        with psycopg.connect(host="127.0.0.1", port=self.port, user="postgres", dbname="postgres",
                             autocommit=True, connect_timeout=10) as conn:
            exists = conn.execute("select 1 from pg_database where datname = %s", [self.dbname]).fetchone()
            if not exists:
                conn.execute(f'create database "{self.dbname}"')

    # -- running commands as the right user -------------------------------------------

    def _pg_ctl(self, data: Path, *args: str, check: bool = True, quiet: bool = False):
        return self._run([str(self.bindir / "pg_ctl"), "-D", str(data), *args],
                         check=check, capture_output=quiet or args[0] != "start",
                         stdout=subprocess.DEVNULL if args[0] == "start" else None)

    def _run(self, cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
        if _is_root():
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        # A cwd the postgres user can enter.
        kwargs.setdefault("cwd", str(self.root))
        if kwargs.get("stdout") is not None and kwargs.get("capture_output"):
            kwargs.pop("capture_output")
        return subprocess.run(cmd, **kwargs)
