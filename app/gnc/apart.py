"""Work done in a forked child process, its result handed back to the parent.

The writer builds the book in a child (``app.gnc.session.write_book_apart``): the book it builds
(a few hundred MiB at 100,000 transactions, never destroyed because ``session.destroy()`` is
quadratic on 4.13) is given back to the system when the child exits, and the parent, which never
held it, reads the saved book back into a heap that is not fragmented by it (measured: GnuCash's
load of a 100,000-transaction book takes 15.8 s in a fresh process and 19.2 s beside another
loaded book). docs/ENGINE.md, "The writer's child process".

The child inherits everything (the prepared ledger, GnuCash's process-global state), so nothing
is copied in; what comes back is pickled through a pipe: each progress report as it happens, then
the work's value or its exception. The child dies with its parent (``PR_SET_PDEATHSIG``: SIGTERM,
raised as SystemExit so that the work's own clean-up runs).
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import pickle
import signal
import sys
import traceback
from collections.abc import Callable, Iterator
from typing import IO, TypeVar

from app.errors import BookWriteError
from app.gnc.context import Progress

log = logging.getLogger(__name__)
T = TypeVar("T")
U = TypeVar("U")
_PR_SET_PDEATHSIG = 1


def can_fork() -> bool:
    """Whether a child can be forked safely here: ``os.fork`` exists and this process runs one
    thread (a fork copies only the calling thread: a lock another thread holds would never be
    released in the child). Else the work runs in this process."""
    if not hasattr(os, "fork"):
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:  # no procfs: not the Linux this was measured on
        return False


def run(
    work: Callable[[Progress | None], T],
    on_progress: Progress | None,
    gone: Callable[[int], None],
    meanwhile: Callable[[], U],
) -> tuple[T, U]:
    """``work(progress)`` run in a forked child; its value (or its exception, raised here),
    and what ``meanwhile()`` gave, run here while the child works (on the other core). The
    child's progress reports reach ``on_progress`` here as they happen (those sent during
    ``meanwhile`` once it is done). ``gone(pid)``: called here when the child did not finish
    normally (it crashed, or this process was interrupted or failed: the child is then
    killed), to remove what a child of that pid may have left."""
    read_end, write_end = os.pipe()
    parent = os.getpid()
    sys.stdout.flush()  # (else what is buffered would be written by both processes)
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_end)
        _child(work, os.fdopen(write_end, "wb"), parent, on_progress is not None)
    os.close(write_end)
    status: int | None = None  # the child's, once reaped
    last = ""  # the child's last word: "done" or "error"
    try:
        with os.fdopen(read_end, "rb") as pipe:
            side = meanwhile()
            for message in _messages(pipe):
                if message[0] == "progress":
                    if on_progress is not None:
                        on_progress(*message[1:])
                    continue
                last = message[0]
                if last == "done":
                    return message[1], side
                _, exc, words, text = message  # the child's exception (or its words)
                log.debug("the writer's child process failed:\n%s", text)
                raise exc if exc is not None else BookWriteError(words)
        _, status = os.waitpid(pid, 0)  # the pipe closed without a last word: a crash
        raise BookWriteError(
            "GnuCash stopped while writing the book (its process ended without a word"
            f"{_status(status)}); nothing was written"
        )
    finally:
        if status is None:
            if not last:  # this process was interrupted: the child is stopped
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
        if last != "done" or status != 0:
            gone(pid)


def _messages(pipe: IO[bytes]) -> Iterator[tuple]:
    """The child's messages, until the pipe closes."""
    while True:
        try:
            yield pickle.load(pipe)
        except EOFError:
            return


def _status(status: int) -> str:
    if status and os.WIFSIGNALED(status):
        return f", signal {os.WTERMSIG(status)}"
    if status and os.WIFEXITED(status):
        return f", status {os.WEXITSTATUS(status)}"
    return ""


def _child(
    work: Callable[[Progress | None], object], out: IO[bytes], parent: int, reports: bool
) -> None:
    """The child's whole life: dies with its parent, runs the work, sends back what came of it,
    exits without Python's or GnuCash's clean-up (the system takes the memory back at once)."""
    code = 1
    try:
        _die_with(parent)

        def progress(phase: str, done: int, total: int) -> None:
            pickle.dump(("progress", phase, done, total), out)
            out.flush()

        try:
            message: tuple = ("done", work(progress if reports else None))
        except BaseException as exc:  # every failure goes back to the parent
            message = ("error", exc, str(exc) or type(exc).__name__, traceback.format_exc())
        try:
            data = pickle.dumps(message)
        except Exception as exc:  # an exception that cannot be pickled: its words
            if message[0] == "done":  # (a value that cannot: said, never handed back as None)
                words = f"the result could not be handed back from GnuCash's process: {exc}"
                message = ("error", None, words, traceback.format_exc())
            data = pickle.dumps((message[0], None, *message[2:]))
        out.write(data)
        out.flush()
        code = 0
    finally:
        os._exit(code)


def _raise_exit(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def _die_with(parent: int) -> None:
    """SIGTERM when the parent dies (Linux), raised as SystemExit: the work's own ``finally``
    blocks remove what it had begun."""
    signal.signal(signal.SIGTERM, _raise_exit)
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the line above
        raise SystemExit(1)
