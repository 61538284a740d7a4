"""A throw-away PostgreSQL server for the tests and ``make bench``: Debian's server binaries
(``postgresql``), a new cluster in a temporary folder owned by an unprivileged user (as root:
``postgres`` if the package made it, else ``nobody``), listening on a free loopback port and a
private socket folder, stopped and removed at the end.

Local (socket) connections are trusted for the cluster's superuser, which the tests use through
``psql`` to look at what GnuCash wrote; TCP connections need a password (SCRAM), as a real
server would ask: the book's user ``bookkeeper`` has one, and may create databases.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.support.browser import free_port

USER = "bookkeeper"
PASSWORD = "ledger-Pa55:word\\"  # a colon and a backslash: the pgpass escapes are needed


def binaries() -> Path | None:
    """The newest installed server's bin folder (initdb, pg_ctl), else None."""
    found = [Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")]
    found.sort(key=lambda b: int(b.parent.name) if b.parent.name.isdigit() else 0)
    return found[-1] if found else None


def missing() -> str:
    """Why no server can be started here ("" when one can)."""
    if binaries() is None:
        return "PostgreSQL's server is not installed (Debian's postgresql package; make setup)"
    if shutil.which("psql") is None:
        return "psql is not installed (Debian's postgresql-client)"
    return ""


def _unprivileged() -> list[str]:
    """The command prefix that runs a server command as an unprivileged user ([] if we are)."""
    if os.geteuid() != 0:
        return []
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return ["runuser", "-u", name, "--"]
    raise RuntimeError("no unprivileged user (postgres, nobody) to run PostgreSQL as")


@dataclass
class PgServer:
    root: Path  # the cluster's folder: data/ and the socket
    port: int
    bin: Path
    prefix: list[str]
    host: str = "127.0.0.1"

    @classmethod
    def start(cls, *, durable: bool = False) -> PgServer:
        """A new cluster, started. ``durable``: fsync as a real server (``make bench``);
        otherwise off, for speed (a crash of a test server loses nothing of value)."""
        bindir, prefix = binaries(), _unprivileged()
        if bindir is None:
            raise RuntimeError(missing())
        root = Path(tempfile.mkdtemp(prefix="qb2gnucash-pg-"))
        root.chmod(0o700)
        if prefix:
            owner = pwd.getpwnam(prefix[2])
            os.chown(root, owner.pw_uid, owner.pw_gid)
        server = cls(root, free_port(), bindir, prefix)
        try:
            server._run(
                "initdb", "-D", str(root / "data"), "-U", "postgres", "-E", "UTF8",
                "--no-locale", "--auth-local=trust", "--auth-host=scram-sha-256",
            )  # fmt: skip
            options = [
                "-c listen_addresses=127.0.0.1",
                f"-p {server.port}",
                f"-c unix_socket_directories={root}",
                *([] if durable else ["-c fsync=off", "-c full_page_writes=off"]),
            ]
            server._run(
                "pg_ctl", "-D", str(root / "data"), "-o", " ".join(options),
                "-l", str(root / "server.log"), "-w", "-t", "60", "start",
            )  # fmt: skip
            server.sql(f"CREATE ROLE {USER} LOGIN CREATEDB PASSWORD '{PASSWORD}'")
        except BaseException:
            server.stop()
            raise
        return server

    def _run(self, tool: str, *args: str) -> str:
        proc = subprocess.run(
            [*self.prefix, str(self.bin / tool), *args],
            capture_output=True,
            text=True,
            cwd=self.root,
            timeout=120,
            check=False,
        )
        if proc.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.is_file() else ""
            raise RuntimeError(f"{tool} failed: {proc.stdout}{proc.stderr}{tail}")
        return proc.stdout

    def sql(self, statement: str, database: str = "postgres") -> list[list[str]]:
        """``statement`` run by the cluster's superuser over the private socket (psql): its rows."""
        proc = subprocess.run(
            ["psql", "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1",
             "-h", str(self.root), "-p", str(self.port), "-U", "postgres", "-d", database,
             "-c", statement],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env={k: v for k, v in os.environ.items() if k != "PGPASSWORD"},
        )  # fmt: skip
        if proc.returncode != 0:
            raise RuntimeError(f"psql {statement!r}: {proc.stderr}")
        return [line.split("\t") for line in proc.stdout.splitlines() if line]

    def databases(self) -> set[str]:
        return {r[0] for r in self.sql("SELECT datname FROM pg_database")}

    def tables(self, database: str) -> set[str]:
        rows = self.sql(
            "SELECT relname FROM pg_class WHERE relname !~ '^(pg|sql)_' AND relkind = 'r'",
            database,
        )
        return {r[0] for r in rows}

    def url(self, database: str, user: str = USER) -> str:
        return f"postgres://{user}@{self.host}:{self.port}/{database}"

    def stop(self) -> None:
        """Stopped (fast: open sessions are ended) and its folder removed."""
        try:
            if (self.root / "data" / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
