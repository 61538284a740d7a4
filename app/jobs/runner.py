"""The server's side of background imports: start, watch and cancel worker processes.

A job whose worker is gone while ``job.json`` still says queued/running (the worker crashed, was
killed, or the server stopped with it) is reported "interrupted" and can be started again.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from werkzeug.utils import secure_filename

from app.errors import NotWritten, why_not_written
from app.jobs import SERVER_PID, Book, ImportJob, load, now, previous_dir, save
from app.store import Migration

START_GRACE = 60.0  # seconds a queued job may wait for its worker to report its pid
ROOT = Path(__file__).resolve().parent.parent.parent


def _pid_runs(pid: int, job_id: str) -> bool:
    """Whether ``pid`` is still this job's worker (pids are reused, so check the command)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        if not Path("/proc/self").exists():  # no procfs (not Linux): ask the kernel
            try:
                os.kill(pid, 0)
            except OSError:
                return False
            return True
        return False
    return job_id.encode() in cmdline


class JobRunner:
    """Starts, watches and cancels workers; kept in ``app.extensions["jobs"]``."""

    def __init__(self) -> None:
        self._procs: dict[str, subprocess.Popen] = {}  # this server's children, to reap them
        self._lock = threading.Lock()

    def get(self, m: Migration) -> ImportJob | None:
        """The migration's latest job, "interrupted" if its worker is gone."""
        job = load(m.job_path)
        if job is not None and not job.active:
            self._reap(job.id)
        if job is None or not job.active or self._alive(job):
            return job
        job = load(m.job_path)  # the worker may have finished between the two reads
        if job is not None and job.active and not self._alive(job):
            job = replace(
                job,
                state="interrupted",
                error="The import stopped before it finished (the worker process ended or the "
                "server was restarted). Start it again.",
                finished=now(),
            )
            save(m.job_path, job)
            _remove_partials(m)  # the dead worker's temporary book and GnuCash's lock on it
        return job

    def book(self, m: Migration) -> Book | None:
        """The book to offer: the latest job's, else the one kept from before it (``previous``:
        made with earlier settings), while it is there."""
        latest = self.get(m)
        if latest is not None and latest.written and _holds(m.out_dir, latest):
            return Book(latest, m.out_dir, previous=False)
        kept_dir = previous_dir(m.out_dir)
        kept = load(kept_dir / "job.json")
        if kept is not None and kept.written and _holds(kept_dir, kept):
            return Book(kept, kept_dir, previous=latest is None or kept.id != latest.id)
        return None

    def _reap(self, job_id: str) -> None:
        """A finished job's worker exits right after its last write: collect it."""
        with self._lock:
            proc = self._procs.pop(job_id, None)
        if proc is not None:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def shutdown(self) -> None:
        """Stop this server's workers (their jobs then show as interrupted)."""
        with self._lock:
            procs, self._procs = list(self._procs.values()), {}
        for proc in procs:
            proc.kill()
            proc.wait()

    def _alive(self, job: ImportJob) -> bool:
        with self._lock:
            proc = self._procs.get(job.id)
            if proc is not None:
                if proc.poll() is None:
                    return True
                del self._procs[job.id]
                return False
        if job.pid:
            return _pid_runs(job.pid, job.id)
        return now() - job.created < START_GRACE  # a worker of an earlier server, not yet up

    def submit(self, m: Migration, env: Mapping[str, str] | None = None) -> ImportJob:
        """Start an import unless one is running (then that one is returned). ``env``: added to
        the worker's environment (a database password: never on its command line or on disk)."""
        current = self.get(m)
        if current is not None and current.active:
            return current
        job = ImportJob(
            id=secrets.token_urlsafe(12),
            created=now(),
            phase="starting",
            settings=m.settings_sha(),
        )
        staged = m.path / ".job.next.json"
        try:
            save(staged, job)  # first: a full disk stops here, before the last book is moved
            _keep_last_book(m, current)
            staged.replace(m.job_path)
        except OSError as exc:
            staged.unlink(missing_ok=True)
            _unkeep_last_book(m)
            raise NotWritten(
                f"The import could not start: {why_not_written(exc, m.path)}. Nothing was "
                "changed: the book written before stays on offer. Free some space (deleting an "
                "earlier migration on the home page frees its files) and start it again."
            ) from exc
        env = {**os.environ, **(env or {}), "PYTHONPATH": str(ROOT), SERVER_PID: str(os.getpid())}
        if env.get("PGPASSFILE", "").startswith("/proc/self/fd/"):  # (this process's, in use)
            del env["PGPASSFILE"]
        with (m.path / "worker.log").open("ab") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "app.jobs.worker", str(m.path), job.id],
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        with self._lock:
            self._procs[job.id] = proc
        return job

    def cancel(self, m: Migration) -> ImportJob | None:
        """Stop the worker (the writer's temporary file never becomes the book)."""
        job = self.get(m)
        if job is None or not job.active:
            return job
        with self._lock:
            proc = self._procs.pop(job.id, None)
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        elif job.pid and _pid_runs(job.pid, job.id):
            with contextlib.suppress(ProcessLookupError):
                os.kill(job.pid, signal.SIGKILL)
        latest = load(m.job_path) or job
        if latest.active:  # not if it finished meanwhile
            latest = replace(
                latest, state="cancelled", error="No new book was written.", finished=now()
            )
            save(m.job_path, latest)
        _remove_partials(m)
        return latest


def _holds(folder: Path, job: ImportJob) -> bool:
    """Whether ``folder`` holds the job's book (a plain file name, never a path), or the book
    is in a database (its records are in ``folder``)."""
    name = job.book
    if not name or secure_filename(name) != name:
        return False
    return bool(job.database) or (folder / name).is_file()


def _keep_last_book(m: Migration, current: ImportJob | None) -> None:
    """Before a new import: the last written book (with its result, report and job) moves to
    out/previous/, still offered as from the earlier settings until the new one is written; an
    earlier book must never pass for the new job's, so nothing else stays in out/."""
    kept_dir = previous_dir(m.out_dir)
    if current is not None and current.written and _holds(m.out_dir, current):
        shutil.rmtree(kept_dir, ignore_errors=True)
        kept_dir.mkdir(mode=0o700)
        save(kept_dir / "job.json", current)  # first: a half-done move still finds the book
        for f in m.out_dir.iterdir():
            if f.is_file():
                f.replace(kept_dir / f.name)
    for f in m.out_dir.iterdir():
        if f.is_file():
            f.unlink()


def _unkeep_last_book(m: Migration) -> None:
    """Undo ``_keep_last_book`` when the new import could not start: the kept book back in
    out/ (renames only, which a full disk allows), or an empty out/previous/ removed."""
    kept_dir = previous_dir(m.out_dir)
    if not kept_dir.is_dir():
        return
    kept = load(kept_dir / "job.json")
    latest = load(m.job_path)
    if kept is not None and latest is not None and kept.id == latest.id:
        for f in kept_dir.iterdir():
            if f.is_file() and f.name != "job.json":
                f.replace(m.out_dir / f.name)
        shutil.rmtree(kept_dir, ignore_errors=True)
    elif kept is None:
        shutil.rmtree(kept_dir, ignore_errors=True)


def _remove_partials(m: Migration) -> None:
    """A stopped writer's temporary book and what GnuCash put beside it (``.LCK``)."""
    for partial in m.out_dir.glob(".*.partial-*"):
        partial.unlink(missing_ok=True)
