"""The upload's one bar (the Files step), like the import's (``app.jobs``): sending the files
(the browser's count of bytes sent), reading them (the part of their bytes the readers have
got through, with the rows read), checking what they hold, and preparing the preview; one
percentage over all four that never goes back, and the time left once it can be told. No
Flask: the browser's numbers and the server's stage come in as plain values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app import words
from app.progress import Phases, seconds_left
from app.read_progress import ReadProgress, ReadState

# Each phase's share of the bar, measured at 100,000 transactions (a 25 MB Journal, the
# server's part: reading 1.9 s, checking 1.8 s, the preview's models 1.7 s) with a share for
# sending, which takes no time on this machine and the most over a slow network.
UPLOAD = Phases((("sending", 20), ("reading", 40), ("checking", 20), ("preview", 20)))
STAGES = ("reading", "preview", "done")  # what the server says (checking: the reading is over)


@dataclass(frozen=True, slots=True)
class UploadProgress:
    """Where an upload is: its phase, how far in it (``done`` of ``total``), the seconds
    since it began (the browser's clock), and the file being read with its rows."""

    phase: str
    done: float = 0
    total: float = 0
    elapsed: float = 0.0
    reading: ReadState | None = None

    @property
    def percent(self) -> int:
        return int(UPLOAD.overall(self.phase, self.done, self.total))

    @property
    def step(self) -> tuple[int, int]:
        return UPLOAD.step(self.phase)

    def seconds_left(self) -> float | None:
        return seconds_left(self.elapsed, UPLOAD.overall(self.phase, self.done, self.total))

    def said(self, names: Mapping[str, str]) -> str:
        """What it does, in words: "Reading journal.csv — 100,214 rows read (file 2 of 2)"
        (``names``: each stored file's name as the user gave it)."""
        r = self.reading
        if self.phase == "reading" and r is not None:
            return r.said(names)
        return words.UPLOAD_PHASES.get(self.phase, self.phase)


def upload_progress(
    stage: str | None, seen: ReadProgress | None, sent: int, size: int, elapsed: float
) -> UploadProgress:
    """The bar's state from the server's ``stage`` of this upload (None: not arrived yet, so
    still being sent: ``sent`` of ``size`` bytes, the browser's count) and its reading."""
    if stage is None:
        return UploadProgress("sending", sent, size, elapsed)
    if stage == "reading":
        if seen is not None and seen.finished:
            return UploadProgress("checking", 0, 1, elapsed)
        now = seen.now() if seen is not None else None
        return UploadProgress("reading", now.part if now else 0, 1, elapsed, now)
    return UploadProgress(stage, 0, 1, elapsed)
