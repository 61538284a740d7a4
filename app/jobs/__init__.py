"""Background imports: one worker process per job, its state in ``<migration>/job.json``; this
module is the protocol both sides share (``ImportJob``, load/save), ``runner`` the server's side,
``worker`` the process's.

The GnuCash engine is C code with process-global state, so the book is written by a separate
process (``python -m app.jobs.worker <migration dir> <job id>``) that reads the uploads and the plan
itself: nothing but paths crosses the process boundary. The worker writes its state atomically
(phase, done/total, pid, state); the server only reads it. A job whose worker is gone while
the file still says queued/running (the worker crashed, was killed, or the server stopped with
it) is reported "interrupted" and can be started again. The last written book stays on offer
(moved to ``out/previous/``) until a new import has written its own. No Flask here.
"""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Literal, get_args

from app.fileio import read_json, write_json
from app.progress import IMPORT, IMPORT_LEG
from app.proof_state import State, Verdict
from app.read_progress import ReadState

# "done": written and every balance matches QuickBooks; "differs": written, but the proof found
# differences (the book is offered only behind them). Both have a book.
JobState = Literal["queued", "running", "done", "differs", "failed", "cancelled", "interrupted"]
ACTIVE: tuple[JobState, ...] = ("queued", "running")
WRITTEN: tuple[JobState, ...] = ("done", "differs")
STATES: tuple[JobState, ...] = get_args(JobState)


SHOWN_PHASES = IMPORT.shown  # (its leg of the one bar: app.progress)
READING = "reading files"
READ_PARTS = 1000  # the reading's done/total: thousandths of the files' bytes read


def overall(phase: str, done: int, total: int) -> float:
    """How far the one bar from upload to proof is at this phase of the import, 0-100."""
    return IMPORT_LEG.overall(phase, done, total)


@dataclass(frozen=True, slots=True)
class ImportJob:
    id: str
    state: JobState = "queued"
    phase: str = ""
    done: int = 0
    total: int = 0
    # while the files are read: the one being read (its stored name), its number of how many,
    # and its rows read so far
    file: str = ""
    file_n: int = 0
    files: int = 0
    rows: int = 0
    pid: int | None = None
    error: str = ""
    problems: tuple[str, ...] = ()
    book: str = ""  # file name under out/ once written (a book in PostgreSQL: only its name)
    database: str = ""  # the book's PostgreSQL database (postgres://USER@HOST:PORT/DB), if there
    differences: int = 0  # accounts whose balance differs from QuickBooks' ("differs")
    # the proof's verdict (``app.proof_state``): "matches", "allocated" or "attention" ("":
    # an older job's), other checks that differ, customers and vendors whose open items differ
    proof: str = ""
    checks: int = 0
    customers: int = 0
    vendors: int = 0
    jobs: int = 0
    named: tuple[str, ...] = ()  # what differs besides those, by name (``Verdict.named``)
    created: float = 0.0
    finished: float = 0.0
    settings: str = ""  # Migration.settings_sha() when the job started ("": an older job's)

    @property
    def active(self) -> bool:
        return self.state in ACTIVE

    @property
    def verdict(self) -> Verdict:
        """The proof's verdict as the job keeps it (``proof`` "": an older job's)."""
        state: State = self.proof if self.proof in get_args(State) else "attention"  # type: ignore[assignment]
        counts = (self.differences, self.checks, self.customers, self.vendors)
        return Verdict(state, *counts, named=self.named, jobs=self.jobs)

    @property
    def written(self) -> bool:
        return self.state in WRITTEN

    @property
    def percent(self) -> int:
        """The one bar's progress (``overall``), not the phase's own: the upload's leg done."""
        return int(overall(self.phase, self.done, self.total))

    @property
    def step(self) -> tuple[int, int]:
        """(this phase's number, how many there are, the upload's steps counted first): "step
        8 of 13"; (0, n) before any."""
        return IMPORT_LEG.step(self.phase)

    @property
    def reading(self) -> ReadState | None:
        """The file being read and its rows, while the files are read (None before the
        first file and after the reading)."""
        if self.phase != READING or not self.file:
            return None
        part = self.done / self.total if self.total else 0.0
        return ReadState(self.file, self.file_n, self.files, self.rows, part)

    def seconds_left(self, now: float | None = None) -> float | None:
        """The time left at the pace so far; None until there is enough to tell (a few
        seconds and a few percent)."""
        if not self.created:
            return None
        elapsed = (now if now is not None else time.time()) - self.created
        return IMPORT_LEG.seconds_left(elapsed, self.phase, self.done, self.total)

    @property
    def finished_at(self) -> str:
        when = dt.datetime.fromtimestamp(self.finished) if self.finished else None
        return when.strftime("%Y-%m-%d %H:%M") if when else ""


# The server that started a worker (its pid): the worker watches it from its first line, not
# from when its imports are done (a server dying in between would leave it running unwatched).
SERVER_PID = "QB2GNUCASH_SERVER_PID"
PREVIOUS = "previous"  # out/previous/: the last written book while a new import runs or after it
# failed, was cancelled or interrupted (with its result, report and job.json)


@dataclass(frozen=True, slots=True)
class Book:
    """A book to offer: its job, the folder holding it (with its result.json and report.csv),
    and whether it is from an import before the latest (made with the settings of then)."""

    job: ImportJob
    folder: Path
    previous: bool

    @property
    def path(self) -> Path:
        return self.folder / self.job.book


def previous_dir(out_dir: Path) -> Path:
    return out_dir / PREVIOUS


def now() -> float:
    return time.time()


def load(path: Path) -> ImportJob | None:
    data = read_json(path)
    if not data.get("id"):
        return None
    known = {f.name for f in fields(ImportJob)}
    data = {k: v for k, v in data.items() if k in known}
    data["problems"] = tuple(data.get("problems", ()))
    data["named"] = tuple(data.get("named", ()))
    if data.get("state") not in STATES:
        return None
    return ImportJob(**data)


def save(path: Path, job: ImportJob) -> None:
    write_json(path, asdict(job))
