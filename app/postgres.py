"""Books in PostgreSQL: the address (``postgres://USER@HOST[:PORT]/DB``, never with a password),
whether GnuCash's driver is installed, what a database holds, and where a book is written so
that a failed write leaves nothing behind (``placed``).

GnuCash writes and reads the book itself (app.gnc, its SQL backend, as for SQLite); what it
does not do is done here with libpq (app.libpq): GnuCash 4.13 cannot create a missing database
with libpq 14 or later (it looks for a message prefix libpq no longer prints: docs/ENGINE.md),
and it gives one error code for every connection failure. The password comes from
``PGPASSWORD`` or ``~/.pgpass`` (or, in the wizard, the password typed for this import, kept in
memory): never from the address, a command line or a file of ours. GnuCash's driver passes
libpq an empty password, which makes libpq ignore ``PGPASSWORD`` (not ``~/.pgpass``), so for the
engine's session the password is handed over as a password file that lives in memory only
(``engine_password``: a memfd, never on disk).
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Literal
from urllib.parse import urlsplit

from app import libpq
from app.errors import BookWriteError, MappingError

State = Literal["missing", "empty", "book", "tables"]
DEFAULT_PORT = 5432
SCHEMES = ("postgres", "postgresql")
FORMAT_HINT = "postgres://USER@HOST[:PORT]/DATABASE"
PASSWORD_HINT = "put the password in PGPASSWORD or ~/.pgpass"
_USER = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,62}")
_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?")
_DATABASE = re.compile(r"[a-z_][a-z0-9_-]{0,62}")
# GnuCash's own test for "the database may hold data" (save_may_clobber_data, PostgreSQL): any
# ordinary table but the system's
_TABLES = (
    "SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE c.relname !~ '^(pg|sql)_' AND c.relkind = 'r' ORDER BY 1, 2"
)
_GNUCASH_TABLES = {"gnclock", "versions", "books"}


@dataclass(frozen=True, slots=True)
class Address:
    """Where a book in PostgreSQL is: the server, the user, the database (lower case, as
    GnuCash makes every database name). ``url`` is the address GnuCash is given (no password)."""

    user: str
    host: str
    port: int
    database: str

    @property
    def url(self) -> str:
        return f"postgres://{self.user}@{self.host}:{self.port}/{self.database}"

    def __str__(self) -> str:
        return self.url

    def params(self, database: str = "", password: str | None = None) -> dict[str, str]:
        """libpq's keywords for a connection as GnuCash makes it (``database``: another one
        on the same server, to create or drop this one)."""
        out = {
            "host": self.host,
            "port": str(self.port),
            "user": self.user,
            "dbname": database or self.database,
        }
        if password:
            out["password"] = password
        return out


def is_address(text: object) -> bool:
    """Whether ``text`` is meant as a database address (postgres://...), right or wrong."""
    return str(text).lower().startswith(tuple(f"{s}://" for s in SCHEMES))


def parse_address(text: str) -> Address:
    """``postgres://USER@HOST[:PORT]/DB`` → Address; MappingError saying what is wrong (and,
    for an address holding a password, never repeating it)."""
    text = text.strip()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise MappingError(f"not a database address; expected {FORMAT_HINT}") from None
    if parts.scheme.lower() not in SCHEMES:
        raise MappingError(f"not a database address; expected {FORMAT_HINT}")
    if parts.password is not None or (parts.username or "").count(":"):
        raise MappingError(f"the database address must not hold the password: {PASSWORD_HINT}")
    if parts.query or parts.fragment:
        raise MappingError(f"the database address takes no options; expected {FORMAT_HINT}")
    user, host = parts.username or "", parts.hostname or ""
    database = parts.path.removeprefix("/").lower()
    if not user or not _USER.fullmatch(user):
        raise MappingError(f"give the PostgreSQL user name (letters, digits, _ . -): {FORMAT_HINT}")
    if not host or not _HOST.fullmatch(host):
        raise MappingError(f"give the server's name or IPv4 address: {FORMAT_HINT}")
    if not database or not _DATABASE.fullmatch(database):
        raise MappingError(
            "give the database name (letters, digits, _ and -, starting with a letter; "
            f"GnuCash makes it lower case): {FORMAT_HINT}"
        )
    return Address(user, host, port or DEFAULT_PORT, database)


NO_DRIVER = (
    "GnuCash's PostgreSQL driver is not installed on this computer: install Debian's "
    "libdbd-pgsql (make setup does), then reload this page."
)


def driver_present() -> bool:
    """Whether GnuCash can write PostgreSQL books here: libdbi's PostgreSQL driver (Debian's
    ``libdbd-pgsql``, where GnuCash looks for it) and libpq."""
    dirs = [os.environ.get("GNC_DBD_DIR", ""), *glob.glob("/usr/lib/*/dbd")]
    dirs += ["/usr/lib/dbd", "/usr/lib64/dbd", "/usr/local/lib/dbd"]
    found = any(d and os.path.isfile(os.path.join(d, "libdbdpgsql.so")) for d in dirs)
    return found and libpq.library() is not None


def refusal(address: Address, exc: libpq.PgError) -> str:
    """Why a connection failed, in plain words (libpq's own reason after them)."""
    who = f"{address.user} at {address.host}:{address.port}"
    if exc.kind == "unreachable":
        said = (
            f"cannot reach the PostgreSQL server at {address.host}:{address.port} (is it "
            "running, and does it accept connections from this computer?)"
        )
    elif exc.kind == "password":
        said = f"the PostgreSQL server refused the password for {who}: {PASSWORD_HINT}"
    elif exc.kind == "refused":
        said = f"the PostgreSQL server does not let {who} in"
    else:
        said = f"cannot use the database {address.database} as {who}"
    detail = " ".join(exc.detail.split())
    return f"{said} ({detail})" if detail else said


def _server_error(address: Address, exc: libpq.PgError) -> BookWriteError:
    return BookWriteError(refusal(address, exc))


def state(address: Address, password: str | None = None) -> State:
    """What the database holds: nothing yet ("missing": there is no such database, "empty"),
    a GnuCash book ("book") or other tables ("tables"). BookWriteError when the server cannot
    be reached or refuses the user."""
    try:
        with libpq.connect(address.params(password=password)) as conn:
            names = {name for _schema, name in conn.rows(_TABLES)}
    except libpq.PgError as exc:
        if exc.kind == "no_database":
            _check_server(address, password)  # the user, the password: said now, not later
            return "missing"
        raise _server_error(address, exc) from None
    if not names:
        return "empty"
    return "book" if _GNUCASH_TABLES <= names else "tables"


def _check_server(address: Address, password: str | None) -> None:
    maintenance(address, password, lambda _conn: None)


def maintenance(
    address: Address, password: str | None, action: Callable[[libpq.Connection], None]
) -> None:
    """``action(conn)`` on the server's maintenance database (postgres, else template1)."""
    last: libpq.PgError | None = None
    for database in ("postgres", "template1"):
        try:
            with libpq.connect(address.params(database, password)) as conn:
                action(conn)
                return
        except libpq.PgError as exc:
            if exc.kind != "no_database":
                raise _server_error(address, exc) from None
            last = exc
    assert last is not None
    raise _server_error(address, last)


def holds_words(address: Address, found: State) -> str:
    """ "the database acme already holds a GnuCash book" (or other tables)."""
    what = "a GnuCash book" if found == "book" else "tables (not a GnuCash book)"
    return f"the database {address.database} on {address.host} already holds {what}"


def usage_problem(address: Address, overwrite: bool, password: str | None = None) -> str | None:
    """What stops a book being written at ``address`` (checked before anything is read), or
    None: the server cannot be reached, refuses the user, the database holds tables and
    ``overwrite`` was not asked for, or a database is to be made by a user who may not."""
    try:
        found = state(address, password)
        if found in ("book", "tables") and not overwrite:
            return f"{holds_words(address, found)}; add --force to replace it"
        if found != "empty" and not may_create(address, password):
            return _no_create(address, "" if found == "missing" else REPLACING)
    except BookWriteError as exc:
        return exc.message
    return None


def may_create(address: Address, password: str | None) -> bool:
    """Whether the user may create databases on the server (or is its superuser)."""
    said: list[bool] = []

    def ask(conn: libpq.Connection) -> None:
        rows = conn.rows(
            "SELECT rolcreatedb OR rolsuper FROM pg_roles WHERE rolname = current_user"
        )
        said.append(bool(rows) and rows[0][0] == "t")

    maintenance(address, password, ask)
    return bool(said and said[0])


REPLACING = "the new book is written to a database of its own before it takes the old one's place"


def _no_create(address: Address, why: str = "") -> str:
    """A user who may not create databases: the one to create for him, or the right to ask for
    (``why``: a book is there already and needs a database beside it)."""
    who, db = address.user, address.database
    if not why:
        return (
            f"{who} may not create databases on {address.host}: create the database {db} for "
            f"{who} (createdb -O {who} {db}) and try again"
        )
    return (
        f"{who} may not create databases on {address.host}, and {why}: give {who} that right "
        f"(ALTER ROLE {who} CREATEDB) and try again; the book is left as it was"
    )


def create_database(address: Address, database: str, password: str | None, copy: str = "") -> None:
    """``database`` made on ``address``'s server (``copy``: why a book already there needs a
    database beside it, which only the right to create databases allows)."""

    def create(conn: libpq.Connection) -> None:
        name = conn.identifier(database)
        try:  # as GnuCash creates a database (create_database in its DBI backend)
            conn.run(f"CREATE DATABASE {name} WITH TEMPLATE template0 ENCODING 'UTF8'")
        except libpq.PgError as exc:
            if exc.sqlstate == "42501":  # insufficient_privilege
                raise BookWriteError(_no_create(address, copy)) from None
            raise BookWriteError(f"cannot create the database {database}: {exc.detail}") from None
        conn.run(f"ALTER DATABASE {name} SET standard_conforming_strings TO on")

    maintenance(address, password, create)


# GnuCash's SQL backend leaves one connection open after a new store's session ends (it
# connects twice in session_begin and closes only the second: docs/ENGINE.md); a database this
# run created is freed of such connections (ours: nobody else knows its name yet) before it is
# renamed or dropped.
FREE = (
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
    "WHERE datname = $1 AND pid <> pg_backend_pid()"
)


def drop_database(address: Address, database: str, password: str | None) -> None:
    def drop(conn: libpq.Connection) -> None:
        if not conn.rows("SELECT 1 FROM pg_database WHERE datname = $1", [database]):
            return  # (put in place already; and no server NOTICE on the user's terminal)
        conn.run(FREE, [database])
        conn.run(f"DROP DATABASE IF EXISTS {conn.identifier(database)}")

    maintenance(address, password, drop)


def _drop_tables(address: Address, password: str | None) -> None:
    """Every table of the database (it was empty before the write: they are the write's)."""
    with libpq.connect(address.params(password=password)) as conn:
        for schema, name in conn.rows(_TABLES):
            conn.run(
                f"DROP TABLE IF EXISTS {conn.identifier(schema)}.{conn.identifier(name)} CASCADE"
            )


def in_use(address: Address) -> BookWriteError:
    """The book's database cannot be replaced or renamed: someone has it open."""
    return BookWriteError(
        f"the database {address.database} is open in another program (GnuCash itself?); close "
        "it and try again: the old book is left as it was"
    )


def _swap(address: Address, staged: str, password: str | None) -> None:
    """The staged database becomes ``address``'s: the old one dropped, the new one renamed."""

    def swap(conn: libpq.Connection) -> None:
        target = conn.identifier(address.database)
        try:
            conn.run(f"DROP DATABASE IF EXISTS {target}")
        except libpq.PgError as exc:
            if exc.sqlstate == "55006":  # object_in_use: someone has it open
                raise in_use(address) from None
            raise BookWriteError(f"cannot replace {address.database}: {exc.detail}") from None
        conn.run(FREE, [staged])
        conn.run(f"ALTER DATABASE {conn.identifier(staged)} RENAME TO {target}")

    maintenance(address, password, swap)


@contextmanager
def placed(
    address: Address, *, overwrite: bool = False, password: str | None = None
) -> Iterator[Address]:
    """Where to write the book meant for ``address``: the body writes, reads back and proves it
    there. Leaving normally puts it in place; an exception removes what the write made (the
    database it created, or the tables it made in an empty one), and an existing book (only
    replaced with ``overwrite``) is replaced only after the body succeeded: the new book is
    written to a database of its own and renamed into place. BookWriteError for a server that
    cannot be reached, refuses the user, holds a book (without ``overwrite``) or may not create
    the database."""
    found = state(address, password)
    if found in ("book", "tables") and not overwrite:
        raise BookWriteError(
            f"{holds_words(address, found)}; not overwritten: give another database, or replace "
            "it on purpose (the command line's --force)"
        )
    if found == "empty":
        try:
            yield address
        except BaseException:
            with contextlib.suppress(libpq.PgError, BookWriteError):
                _drop_tables(address, password)
            raise
        return
    where = address
    if found != "missing":  # a book to replace only once the new one is proven
        where = replace(address, database=f"{address.database[:40]}_qb2gnucash_{os.getpid()}")
    create_database(address, where.database, password, REPLACING if where != address else "")
    try:
        yield where
        if where != address:
            _swap(address, where.database, password)
    except BaseException:
        with contextlib.suppress(libpq.PgError, BookWriteError):
            drop_database(address, where.database, password)
        raise


_ENGINE = threading.RLock()  # the process environment is one: one engine session at a time


@contextmanager
def engine_password(password: str | None = None) -> Iterator[None]:
    """The password for GnuCash's own connections while the body runs: ``password``, else
    ``PGPASSWORD``, handed to libpq as an in-memory password file (``PGPASSFILE`` naming a
    memfd of this process, mode 0600; nothing on disk). Without either, libpq reads
    ``~/.pgpass`` (or the user's ``PGPASSFILE``) as usual. The wizard's threads take turns
    (``_ENGINE``): another's password file never serves this body, nor outlives its own."""
    with _ENGINE, _password_file(password or os.environ.get("PGPASSWORD", "")):
        yield


@contextmanager
def _password_file(secret: str) -> Iterator[None]:
    if not secret:
        yield
        return
    escaped = secret.replace("\\", "\\\\").replace(":", "\\:")
    fd = os.memfd_create("qb2gnucash-pgpass", os.MFD_CLOEXEC)
    before = os.environ.get("PGPASSFILE")
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, f"*:*:*:*:{escaped}\n".encode())
        os.environ["PGPASSFILE"] = f"/proc/self/fd/{fd}"
        yield
    finally:
        if before is None:
            os.environ.pop("PGPASSFILE", None)
        else:
            os.environ["PGPASSFILE"] = before
        os.close(fd)
