"""How far a reading of several files has got, for another thread to ask: the Files step's bar
while an upload is read (``app.pages.upload``), the import's while its worker reads
(``app.jobs.worker``). The reading thread says which file it starts (``file``) and how it can
be asked how far it is in it (``follow``: its rows read so far and the part of the file
read); the asking thread calls those, so the reader pays nothing per row.
No Flask; no locks: each update replaces one attribute whole (atomic in CPython)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from app import words

Rows = Callable[[], int]
Part = Callable[[], float]


@dataclass(frozen=True, slots=True)
class ReadState:
    """What is being read: the file's name, its number and how many there are, its rows read
    so far, and the part of all the files' bytes read (0-1)."""

    name: str
    n: int
    of: int
    rows: int
    part: float

    def said(self, names: Mapping[str, str] | None = None) -> str:
        """In words, as both bars say it: "Reading journal.csv — 100,214 rows read (file 2 of
        2)" (``names``: each stored file's name as the user gave it)."""
        name = (names or {}).get(self.name, self.name)
        return words.reading(name, self.rows, self.n, self.of)


def _none() -> int:
    return 0


class ReadProgress:
    """One reading of several files, followed from another thread."""

    def __init__(self) -> None:
        self._files: tuple[tuple[str, int], ...] = ()
        # (file index, its rows read, the part of it read): replaced whole at each change
        self._now: tuple[int, Rows, Part] | None = None
        self.finished = False

    def start(self, paths: Sequence[Path]) -> None:
        """The files to be read, in their order (their sizes taken now)."""
        self._files = tuple((p.name, _size(p)) for p in paths)

    def file(self, i: int) -> None:
        """The reader starts file ``i`` (nothing read of it yet)."""
        self._now = (i, _none, lambda: 0.0)

    def follow(self, rows: Rows, part: Part) -> None:
        """How to ask the reader how far it is in the current file: ``rows()`` read so far,
        ``part()`` of the file (0-1). Called once per file, by the reader."""
        if self._now is not None:
            self._now = (self._now[0], rows, part)

    def finish(self) -> None:
        """The reading is over: its readers are let go (an IIF reader's asker holds the file's
        lines), their last answers kept."""
        now = self._now
        if now is not None:
            rows = now[1]()
            self._now = (now[0], lambda: rows, lambda: 1.0)
        self.finished = True

    def now(self) -> ReadState | None:
        """Where the reading is (None before its first file). A file closed under the question
        (its reader is done with it) counts as read to its end."""
        now = self._now
        if now is None:
            return None
        i, rows, part = now
        try:
            in_file = min(1.0, max(0.0, part()))
        except (ValueError, OSError):  # closed: read
            in_file = 1.0
        sizes = [size for _, size in self._files]
        total = sum(sizes)
        done = sum(sizes[:i]) + in_file * sizes[i]
        return ReadState(
            self._files[i][0], i + 1, len(self._files), rows(), done / total if total else 0.0
        )


def through(stream: IO[Any], path: Path) -> Part:
    """The part of ``path`` read through ``stream``, asked from another thread: the position
    of its byte buffer (a text stream's, which reads ahead by a few kilobytes at most) or of the
    stream itself (text decoded as a whole), against the file's size."""
    at = getattr(stream, "buffer", stream)
    size = _size(path)
    return lambda: at.tell() / size if size else 1.0


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
