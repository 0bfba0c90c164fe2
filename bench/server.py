"""A throwaway PostgreSQL server for the benchmarks, with durable settings.

The test harness's server (tests/harness/pgserver.sh) turns fsync and
synchronous_commit off for speed; a benchmark must not. This one runs with
PostgreSQL's default settings, except where it listens: fsync,
synchronous_commit and full_page_writes on, shared_buffers 128 MB,
autovacuum_naptime 1 min, max_connections 100.

    with BenchServer() as server:      # initdb + start on a free port
        server.dsn("mydb")             # "host=127.0.0.1 port=... user=postgres dbname=mydb"
        server.createdb("mydb")
    # stopped and its directory removed, however the block ends

As root (CI, these machines) PostgreSQL must run as another OS user: the data
directory is given to `postgres` (created if missing) and initdb/pg_ctl run
through tests/harness/pgctl, the harness's own pg_ctl wrapper (runuser).

`python bench/server.py` starts one and keeps it until Ctrl-C, for poking at.
"""

from __future__ import annotations

import glob
import os
import pwd
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PGCTL = REPO / "tests" / "harness" / "pgctl"
MARKER = ".jq-bench-server"


def find_pgbin() -> Path:
    """The newest installed server's bin dir (as tests/harness/common.sh finds it)."""
    given = os.environ.get("JQ_TEST_PGBIN")
    if given and (Path(given) / "pg_ctl").exists() and (Path(given) / "initdb").exists():
        return Path(given)
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"),
                   key=lambda p: int(re.search(r"/postgresql/(\d+)/", p).group(1)))
    if not found:
        raise SystemExit("bench: no PostgreSQL server installed (run: make deps)")
    return Path(found[-1]).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _is_root() -> bool:
    return os.geteuid() == 0


class BenchServer:
    def __init__(self, extra_conf: dict[str, str] | None = None, verbose: bool = True):
        self.pgbin = find_pgbin()
        self.extra_conf = dict(extra_conf or {})
        self.verbose = verbose
        self.root: Path | None = None
        self.port: int | None = None

    # -- lifecycle -------------------------------------------------------------------

    def __enter__(self) -> "BenchServer":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def _log(self, msg: str) -> None:
        if self.verbose:
            print(f"==> {msg}", file=sys.stderr, flush=True)

    def _env(self) -> dict[str, str]:
        return {**os.environ, "JQ_TEST_PGDATA": str(self.root / "data"), "JQ_TEST_PGBIN": str(self.pgbin)}

    def start(self) -> None:
        # Under /tmp: as root the postgres user must reach it, and socket paths stay short.
        self.root = Path(tempfile.mkdtemp(prefix="jq-bench-pg.", dir="/tmp" if _is_root() else None))
        (self.root / MARKER).touch()
        (self.root / "data").mkdir(mode=0o700)
        (self.root / "sock").mkdir()
        run_as: list[str] = []
        if _is_root():
            _ensure_postgres_user()
            pw = pwd.getpwnam("postgres")
            for dirpath, dirnames, filenames in os.walk(self.root):
                os.chown(dirpath, pw.pw_uid, pw.pw_gid)
                for f in filenames:
                    os.chown(os.path.join(dirpath, f), pw.pw_uid, pw.pw_gid)
            run_as = ["runuser", "-u", "postgres", "--"]
        self._log(f"initdb in {self.root}/data ({self.pgbin})")
        with open(self.root / "initdb.log", "wb") as log:
            rc = subprocess.call(
                [*run_as, str(self.pgbin / "initdb"), "-D", str(self.root / "data"), "-U", "postgres",
                 "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8"],
                cwd=self.root, stdout=log, stderr=subprocess.STDOUT)
        if rc != 0:
            sys.stderr.write((self.root / "initdb.log").read_text())
            self.stop()
            raise SystemExit("bench: initdb failed")
        with open(self.root / "data" / "postgresql.conf", "a") as f:
            f.write("include 'jq_bench.conf'\n")
        for attempt in range(5):
            self.port = _free_port()
            lines = [
                "# written by bench/server.py: where to listen; everything else is PostgreSQL's default",
                "listen_addresses = '127.0.0.1'",
                f"port = {self.port}",
                f"unix_socket_directories = '{self.root}/sock'",
            ] + [f"{k} = {v}" for k, v in self.extra_conf.items()]
            conf = self.root / "data" / "jq_bench.conf"
            conf.write_text("\n".join(lines) + "\n")
            if _is_root():
                pw = pwd.getpwnam("postgres")
                os.chown(conf, pw.pw_uid, pw.pw_gid)
            self._log(f"starting PostgreSQL on 127.0.0.1:{self.port} (fsync, synchronous_commit on)")
            rc = subprocess.call([str(PGCTL), "start", "-w", "-t", "60"], env=self._env(),
                                 stdout=subprocess.DEVNULL)
            if rc == 0:
                return
            log = (self.root / "server.log").read_text() if (self.root / "server.log").exists() else ""
            if attempt < 4 and ("could not bind" in log or "already in use" in log):
                continue
            sys.stderr.write(log[-3000:])
            self.stop()
            raise SystemExit("bench: PostgreSQL did not start")

    def stop(self) -> None:
        root = self.root
        if root is None or not (root / MARKER).exists():
            return
        if (root / "data" / "postmaster.pid").exists():
            self._log(f"stopping PostgreSQL ({root})")
            if subprocess.call([str(PGCTL), "stop", "-m", "fast", "-w", "-t", "60"], env=self._env(),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) != 0:
                subprocess.call([str(PGCTL), "stop", "-m", "immediate", "-w", "-t", "30"], env=self._env(),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(root, ignore_errors=True)
        self.root = None

    # -- use -------------------------------------------------------------------------

    def dsn(self, dbname: str = "postgres") -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={dbname}"

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def psql(self, dbname: str, *args: str, quiet: bool = True) -> str:
        cmd = [str(self.pgbin / "psql"), "-X", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
               "-p", str(self.port), "-U", "postgres", "-d", dbname, *args]
        if quiet:
            cmd.insert(1, "-q")
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"psql {' '.join(args)} on {dbname} failed:\n{out.stderr[-3000:]}")
        return out.stdout

    def createdb(self, dbname: str) -> None:
        self.psql("postgres", "-c", f'create database "{dbname}"')

    @property
    def log_path(self) -> Path:
        return self.root / "server.log"


def _ensure_postgres_user() -> None:
    try:
        pwd.getpwnam("postgres")
        return
    except KeyError:
        pass
    groups = subprocess.run(["getent", "group", "postgres"], capture_output=True).returncode == 0
    cmd = (["useradd", "--system", "--gid", "postgres", "--no-create-home", "postgres"] if groups
           else ["useradd", "--system", "--user-group", "--no-create-home", "postgres"])
    subprocess.check_call(cmd)


if __name__ == "__main__":
    import signal

    # Ctrl-C or SIGTERM (also when started in the background): stop the server and remove it.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: sys.exit(0))
    with BenchServer() as s:
        print(f"export PGHOST=127.0.0.1 PGPORT={s.port} PGUSER=postgres   # Ctrl-C stops it", flush=True)
        while True:
            time.sleep(3600)
