"""Exceptions that carry the user's message. No HTTP here: the web layer attaches statuses."""

from __future__ import annotations

import errno
import shutil
from collections.abc import Iterable
from pathlib import Path

from app.model import Problem
from app.source import Source


class MigrationError(Exception):
    """The migration could not go on."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or (self.__doc__ or "").strip())

    @property
    def message(self) -> str:
        return str(self.args[0])


class ParseError(MigrationError):
    """A file could not be read."""

    def __init__(self, source: Source, message: str) -> None:
        self.source = source
        super().__init__(f"{source}: {message}")


class UnknownFormatError(MigrationError):
    """This file is not a QuickBooks export that qb2gnucash knows."""


class AmbiguousFormatError(MigrationError):
    """More than one reader claims this file."""


class MappingError(MigrationError):
    """The account plan cannot be applied."""


class BookWriteError(MigrationError):
    """GnuCash could not write the book."""


class ProblemsError(MigrationError):
    """The input has problems to resolve before a book can be written."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems) or None)


class NotWritten(MigrationError):
    """Something could not be written on this computer's disk (full, read-only, not allowed)."""


def why_not_written(exc: OSError, folder: Path) -> str:
    """Why a write into ``folder`` failed, in plain words: "the disk is full (3 MB free)",
    "the folder is read-only", else the system's own words."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        try:
            free = f" ({shutil.disk_usage(folder).free // (1024 * 1024):,} MB free)"
        except OSError:
            free = ""
        return f"the disk is full{free}"
    if exc.errno == errno.EROFS:
        return "the disk or folder is read-only"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "this user may not write there"
    return (exc.strerror or str(exc)).lower()
