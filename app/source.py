"""Where a record came from: every record of the model keeps the file and line it was read from."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Source:
    """Where a record came from: the uploaded file's name (no directory) and its 1-based line."""

    filename: str
    line: int

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}"
