"""The upload's one bar (the Files step), like the import's (``app.jobs``): sending the files
(the browser's count of bytes sent), reading them (the part of their bytes the readers have
got through, with the rows read), checking what they hold, and preparing the preview; one
percentage over all four that never goes back, and the time left once it can be told: the
first leg of the one bar from upload to proof, which the import goes on with. No
Flask: the browser's numbers and the server's stage come in as plain values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from app import words
from app.progress import IMPORT, UPLOAD, UPLOAD_LEG
from app.read_progress import ReadProgress, ReadState

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
        return int(UPLOAD_LEG.overall(self.phase, self.done, self.total))

    @property
    def step(self) -> tuple[int, int]:
        return UPLOAD_LEG.step(self.phase)

    def seconds_left(self) -> float | None:
        return UPLOAD_LEG.seconds_left(self.elapsed, self.phase, self.done, self.total)

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


def bar_names(leg: Literal["upload", "import"]) -> list[tuple[str, str]]:
    """The steps of the one bar from upload to proof as the list under it says them, each
    (its number, its name in a word or two; ``app.progress``): on the Files step the upload's,
    then the import's in one line (they run only after Preview and Map: hunt 28), on the
    Import step every one."""
    upload = [(str(i), words.UPLOAD_PHASE_NAMES[p]) for i, p in enumerate(UPLOAD.shown, 1)]
    n = len(upload)
    if leg == "upload":
        later = f"{n + 1}–{n + len(IMPORT.shown)}"
        return [*upload, (later, "then, on the Import step: write the book and prove it")]
    return upload + [(str(i), words.PHASE_NAMES[p]) for i, p in enumerate(IMPORT.shown, n + 1)]
