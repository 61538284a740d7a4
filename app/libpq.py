"""A small PostgreSQL client on libpq (ctypes), for what GnuCash's SQL backend does not do for us:
test a connection and say why it fails in plain words, tell whether a database already holds
tables, create and drop databases, drop the tables a failed write left. The book itself is
written and read only by GnuCash (app.gnc).

libpq is the library GnuCash's PostgreSQL driver (Debian's ``libdbd-pgsql``) is built on, so it
is present wherever that driver is. The password: libpq's own rules (the ``password`` given,
else ``PGPASSWORD``, else ``~/.pgpass``); it never appears in a message, a log or an argument
list. No Flask, no GnuCash here.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

Failure = Literal["unreachable", "password", "refused", "no_database", "other"]

_OK = 0  # CONNECTION_OK
_COMMAND_OK, _TUPLES_OK = 1, 2  # PGRES_COMMAND_OK, PGRES_TUPLES_OK
_SQLSTATE = ord("C")  # PG_DIAG_SQLSTATE


class PgError(Exception):
    """A connection or a statement PostgreSQL refused: ``kind`` says which sort of failure,
    ``detail`` is libpq's own message (it never holds the password), ``sqlstate`` the
    statement's error code ("" for a connection)."""

    def __init__(self, kind: Failure, detail: str, sqlstate: str = "") -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail
        self.sqlstate = sqlstate


@functools.cache
def library() -> ctypes.CDLL | None:
    """libpq, loaded once per process (None when it is not installed)."""
    for name in (ctypes.util.find_library("pq"), "libpq.so.5"):
        if not name:
            continue
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        _declare(lib)
        return lib
    return None


def _declare(lib: ctypes.CDLL) -> None:
    p, s, i = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
    sigs = {
        "PQconnectdbParams": (p, [ctypes.POINTER(s), ctypes.POINTER(s), i]),
        "PQstatus": (i, [p]),
        "PQerrorMessage": (s, [p]),
        "PQconnectionNeedsPassword": (i, [p]),
        "PQfinish": (None, [p]),
        "PQexecParams": (p, [p, s, i, p, ctypes.POINTER(s), p, p, i]),
        "PQresultStatus": (i, [p]),
        "PQresultErrorMessage": (s, [p]),
        "PQresultErrorField": (s, [p, i]),
        "PQntuples": (i, [p]),
        "PQnfields": (i, [p]),
        "PQgetvalue": (s, [p, i, i]),
        "PQclear": (None, [p]),
        "PQescapeIdentifier": (p, [p, s, ctypes.c_size_t]),
        "PQfreemem": (None, [p]),
    }
    for name, (restype, argtypes) in sigs.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes


def _text(raw: bytes | None) -> str:
    return (raw or b"").decode("utf-8", "replace").strip()


def failure(detail: str, needs_password: bool = False) -> Failure:
    """What sort of connection failure libpq's message says (its English wording; a translated
    message is "other", said with libpq's own words)."""
    low = detail.lower()
    if needs_password or "no password supplied" in low:
        return "password"
    if "password authentication failed" in low or "authentication failed" in low:
        return "password"
    if "database" in low and "does not exist" in low:
        return "no_database"
    if ("role" in low and "does not exist" in low) or "pg_hba.conf" in low:
        return "refused"
    if "permission denied" in low or "not permitted to log in" in low:
        return "refused"
    reach: tuple[str, ...] = (
        "could not connect",
        "connection refused",
        "could not translate host",
        "timeout",
    )
    reach += ("no route to host", "network is unreachable", "name or service not known")
    if any(w in low for w in reach):
        return "unreachable"
    return "other"


@dataclass(slots=True)
class Connection:
    """An open libpq connection (``connect``); statements with parameters, rows as strings."""

    lib: ctypes.CDLL
    handle: int

    def rows(self, sql: str, params: Sequence[str] = ()) -> list[tuple[str, ...]]:
        """The rows of ``sql`` ($1, $2... bound to ``params``); PgError when it fails."""
        values = (ctypes.c_char_p * max(1, len(params)))(*(v.encode() for v in params))
        res = self.lib.PQexecParams(
            self.handle, sql.encode(), len(params), None, values, None, None, 0
        )
        try:
            status = self.lib.PQresultStatus(res) if res else -1
            if status not in (_COMMAND_OK, _TUPLES_OK):
                detail = _text(self.lib.PQresultErrorMessage(res)) if res else ""
                state = _text(self.lib.PQresultErrorField(res, _SQLSTATE)) if res else ""
                raise PgError("other", detail or _text(self.lib.PQerrorMessage(self.handle)), state)
            n, width = self.lib.PQntuples(res), self.lib.PQnfields(res)
            return [
                tuple(_text(self.lib.PQgetvalue(res, r, c)) for c in range(width)) for r in range(n)
            ]
        finally:
            if res:
                self.lib.PQclear(res)

    def run(self, sql: str, params: Sequence[str] = ()) -> None:
        self.rows(sql, params)

    def identifier(self, name: str) -> str:
        """``name`` quoted as an SQL identifier ("acme", with any quote doubled)."""
        raw = name.encode()
        ptr = self.lib.PQescapeIdentifier(self.handle, raw, len(raw))
        if not ptr:
            raise PgError("other", _text(self.lib.PQerrorMessage(self.handle)))
        try:
            return _text(ctypes.cast(ptr, ctypes.c_char_p).value)
        finally:
            self.lib.PQfreemem(ptr)


@contextmanager
def connect(params: Mapping[str, str], timeout: int = 10) -> Iterator[Connection]:
    """A connection with libpq's keywords ``params`` (host, port, user, dbname, and password
    only when given); PgError saying why it could not be made. Closed on leaving."""
    lib = library()
    if lib is None:
        raise PgError("other", "libpq (PostgreSQL's client library) is not installed")
    given = {"connect_timeout": str(timeout), "application_name": "qb2gnucash", **params}
    keys = [k.encode() for k in given] + [None]
    values = [v.encode() for v in given.values()] + [None]
    handle = lib.PQconnectdbParams(
        (ctypes.c_char_p * len(keys))(*keys), (ctypes.c_char_p * len(values))(*values), 0
    )
    if not handle:
        raise PgError("other", "libpq could not allocate a connection")
    try:
        if lib.PQstatus(handle) != _OK:
            detail = _text(lib.PQerrorMessage(handle))
            raise PgError(failure(detail, bool(lib.PQconnectionNeedsPassword(handle))), detail)
        yield Connection(lib, handle)
    finally:
        lib.PQfinish(handle)
