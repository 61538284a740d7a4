"""A book on disk: ``write_book`` builds one under a temporary name beside its target and moves
it into place after a successful save; ``read_book`` reads one back in a read-only session.
Backend errors become BookWriteError, and a failed write leaves no file behind.

Engine facts behind this code are in docs/ENGINE.md. In short: the account separator is set to
":" and the transaction journal and backup files are switched off once per process
(``bindings.engine``); the book is checked against the input (split count and balance of every
account, ``transactions.check``) before the save. The parts of a write are ``accounts``,
``business`` and ``transactions``, each given the one ``Writer``. Sessions are ended, never
destroyed (destroy is quadratic in 4.13).
"""

from __future__ import annotations

import gzip
import logging
import os
import re
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from app import postgres
from app.book import BookSnapshot, WriteStats
from app.errors import BookWriteError
from app.gnc import accounts, apart, bindings, business, existing, extras, tax, transactions
from app.gnc import lots as business_documents
from app.gnc.bindings import C, GnuCashBackendException, Session, SessionOpenMode
from app.gnc.context import Progress, Writer, Written, progress, since
from app.gnc.detacher import can_load, load_sql_detached, load_xml_detached, refusal
from app.gnc.transactions import DETACH_EVERY
from app.model import Ledger
from app.postgres import Address

log = logging.getLogger(__name__)
T = TypeVar("T")
U = TypeVar("U")
Marks = tuple[Sequence[str], str]  # each transaction's key slot text, the book's run record


# ---------------------------------------------------------------- writing


# GnuCash's backend error codes in the words a bookkeeper reads (never the code itself)
_WORDS = {
    "ERR_BACKEND_READONLY": "the folder or the file is read-only",
    "ERR_BACKEND_PERM": "this user may not write there",
    "ERR_FILEIO_FILE_EACCES": "this user may not read or write the file",
    "ERR_FILEIO_WRITE_ERROR": "the file could not be written (is the disk full?)",
    "ERR_FILEIO_BACKUP_ERROR": "the file could not be written (is the disk full?)",
    "ERR_FILEIO_RESERVED_WRITE": "the file could not be written (is the disk full?)",
    "ERR_BACKEND_LOCKED": "another program (GnuCash itself?) has the book open",
    "ERR_FILEIO_FILE_LOCKERR": "its lock file could not be made (is the folder read-only?)",
    "ERR_BACKEND_STORE_EXISTS": "a book is already there",
    "ERR_BACKEND_CANT_CONNECT": "the database server cannot be reached",
    "ERR_BACKEND_CONN_LOST": "the connection to the database server was lost",
    "ERR_BACKEND_SERVER_ERR": "the database server reported an error",
    "ERR_BACKEND_NO_SUCH_DB": "there is no book there",
    "ERR_FILEIO_FILE_NOT_FOUND": "there is no such file",
    "ERR_FILEIO_FILE_EMPTY": "the file is empty",
    "ERR_BACKEND_NO_HANDLER": "it is not a GnuCash book (XML or SQLite)",
    "ERR_FILEIO_UNKNOWN_FILE_TYPE": "it is not a GnuCash book (XML or SQLite)",
    "ERR_FILEIO_PARSE_ERROR": "the file is damaged or not a GnuCash book",
    "ERR_FILEIO_FILE_BAD_READ": "the file is damaged or not a GnuCash book",
    "ERR_FILEIO_READ_ERROR": "the file could not be read",
    "ERR_BACKEND_DATA_CORRUPT": "the file is damaged",
    "ERR_BACKEND_TOO_NEW": "it was written by a newer GnuCash than this one",
    "ERR_FILEIO_FILE_TOO_OLD": "it was written by a GnuCash too old to read",
}


def _plain(exc: Exception) -> str:
    """A backend exception in plain words: its error codes' words, else a general sentence."""
    log.info("GnuCash backend: %s", exc)  # the engine's own words, for whoever reads the log
    names = {v: k for k, v in vars(C).items() if k.startswith("ERR_") and isinstance(v, int)}
    codes = [names.get(e, "") for e in getattr(exc, "errors", ()) or ()]
    words = list(dict.fromkeys(_WORDS[c] for c in codes if c in _WORDS))
    return "; ".join(words) or "GnuCash refused it (its messages are in the server's log)"


def write_book(
    ledger: Ledger,
    path: Path | Address,
    *,
    currency: str = "USD",
    fmt: str = "xml",
    on_progress: Progress | None = None,
    overwrite: bool = False,
    detach: bool = True,
    after: Callable[[Written], object] | None = None,
    marks: Marks | None = None,
) -> WriteStats:
    """Write the final ``ledger`` to ``path`` (raises BookWriteError; then no file is left).

    ``path`` may be a PostgreSQL database (an ``Address``; ``fmt`` is then "postgres"): it
    must be empty, and removing what a failed write left there is the caller's part
    (``app.postgres.placed``).
    ``detach=False`` forces the plain path (quadratic on 4.13; for comparison tests).
    ``after``: called with the ``Written`` book once the GL is written and self-checked,
    before the save (the business documents pass); its time is the "documents" phase.
    ``marks``: each transaction's key slot and the book's run record (``existing.stamp``).
    """
    if isinstance(path, Address):
        return _write_database(
            ledger,
            path,
            currency=currency,
            on_progress=on_progress,
            detach=detach,
            after=after,
            marks=marks,
        )
    path = Path(path).absolute()  # GnuCash reads a relative URI as under its own data folder
    if fmt not in ("xml", "sqlite"):
        raise BookWriteError(f"unknown book format “{fmt}” (expected xml or sqlite)")
    if path.exists() and not overwrite:
        raise BookWriteError(f"{path} already exists; not overwritten")
    if not path.parent.is_dir():
        raise BookWriteError(f"folder {path.parent} does not exist")
    engine = bindings.engine()
    tmp = path.with_name(f".{path.name}.partial-{os.getpid()}")
    _remove_partials(tmp)
    engine.log_disable()  # again: every backend's load re-enables the journal
    session = None
    try:
        if fmt == "xml":
            session = Session("xml://" + str(tmp), SessionOpenMode.SESSION_NEW_STORE)
        else:  # the save-as recipe: 4.13's constructor path loses SQLite data
            session = Session()
            session.begin("sqlite3://" + str(tmp), SessionOpenMode.SESSION_NEW_STORE)
        stats, t0 = _fill_and_save(
            session,
            ledger,
            currency=currency,
            on_progress=on_progress,
            detach=detach,
            after=after,
            marks=marks,
        )
        session.end()
        session = None
        if not tmp.is_file():  # an engine that skips saving an untouched book
            raise BookWriteError(f"GnuCash saved nothing for {path.name} (empty book?)")
        try:
            tmp.chmod(0o600)  # the company's books: readable by their owner only
            os.replace(tmp, path)
        except OSError as exc:
            raise BookWriteError(f"cannot move the book into place at {path}: {exc}") from exc
        progress(on_progress, "saving", 1, 1)
        return replace(stats, seconds=(*stats.seconds, ("save", since(t0))))
    except GnuCashBackendException as exc:
        raise BookWriteError(f"GnuCash could not write {path.name}: {_plain(exc)}") from exc
    finally:
        if session is not None:
            session.end()  # without save(): discards the book and releases the lock
        _remove_partials(tmp)


def write_book_apart(
    build: Callable[[Progress | None], T],
    path: Path | Address,
    on_progress: Progress | None,
    meanwhile: Callable[[], U],
) -> tuple[T, U, bool]:
    """``build(progress)`` (writing the book at ``path``) run in a forked child where one can be
    (``app.gnc.apart``, docs/ENGINE.md), else here: its value, what ``meanwhile()`` gave (run
    here meanwhile, else after it), whether it ran in a child. A failed child leaves nothing."""
    if not apart.can_fork():  # (build runs first: a tuple is made left to right)
        return build(on_progress), meanwhile(), False

    def gone(pid: int) -> None:
        if isinstance(path, Path):
            _remove_partials(path.absolute().with_name(f".{path.name}.partial-{pid}"))

    return (*apart.run(build, on_progress, gone, meanwhile), True)


def _fill_and_save(
    session: Session,
    ledger: Ledger,
    *,
    currency: str,
    on_progress: Progress | None,
    detach: bool,
    after: Callable[[Written], object] | None,
    marks: Marks | None = None,
) -> tuple[WriteStats, float]:
    """The ledger (and the ``after`` pass) into the new session's book, then its one save;
    the stats and when the save began."""
    w = Writer.open(session.book, bindings.engine(), currency, on_progress)
    stats = _build(w, ledger, detach)
    if after is not None:
        t0 = time.perf_counter()
        after(w.written())
        stats = replace(stats, seconds=(*stats.seconds, ("documents", since(t0))))
    if marks is not None:
        t0 = time.perf_counter()
        existing.stamp(w.engine, w.book, w.transactions, *marks)
        stats = replace(stats, seconds=(*stats.seconds, ("keys", since(t0))))
    progress(on_progress, "saving", 0, 1)
    t0 = time.perf_counter()
    session.save()
    return stats, t0


def _write_database(
    ledger: Ledger,
    address: Address,
    *,
    currency: str,
    on_progress: Progress | None,
    detach: bool,
    after: Callable[[Written], object] | None,
    marks: Marks | None = None,
) -> WriteStats:
    """The book into the empty PostgreSQL database at ``address`` with GnuCash's SQL backend:
    the save-as recipe of SQLite (begin a new store, build, one save), the password handed
    over in memory (``postgres.engine_password``)."""
    engine = bindings.engine()
    session = None
    with postgres.engine_password():
        try:
            engine.log_disable()
            session = Session()
            session.begin(address.url, SessionOpenMode.SESSION_NEW_STORE)
            stats, t0 = _fill_and_save(
                session,
                ledger,
                currency=currency,
                on_progress=on_progress,
                detach=detach,
                after=after,
                marks=marks,
            )
            session.end()
            session = None
        except GnuCashBackendException as exc:
            said = _plain(exc)
            raise BookWriteError(
                f"GnuCash could not write the database {address.url}: {said}"
            ) from exc
        finally:
            if session is not None:
                session.end()  # without save(): nothing more reaches the database
    progress(on_progress, "saving", 1, 1)
    return replace(stats, seconds=(*stats.seconds, ("save", since(t0))))


def _remove_partials(tmp: Path) -> None:
    """The temporary book and whatever the engine put beside it (lock, journal)."""
    for p in tmp.parent.iterdir():
        if p.name.startswith(tmp.name):
            p.unlink(missing_ok=True)


def _build(w: Writer, ledger: Ledger, detach: bool) -> WriteStats:
    """The ledger into ``w``'s book, self-checked; what was written and how long each part took."""
    times: list[tuple[str, float]] = []
    t0 = time.perf_counter()
    accounts.write(w, ledger)
    counts = business.write(w, ledger)
    times.append(("accounts", since(t0)))
    t0 = time.perf_counter()
    detached, fallback, splits = transactions.write(w, ledger.transactions, detach)
    times.append(("transactions", since(t0)))
    t0 = time.perf_counter()
    transactions.check(w, ledger)
    times.append(("check", since(t0)))
    return WriteStats(
        accounts=len(w.accounts),
        transactions=len(ledger.transactions),
        splits=splits,
        detached=detached,
        fallback=fallback,
        not_written=tuple(w.not_written),
        seconds=tuple(times),
        apart=False,  # (named: mypy takes **counts for it otherwise; a child sets it after)
        **counts,
    )


# ---------------------------------------------------------------- reading


def read_book(
    path: Path | Address,
    *,
    transactions: bool = False,
    on_progress: Progress | None = None,
    detach: bool = True,
    documents: bool = False,
    sales_tax: Collection[str] | None = None,
    password: str | None = None,
) -> BookSnapshot:
    """What the book at ``path`` (a file, or a PostgreSQL database: ``password`` its server's,
    else PGPASSWORD's) holds, read in a read-only session (ended, never destroyed).

    ``transactions=True`` also lists every transaction (BookTransaction); ``documents=True``
    reads the invoices, bills and A/R / A/P lots too (``BookSnapshot.documents``);
    ``sales_tax`` (the sales tax accounts) the tax tables, every document's entries and the tax
    owed per agency (``BookSnapshot.sales_tax``). XML books are loaded with the split-list
    detacher (linear on 4.x-5.6; ``detach=False`` for the plain load). Raises BookWriteError
    when the book cannot be opened.
    """
    if isinstance(path, Address):
        with postgres.engine_password(password):
            return _read(
                path.url,
                path.database,
                None,
                transactions,
                on_progress,
                detach,
                documents,
                sales_tax,
            )
    path = Path(path).absolute()  # (a relative one would be under GnuCash's data folder)
    if not path.is_file():
        raise BookWriteError(f"no book at {path}")
    with path.open("rb") as f:
        sqlite = f.read(16) == b"SQLite format 3\0"
    uri = ("sqlite3://" if sqlite else "xml://") + str(path)
    xml = None if sqlite else path
    return _read(uri, path.name, xml, transactions, on_progress, detach, documents, sales_tax)


def _read(  # noqa: PLR0917 - read_book's own arguments, passed on as they came
    uri: str,
    name: str,
    xml: Path | None,
    transactions: bool,
    on_progress: Progress | None,
    detach: bool,
    documents: bool,
    sales_tax: Collection[str] | None,
) -> BookSnapshot:
    """``read_book`` of the book at ``uri`` (``xml``: the file of an XML book; None for a
    SQLite or PostgreSQL one)."""
    engine = bindings.engine()
    try:
        # begin + load rather than the constructor: a loader re-enables the journal, and the
        # constructor's SQLite path then writes a .log beside the book.
        session = Session()
        engine.log_disable()
        session.begin(uri, SessionOpenMode.SESSION_READ_ONLY)
        detached = load(session, xml, on_progress, detach)
    except GnuCashBackendException as exc:
        session.end()
        raise BookWriteError(f"GnuCash could not open {name}: {_plain(exc)}") from exc
    try:
        book = session.book
        snap = accounts.read(engine, book, transactions, on_progress)
        docs = business_documents.read(book) if documents else None
        taxes = tax.read(book, sales_tax) if sales_tax is not None else None
        found = {**business.read(engine, book), **extras.read(engine, book)}
        return replace(
            snap,
            **found,
            detached_load=detached,
            documents=docs,
            sales_tax=taxes,
        )
    finally:
        session.end()


def load(
    session: Session, xml: Path | None, on_progress: Progress | None, detach: bool = True
) -> bool:
    """The begun ``session``'s book loaded, with the split-list detacher where it can be used
    (linear on 4.x-5.6; ``xml``: the file of an XML book, None for a SQL one); whether it was.
    Raises GnuCashBackendException when the backend fails."""
    engine = bindings.engine()
    ctypes_load = detach and can_load(engine)
    total = _xml_transaction_count(xml) if xml is not None and ctypes_load else 0
    why = "" if ctypes_load else "plain load requested" if not detach else "no ctypes load"
    if xml is None and ctypes_load:
        why = load_sql_detached(engine, int(session.get_instance()))
    elif ctypes_load and total > DETACH_EVERY:
        why = load_xml_detached(engine, int(session.get_instance()), total, on_progress)
    else:
        session.load()
        why = why or "fewer transactions than one detach interval"
    session.raise_backend_errors("load")
    if why and why != refusal(engine):  # that one is logged once, in bindings.engine
        log.info("loaded without the split-list detacher: %s", why)
    engine.log_disable()
    return not why


def _xml_transaction_count(path: Path) -> int:
    """The transaction count the XML writer puts near the top of the file (0 if absent)."""
    with path.open("rb") as raw:
        gz = raw.read(2) == b"\x1f\x8b"
    with (gzip.open if gz else open)(path, "rb") as f:
        head = f.read(1 << 16)
    m = re.search(rb'<gnc:count-data cd:type="transaction">(\d+)<', head)
    return int(m.group(1)) if m else 0
