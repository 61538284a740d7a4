"""Where an update puts the book it brought up to date (``app.update_run``): the book given
checked, the copy written, read back and proven beside it (a hidden file, or a database on the
same PostgreSQL server), then put in place with the previous book kept as a backup."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from app import libpq, postgres
from app.errors import BookWriteError
from app.postgres import Address


def checked(book: Path | Address, password: str | None = None) -> tuple[Path | Address, str]:
    """The book to update (a file made absolute) and its name for messages; BookWriteError
    when there is none there (``password``: a PostgreSQL server's, else PGPASSWORD's)."""
    if isinstance(book, Address):  # (a book in PostgreSQL: docs/UPDATE.md)
        if postgres.state(book, password) != "book":
            raise BookWriteError(f"no GnuCash book in the database {book.database} on {book.host}")
        return book, book.database
    book = book.absolute()
    if not book.is_file():
        raise BookWriteError(f"no book at {book}")
    return book, book.name


@contextmanager
def staged(book: Path | Address, password: str | None = None) -> Iterator[Path | Address]:
    """Where the updated copy is written, read back and proven: a hidden file beside the book,
    or a database beside it on its server; removed at the end unless put in place."""
    if isinstance(book, Address):
        with staged_database(book, password) as copy:
            yield copy
        return
    staged = book.with_name(f".{book.name}.partial-update-{os.getpid()}")
    try:
        yield staged
    finally:
        staged.unlink(missing_ok=True)


def put_in_place(
    staged: Path | Address, book: Path | Address, password: str | None = None
) -> Path | str:
    """The proven copy becomes the book; the previous book stays beside it as a backup (a
    hard link to it where the disk allows, else a copy; in PostgreSQL the database renamed),
    named by the time of the update."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    if isinstance(book, Address):
        assert isinstance(staged, Address)
        kept = f"{book.database[:32]}_before_update_{stamp.replace('-', '_')}"
        database_in_place(book, staged, kept, password)
        return f"the database {kept} on {book.host}"
    assert isinstance(staged, Path)
    backup = book.with_name(f"{book.stem}.before-update-{stamp}{book.suffix}")
    try:
        try:
            os.link(book, backup)
        except OSError:
            shutil.copy2(book, backup)
        staged.chmod(0o600)
        os.replace(staged, book)
    except OSError as exc:
        raise BookWriteError(f"cannot put the updated book in place at {book}: {exc}") from exc
    return backup


@contextmanager
def staged_database(address: Address, password: str | None = None) -> Iterator[Address]:
    """A new database beside ``address``'s for a copy of its book brought up to date (written,
    read back and proven there; a name of its own each run), dropped at the end unless the body
    put it in place (``database_in_place``: it is then ``address``'s, and the name is free)."""
    name = f"{address.database[:40]}_qb2gnucash_{secrets.token_hex(4)}"
    where = replace(address, database=name)
    why = "an update writes its copy of the book to a new database beside it"
    postgres.create_database(address, where.database, password, why)
    try:
        yield where
    finally:
        with contextlib.suppress(libpq.PgError, BookWriteError):
            postgres.drop_database(address, where.database, password)


def database_in_place(
    address: Address, copy: Address, backup: str, password: str | None = None
) -> None:
    """The proven ``copy`` (``staged_database``) becomes ``address``'s book, the previous one
    kept on the server as the database ``backup``: both renames in one transaction (PostgreSQL
    allows ALTER DATABASE … RENAME in one), so the book is at its address at every moment, and
    a rename that fails undoes the other. BookWriteError saying the book is left as it was."""

    def swap(conn: libpq.Connection) -> None:
        target, kept = conn.identifier(address.database), conn.identifier(backup)
        conn.run(postgres.FREE, [copy.database])
        conn.run("BEGIN")
        try:
            conn.run(f"ALTER DATABASE {target} RENAME TO {kept}")
            conn.run(f"ALTER DATABASE {conn.identifier(copy.database)} RENAME TO {target}")
            conn.run("COMMIT")
        except libpq.PgError as exc:
            conn.run("ROLLBACK")
            if exc.sqlstate == "55006":  # object_in_use: someone has it open
                raise postgres.in_use(address) from None
            raise BookWriteError(
                f"cannot put the updated copy in place of {address.database} ({exc.detail}): "
                "the book is left as it was"
            ) from None

    postgres.maintenance(address, password, swap)
