"""Exceptions that carry the user's message. No HTTP here: the web layer attaches statuses."""

from __future__ import annotations

from collections.abc import Iterable

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
