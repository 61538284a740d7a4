"""The writer's child process (app/gnc/apart.py, ``gnc.write_book_apart``): the book written in a
forked child whose memory goes back to the system when it exits, its progress and result handed
back, its failures said and nothing of them left behind; where a fork would not be safe (more
than one thread), the same work in the process itself."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from app.errors import BookWriteError
from app.gnc import apart
from app.gnc.session import write_book_apart
from tests.paths import ROOT

# A generated company converted by pipeline.write in a fresh interpreter (one thread: the writer
# forks there whatever threads this test process may run), then what the child did, as JSON.
_CONVERT = """
import json, os, sys
from pathlib import Path
from app import gnc, pipeline
from app.plan import Plan
from tests.support.companygen import make_company

out = Path(sys.argv[1])
company = make_company(600, seed=3, documents=True)
files = company.write_all(out / "exports")
plan = Plan()
prepared = pipeline.prepare(pipeline.read([files["lists"], files["transactions_iif"]], plan), plan)
reports = []
outcome = pipeline.write(
    prepared, out / "book.gnucash", plan, lambda p, d, t: reports.append((p, os.getpid()))
)
print(json.dumps({
    "apart": outcome.stats.apart,
    "ok": outcome.report.ok,
    "pid": os.getpid(),
    "phases": list(dict.fromkeys(p for p, _ in reports)),
    "reporters": sorted({pid for _, pid in reports}),
    "rows": [(r.account, r.quickbooks_account) for r in outcome.report.rows
             if r.quickbooks_account],
    "transactions": outcome.snapshot.transactions,
}))
"""


_PNL = {"INCOME", "EXPENSE", "EQUITY"}  # (their figures are the year's, or closed into equity)


def _must_fork() -> None:
    assert apart.can_fork(), "this test process runs more than one thread: the fork is refused"


def _idle() -> None:
    """Nothing to do here while the child works."""


def test_the_book_is_written_in_a_child_and_proven_in_the_parent(tmp_path):
    run = subprocess.run(
        [sys.executable, "-c", _CONVERT, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert run.returncode == 0, run.stderr
    said = json.loads(run.stdout.strip().splitlines()[-1])
    assert said["apart"] is True and said["ok"] is True, said
    # every progress report (the child's writing, then the read-back) reached the caller
    assert said["reporters"] == [said["pid"]]
    assert said["phases"][0] == "accounts" and "saving" in said["phases"]
    assert said["phases"].index("saving") < said["phases"].index("reading")
    assert "documents" in said["phases"]  # (reported by the documents pass, in the child)
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no partials
    # the book, reopened here with the bindings, holds the generator's figures: every balance
    # sheet account's balance (the proof's rows name the book's account of each QuickBooks one)
    from app import gnc
    from tests.support.companygen import make_company

    truth = make_company(600, seed=3, documents=True).trial_balance()
    book = gnc.read_book(tmp_path / "book.gnucash")
    sheet = [(a, q) for a, q in said["rows"] if book.account(a).type not in _PNL]
    assert len(sheet) >= 10
    assert all(book.account(a).balance == truth[q] for a, q in sheet)
    assert book.transactions == said["transactions"]


def test_the_childs_value_and_progress_come_back(tmp_path):
    _must_fork()
    reports: list[tuple[str, int, int]] = []

    def build(progress):
        for i in range(3):
            progress("saving", i, 2)
        return os.getpid(), [1, 2]

    on_progress = lambda phase, done, total: reports.append((phase, done, total))  # noqa: E731
    (pid, data), side, forked = write_book_apart(build, tmp_path / "x.gnucash", on_progress, _idle)
    assert forked and pid != os.getpid() and data == [1, 2] and side is None
    assert reports == [("saving", 0, 2), ("saving", 1, 2), ("saving", 2, 2)]


def test_the_parents_own_work_runs_while_the_child_writes(tmp_path):
    """``meanwhile`` runs here at the same time as the child: the child waits for a file only
    this process makes, and this process for one only the child makes."""
    _must_fork()
    mine, childs = tmp_path / "parent-started", tmp_path / "child-started"

    def wait_for(path: Path) -> None:
        for _ in range(1000):
            if path.exists():
                return
            threading.Event().wait(0.01)
        raise TimeoutError(path.name)

    def build(progress):
        childs.write_text(str(os.getpid()))
        wait_for(mine)
        return os.getpid()

    def meanwhile():
        mine.write_text(str(os.getpid()))
        wait_for(childs)
        return os.getpid()

    child, here, forked = write_book_apart(build, tmp_path / "x.gnucash", None, meanwhile)
    assert forked and here == os.getpid() != child == int(childs.read_text())


def test_the_childs_exception_is_raised_here(tmp_path):
    _must_fork()

    def build(progress):
        raise BookWriteError("GnuCash could not write x.gnucash: the disk is full")

    with pytest.raises(BookWriteError, match="the disk is full"):
        write_book_apart(build, tmp_path / "x.gnucash", None, _idle)


def test_an_exception_that_cannot_be_pickled_comes_back_in_words(tmp_path):
    _must_fork()

    class Odd(Exception):
        def __reduce__(self):
            raise TypeError("not picklable")

    def build(progress):
        raise Odd("the engine said no")

    with pytest.raises(BookWriteError, match="the engine said no"):
        write_book_apart(build, tmp_path / "x.gnucash", None, _idle)


def test_a_value_that_cannot_be_pickled_is_an_error_never_none(tmp_path):
    """A result the child cannot hand back (it holds a local function) was sent as "done" with
    None, and the caller failed on None with a traceback; it is an error in words."""
    _must_fork()

    def build(progress):
        return {"daily": lambda: 0}

    with pytest.raises(BookWriteError, match="could not be handed back"):
        write_book_apart(build, tmp_path / "x.gnucash", None, _idle)


def test_a_problems_error_comes_back_with_its_problems(tmp_path):
    """The input's problems raised in the child come back as they are (an exception pickles
    its attributes with it), for the caller to say each at its line."""
    from app.errors import ProblemsError
    from app.model import Problem
    from app.source import Source

    _must_fork()
    found = (Problem(Source("journal.csv", 12), "an amount that is no amount"),)

    def build(progress):
        raise ProblemsError(found)

    with pytest.raises(ProblemsError) as raised:
        write_book_apart(build, tmp_path / "x.gnucash", None, _idle)
    assert raised.value.problems == found


def test_a_child_that_dies_is_said_and_leaves_nothing(tmp_path):
    _must_fork()
    book = tmp_path / "book.gnucash"

    def build(progress):  # the way GnuCash's writer names its temporary file, then a crash
        (tmp_path / f".{book.name}.partial-{os.getpid()}").write_bytes(b"half a book")
        (tmp_path / f".{book.name}.partial-{os.getpid()}.LCK").write_bytes(b"")
        os.kill(os.getpid(), signal.SIGKILL)

    with pytest.raises(BookWriteError, match=r"GnuCash stopped while writing the book.*signal 9"):
        write_book_apart(build, book, None, _idle)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("how", ["interrupted", "its own work failed"])
def test_a_parent_that_stops_stops_its_child_and_leaves_nothing(tmp_path, how):
    """Interrupted while relaying the child's progress, or its own work (``meanwhile``) failed:
    the child is killed and reaped, its partial files removed."""
    _must_fork()
    book = tmp_path / "book.gnucash"
    child: list[int] = []

    def build(progress):
        (tmp_path / f".{book.name}.partial-{os.getpid()}").write_bytes(b"")
        progress("transactions", 1, 10)
        threading.Event().wait(60)  # (killed long before)

    def stop(*_args):
        while not child:  # the child's partial file is there
            child.extend(int(p.name.rsplit("-", 1)[1]) for p in tmp_path.iterdir())
            threading.Event().wait(0.01)
        raise KeyboardInterrupt if how == "interrupted" else ValueError("the proof's side failed")

    with pytest.raises(KeyboardInterrupt if how == "interrupted" else ValueError):
        if how == "interrupted":
            write_book_apart(build, book, stop, _idle)
        else:
            write_book_apart(build, book, None, stop)
    assert child and list(tmp_path.iterdir()) == []
    with pytest.raises(ProcessLookupError):  # reaped: gone, not a zombie
        os.kill(child[0], 0)


def test_with_another_thread_running_the_work_stays_in_this_process():
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not apart.can_fork()
        value, side, forked = write_book_apart(
            lambda progress: os.getpid(), Path("x.gnucash"), None, lambda: "after"
        )
    finally:
        stop.set()
        other.join()
    assert (value, side, forked) == (os.getpid(), "after", False)
