"""`pyjq dev db`: a development PostgreSQL for your own app, up until stopped.

    db = DevDatabase(Path(".jq-dev/db"))
    db.start()      # initdb once, pg_ctl start, create the database, install jq
    db.url          # postgresql://postgres@127.0.0.1:PORT/app, the same PORT every run
    db.stop()

Unlike the demo's LocalPostgres block, nothing here stops the server when the
Python process ends: pg_ctl starts it detached, and it runs until `stop` (or a
reboot). The cluster, its port and the database name live in the folder; a
later `start` reuses all three, and takes another port only when something
else listens on the remembered one (``port_moved_from`` then says which). The
first start takes the first free port from 5433 up.
"""

from __future__ import annotations

import json
from pathlib import Path

import psycopg

import pyjq

from .localpg import Cluster, LocalPostgres, _free_port, _port_free, find_bindir

__all__ = ["DEFAULT_DBNAME", "DEFAULT_DIR", "DevDatabase"]

DEFAULT_DIR = Path(".jq-dev/db")  # beside the demo's cluster in .jq-dev/, not inside its data
DEFAULT_DBNAME = "app"
# The first start takes the first free one: below Linux's ephemeral range (so no
# outgoing connection holds it by chance), beside 5432 (left to a real server).
FIRST_PORTS = range(5433, 5533)
SETTINGS_FILE = "dev-db.json"  # in the folder: the database name `url` and `status` report


def _first_free_port() -> int:
    """The first free port of FIRST_PORTS, else any free one."""
    return next((port for port in FIRST_PORTS if _port_free(port)), None) or _free_port()


class _RememberedPortPostgres(LocalPostgres):
    """LocalPostgres whose port comes from FIRST_PORTS, and that notes when the
    remembered port was taken and it moved (``port_moved_from``)."""

    port_moved_from: int | None = None

    def _choose_port(self, cluster: Cluster) -> int:  # type: ignore[override]
        remembered = cluster.configured_port()
        if remembered is not None and (cluster.running() or _port_free(remembered)):
            return remembered
        self.port_moved_from = remembered
        return _first_free_port()


class DevDatabase:
    """The development cluster kept in ``folder`` (see the module docstring)."""

    def __init__(self, folder: Path = DEFAULT_DIR):
        self.folder = Path(folder).resolve()
        self.port_moved_from: int | None = None  # set by start() when the remembered port was taken

    # -- where things are ------------------------------------------------------------

    def _cluster_root(self) -> Path:
        """The cluster's folder: ``folder`` itself, or where LocalPostgres put it when
        the postgres OS user could not reach ``folder`` (noted in cluster-location)."""
        note = self.folder / "cluster-location"
        return Path(note.read_text().strip()) if note.exists() else self.folder

    def _cluster(self) -> Cluster | None:
        cluster = Cluster(self._cluster_root(), find_bindir())
        return cluster if (cluster.data / "PG_VERSION").exists() else None

    @property
    def dbname(self) -> str:
        try:
            return str(json.loads((self.folder / SETTINGS_FILE).read_text())["dbname"])
        except (OSError, ValueError, KeyError):
            return DEFAULT_DBNAME

    @property
    def data_dir(self) -> Path:
        return self._cluster_root() / "data"

    # -- state -----------------------------------------------------------------------

    def port(self) -> int | None:
        """The port the cluster is configured for (remembered from the last start)."""
        cluster = self._cluster()
        return cluster.configured_port() if cluster else None

    def running(self) -> bool:
        cluster = self._cluster()
        return cluster is not None and cluster.running()

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port()}/{self.dbname}"

    # -- actions ---------------------------------------------------------------------

    def start(self, dbname: str | None = None) -> str:
        """Create or reuse the cluster, start it if it is not running, create the
        database and install (or upgrade) jq in it; return the install's version."""
        dbname = dbname or self.dbname
        server = _RememberedPortPostgres(self.folder, dbname=dbname)
        server.start()  # never stopped here: the server outlives this process
        self.port_moved_from = server.port_moved_from
        (self.folder / SETTINGS_FILE).write_text(json.dumps({"dbname": dbname}) + "\n")
        with psycopg.connect(server.dsn, autocommit=True, connect_timeout=10) as conn:
            return pyjq.install(conn)

    def stop(self) -> bool:
        """Stop the server; False when it was not running."""
        cluster = self._cluster()
        if cluster is None or not cluster.running():
            return False
        cluster.stop()
        return True
