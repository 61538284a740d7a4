"""Where a record came from: every record of the model keeps the file and line it was read from."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

_SHOWN_LINES = 5


@dataclass(frozen=True, slots=True, order=True)
class Source:
    """Where a record came from: the uploaded file's name (no directory) and its 1-based line."""

    filename: str
    line: int

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}"


def line_list(sources: Iterable[Source]) -> str:
    """``lines 12-14`` for one file's consecutive lines, else the first few places and a count."""
    places = sorted(set(sources))
    files = {s.filename for s in places}
    lines = [s.line for s in places]
    if len(files) == 1 and len(lines) > 1 and lines == list(range(lines[0], lines[-1] + 1)):
        return f"lines {lines[0]}-{lines[-1]}"
    if len(files) == 1:
        shown = ", ".join(str(n) for n in lines[:_SHOWN_LINES])
        word = "line" if len(lines) == 1 else "lines"
    else:
        shown = ", ".join(str(s) for s in places[:_SHOWN_LINES])
        word = "line" if len(places) == 1 else "lines"
    more = len(places) - _SHOWN_LINES
    return f"{word} {shown}" + (f" and {more} more" if more > 0 else "")
