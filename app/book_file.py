"""Whether a file given as a book to bring up to date is a whole GnuCash book, told from its
bytes before GnuCash opens it: GnuCash's SQL backend opens any SQLite database for writing and
adds its own tables to it (hunt 20: a database of the user's own, refused as "not written by
qb2gnucash", grew GnuCash's 25 tables), and its XML loader takes a book cut short as far as it
reads (called "not written by qb2gnucash" too). Pure, but for reading the file."""

from __future__ import annotations

import gzip
import sqlite3
import zlib
from pathlib import Path

SQLITE = b"SQLite format 3\0"
GZIP = b"\x1f\x8b"
# the tables every GnuCash SQL book has (``gnc-backend-sql``: versions, books, accounts...)
_TABLES = {"versions", "books", "accounts", "commodities"}
_END = b"</gnc-v2>"


def fault(path: Path) -> str:
    """Why ``path`` is no whole GnuCash book ("" when it looks like one): said after "it is"."""
    with path.open("rb") as f:
        head = f.read(64)
    if not head:
        return "empty, not a GnuCash book"
    if head.startswith(SQLITE):
        return _sqlite(path)
    if head.startswith(GZIP):
        try:
            with gzip.open(path, "rb") as f:
                start, tail = f.read(4096), b""
                while chunk := f.read(1 << 20):
                    tail = (tail + chunk)[-4096:]
        except (OSError, EOFError, zlib.error):
            return "cut short or damaged (its compressed data stops early or is broken)"
        return _xml(start, tail or start)
    with path.open("rb") as f:
        start = f.read(4096)
        f.seek(max(0, path.stat().st_size - 4096))
        tail = f.read()
    return _xml(start, tail)


def _sqlite(path: Path) -> str:
    try:
        db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
        try:
            rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        finally:
            db.close()
    except sqlite3.Error as exc:
        return f"an SQLite file SQLite cannot read ({exc})"
    if not _TABLES <= {name for (name,) in rows}:
        return "an SQLite database, but not a GnuCash book (it has none of GnuCash's tables)"
    return ""


def _xml(start: bytes, tail: bytes) -> str:
    if b"<gnc-v2" not in start:
        return "not a GnuCash book (neither GnuCash's XML nor SQLite)"
    if _END not in tail:
        return "cut short or damaged (its XML stops before the book's end)"
    return ""
