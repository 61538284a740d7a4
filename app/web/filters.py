"""Every template filter: how the wizard shows money, counts, problems, file names and the import
job's state and phase. Templates do no formatting of their own; each filter is registered under
its function's name."""

from __future__ import annotations

from typing import Protocol

from flask import Flask, g

from app import proof_state, words
from app.fixes import with_fix
from app.jobs import ImportJob
from app.model import Problem, money
from app.pages.update import updated_name

JOB_STATES = {  # the home page's word for a migration's last import
    "queued": "importing…",
    "running": "importing…",
    "done": "book written",
    "differs": "book written, but it differs from QuickBooks",
    "failed": "import failed",
    "cancelled": "import cancelled",
    "interrupted": "import interrupted",
}


def count(n: int) -> str:
    """A number of things, with thousands separators: 12,345."""
    return f"{n:,}"


def kilobytes(size: int) -> str:
    """A file size in whole KB, with thousands separators; under 1 KB in bytes (a 417-byte file
    read "0 KB")."""
    return f"{size:,} bytes" if size < 1024 else f"{size / 1024:,.0f} KB"


def disk_size(size: int) -> str:
    """Space on disk in the unit that reads best: 820 KB, 12.4 MB, 1.2 GB."""
    for unit, scale in (("GB", 1024**3), ("MB", 1024**2)):
        if size >= scale:
            return f"{size / scale:,.1f} {unit}"
    return f"{max(size, 1024 if size else 0) / 1024:,.0f} KB"


def job_state(state: str) -> str:
    return JOB_STATES.get(state, state)


def differ_words(job: ImportJob) -> str:
    """The proof's verdict of a written job, in the words every step uses
    (``app.proof_state``): "Matches QuickBooks to the cent", "Ledger matches; open items of 2
    vendors allocated differently", "Needs your attention: 3 accounts differ"."""
    if job.proof:
        return job.verdict.words()
    if job.state == "done":  # a job written before the verdict was kept
        return proof_state.MATCHES
    return proof_state.words("attention", job.differences, 0 if job.differences else 1)


def proof_class(job: ImportJob) -> str:
    """The colour of a written job's verdict: "ok" (green), "warn" (the ledger matches: amber),
    "error" (red)."""
    state = job.proof or ("matches" if job.state == "done" else "attention")
    return proof_state.colour(state, job.named)


def job_progress(job: ImportJob) -> str:
    """What a running import is doing, in plain words, with its count when it has one: the
    file being read with its rows, as the upload's bar says it (the stored name: ``shown``)."""
    reading = job.reading
    return reading.said() if reading else words.progress(job.phase, job.done, job.total)


class Progress(Protocol):  # an import (ImportJob) or an upload (app.pages.upload)
    @property
    def percent(self) -> int: ...

    def seconds_left(self) -> float | None: ...


def eta(p: Progress) -> str:
    """A bar's whole percentage and the time left: "62 % · about 40 s left"."""
    return words.percent_left(p.percent, p.seconds_left())


def problem(p: Problem) -> str:
    """A finding as the wizard says it: place, message and what to do on which step; each file
    by the name the user gave it (``shown``)."""
    return shown(with_fix(str(p), p.fix, "wizard"))


def shown(text: object) -> str:
    """A file name, a problem or a place with each upload's stored name replaced by the name the
    user gave it (the page escapes the result like any text)."""
    out = str(text)
    m = g.get("migration")
    if m is None or not out:
        return out
    if "shown_names" not in g:  # once per request: a page may show hundreds of problems
        g.shown_names = sorted(m.display_names().items(), key=lambda kv: -len(kv[0]))
    for stored, given in g.shown_names:
        out = out.replace(stored, given)
    return out


plural = words.plural
differ = words.differ
article = words.article
count_name = words.count_name
encoding_name = words.encoding_name

FILTERS = (
    money,
    plural,
    differ,
    article,
    count_name,
    encoding_name,
    count,
    kilobytes,
    disk_size,
    job_state,
    differ_words,
    proof_class,
    job_progress,
    eta,
    problem,
    shown,
    updated_name,
)


def setup_filters(app: Flask) -> None:
    for f in FILTERS:
        app.add_template_filter(f)
