"""Apply sql/install.sql from Python, without psql.

The installer is the same file DBAs run with ``psql -f``: this module follows
its ``\\ir`` includes in order and runs them in one transaction, so both ways
install exactly the same schema.
"""

from __future__ import annotations

from pathlib import Path

import psycopg

from ._calls.admin import IS_INSTALLED, VERSION
from .errors import from_psycopg

__all__ = ["install", "install_script", "installed_version", "sql_dir"]


def sql_dir() -> Path:
    """The directory holding install.sql: inside the wheel, or the source tree."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "sql", here.parent / "sql"):
        if (candidate / "install.sql").is_file():
            return candidate
    raise FileNotFoundError("jq's sql/install.sql is not shipped with this pyjq installation")


def install_script(root: Path | None = None) -> list[tuple[Path, str]]:
    """The files install.sql includes, in order, with their text."""
    root = root or sql_dir()
    parts: list[tuple[Path, str]] = []
    for raw in (root / "install.sql").read_text().splitlines():
        line = raw.strip()
        if line.startswith(("\\ir ", "\\i ")):
            path = root / line.split(None, 1)[1].strip()
            parts.append((path, path.read_text()))
        elif line.startswith("\\echo ") or line.endswith("\\gset"):
            continue  # psql's report of what the install did (jq.install_report); pyjq returns the version
        elif line.startswith("\\"):
            if not line.startswith("\\set "):
                raise ValueError(f"install.sql uses a psql meta-command pyjq does not know: {line}")
        elif line.lower() in ("begin;", "commit;") or not line or line.startswith("--"):
            continue
        else:
            raise ValueError(f"install.sql may only include files; found: {line}")
    return parts


def install(conn: psycopg.Connection, root: Path | None = None) -> str:
    """Install or upgrade jq in the connection's database; return the installed version.

    Runs in one transaction (the connection's own if one is open, committed by
    the caller; otherwise a new one committed here).
    """
    parts = install_script(root)
    try:
        with conn.transaction():
            with conn.cursor() as cur:
                for _path, text in parts:
                    cur.execute(text.encode(), prepare=False)
            version = VERSION.run(conn)
    except psycopg.Error as exc:  # the scripts' errors (JQ001: an installer older than the schema)
        raise from_psycopg(exc) from exc
    return version


def installed_version(conn: psycopg.Connection) -> str | None:
    """The jq release installed in the connection's database, or None when there is none."""
    return VERSION.run(conn) if IS_INSTALLED.run(conn) else None
