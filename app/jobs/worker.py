"""The import worker: ``python -m app.jobs.worker <migration dir> <job id>`` (started by
app.jobs.runner).

Reads the migration's uploads and plan, writes the book to ``out/`` through the pipeline (the
writer saves under a temporary name and renames at the end), reads it back, verifies it, and
leaves ``out/result.json`` + ``out/report.csv`` for the Download step, with the audit pack's records
(files.csv, not_imported.csv, plan.json: app.audit). Every state change goes to
``job.json`` atomically; while the files are read, a thread of its own asks how far the reading
is (``reading_told``) and reports the part of their bytes read and the rows. If the server
that started it dies, the worker stops too: a job nobody watches would only hold the lock on
the book. ``QB2GNUCASH_WORKER_DELAY`` (seconds, tests only) pauses after reading, so a test
can kill the worker mid-job.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from app import audit, jobs, naming, pipeline, postgres, split_write
from app.documents.proof import documents_report
from app.documents.tax_proof import tax_report
from app.errors import MappingError, MigrationError, ProblemsError, why_not_written
from app.fileio import remove_partials, write_json, write_text
from app.model import Ledger
from app.pages import download, next_steps
from app.plan import Plan
from app.postgres import Address
from app.proof_state import verdict
from app.read_progress import ReadProgress, ReadState
from app.store import Migration

THROTTLE = 0.25  # seconds between progress writes within one phase
# seconds between two questions of how far the reading of the files is (a small job.json write
# each; the rows of a 100,000-transaction file are read in a second or so)
ASK_EVERY = 0.1


class Reporter:
    def __init__(self, m: Migration, job: jobs.ImportJob) -> None:
        self.m = m
        self.job = job
        self.parent = int(os.environ.get(jobs.SERVER_PID) or os.getppid())
        self.last = 0.0

    def update(self, **changes: object) -> None:
        self.job = replace(self.job, **changes)  # type: ignore[arg-type]
        jobs.save(self.m.job_path, self.job)
        self.last = time.monotonic()

    def progress(self, phase: str, done: int, total: int) -> None:
        self.check_parent()
        if phase == self.job.phase and done < total and time.monotonic() - self.last < THROTTLE:
            return
        self.update(phase=phase, done=done, total=total)

    def read(self, now: ReadState | None) -> None:
        """How far the reading of the files is (nothing before its first file): the part of
        their bytes read, in thousandths, the file being read and its rows."""
        self.check_parent()
        if now is not None:
            self.update(
                phase=jobs.READING,
                done=int(now.part * jobs.READ_PARTS),
                total=jobs.READ_PARTS,
                file=now.name,
                file_n=now.n,
                files=now.of,
                rows=now.rows,
            )

    def check_parent(self) -> None:
        if os.getppid() != self.parent:  # the server is gone: nobody will collect the book
            self.update(
                state="interrupted",
                error="The server stopped during the import. Start it again.",
                finished=jobs.now(),
            )
            remove_partials(self.m.out_dir, lambda pid: pid == os.getpid())  # (read-back's too)
            os._exit(1)

    def pause(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.check_parent()
            time.sleep(0.05)


def book_name(company: str, files: list[Path], parsed: Ledger) -> str:
    """Named after the company (the user's name for it, else a report's title row), else the
    first uploaded file read as a QuickBooks export."""
    return naming.file_name(naming.stem(company, naming.first_read(files, parsed.files)), "book")


def write_documents_csv(out_dir: Path, outcome: pipeline.Outcome) -> None:
    """``out/documents.csv``: per customer and vendor, the open balances compared (only when the
    book has documents; an earlier import's file is removed otherwise)."""
    path = out_dir / audit.DOCUMENTS_CSV
    if outcome.report.documents is None:
        path.unlink(missing_ok=True)
    else:
        write_text(path, documents_report(outcome.report.documents.rows))


def _target(m: Migration, plan: Plan, name: str) -> tuple[Path | Address, str, bool]:
    """Where the book goes: ``out/NAME``, replacing the last one, or the plan's PostgreSQL
    database, replacing only a book this migration wrote there (its last written job's)."""
    if plan.format != "postgres":
        return m.out_dir / name, "", True
    if not plan.database:
        raise MappingError("Choose the PostgreSQL database for the book on the Map step.")
    address = postgres.parse_address(plan.database)
    last = jobs.load(jobs.previous_dir(m.out_dir) / "job.json")
    return address, address.url, bool(last and last.written and last.database == address.url)


def write_tax_csv(out_dir: Path, outcome: pipeline.Outcome) -> None:
    """``out/tax.csv``: the sales tax proof (only when the book has it)."""
    path = out_dir / audit.TAX_CSV
    if outcome.report.sales_tax is None:
        path.unlink(missing_ok=True)
    else:
        write_text(path, tax_report(outcome.report.sales_tax))


def write_years_csv(out_dir: Path, outcome: pipeline.Outcome) -> None:
    """``out/years.csv``: every account at every year end (only when Trial Balance reports of
    such dates were given; an earlier import's file is removed otherwise)."""
    path = out_dir / audit.YEARS_CSV
    extras = outcome.report.extras
    if extras is None or not extras.years:
        path.unlink(missing_ok=True)
    else:
        write_text(path, extras.years_csv())


def write_classes(out_dir: Path, outcome: pipeline.Outcome, book: str) -> None:
    """``out/classes.csv`` and ``out/classes.html``: the P&L by class (only when the book
    carries classes; an earlier import's files are removed otherwise)."""
    table = outcome.report.classes
    if table is None:
        for name in (audit.CLASSES_CSV, audit.CLASSES_HTML):
            (out_dir / name).unlink(missing_ok=True)
    else:
        from app.printable import render  # noqa: PLC0415 - Jinja2 only when needed: the worker
        # starts fast (it takes its server's pid once started: tests/test_jobs.py)

        write_text(out_dir / audit.CLASSES_CSV, table.to_csv())
        page = render("classes/pnl_by_class.html", proof=table, book=book)
        write_text(out_dir / audit.CLASSES_HTML, page)


def write_next_steps(
    out_dir: Path, prepared: pipeline.Prepared, outcome: pipeline.Outcome, plan: Plan
) -> None:
    """``out/next_steps.json``: the figures of "What to do in GnuCash next"."""
    from app import gnc  # noqa: PLC0415 - loaded by the write already (app.gnc's rule)

    data = next_steps.next_steps_data(prepared, outcome, plan.format, gnc.engine_version())
    write_json(out_dir / audit.NEXT_STEPS_JSON, data)


@contextmanager
def reading_told(rep: Reporter, seen: ReadProgress) -> Iterator[None]:
    """While the files are read in this thread, another asks ``seen`` every ``ASK_EVERY``
    seconds how far the reading is and reports it, as the upload's poll does (the reader pays
    nothing per row). The reporter is that thread's alone meanwhile: the reading reports
    nothing itself; the thread is stopped and gone before this one reports again."""
    stop = threading.Event()

    def ask() -> None:
        while not stop.wait(ASK_EVERY):
            rep.read(seen.now())

    asking = threading.Thread(target=ask, name="reading told", daemon=True)
    # the reading holds the interpreter's lock between switches: at the default 5 ms the asking
    # thread got it every 250 ms or so (4-6 questions in a 1.4 s reading, some with nothing
    # between none and all of a file); switched more often when it waits, it is answered on
    # time, and the reading takes as long (1.29-1.37 s against 1.33-1.44 s at 80,000)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)
    asking.start()
    try:
        yield
    finally:
        stop.set()
        asking.join()
        sys.setswitchinterval(interval)


def read_files(rep: Reporter, m: Migration, plan: Plan, files: list[Path]) -> Ledger:
    """The uploads read (a file given but not kept: an error), the reading reported as it
    goes and at its end (its whole share of the bar, the rows of the last file)."""
    seen = ReadProgress()
    with reading_told(rep, seen):
        parsed = pipeline.read(files, plan, m.unread(), seen)
    seen.finish()
    rep.read(seen.now())
    return parsed


def run(m: Migration, job_id: str) -> int:
    job = jobs.load(m.job_path)
    if job is None or job.id != job_id:
        print(f"job {job_id} is not this migration's current job", file=sys.stderr)
        return 2
    rep = Reporter(m, job)
    rep.update(state="running", pid=os.getpid(), phase=jobs.READING, done=0, total=0)
    try:
        plan = m.plan()
        files = m.files()
        parsed = read_files(rep, m, plan, files)
        read = audit.file_rows(files, m.display_names(), blanked=m.blanked())  # for the audit pack
        rep.pause(float(os.environ.get("QB2GNUCASH_WORKER_DELAY") or 0))
        rep.progress("checking", 0, 1)
        prepared = pipeline.prepare(parsed, plan)
        name = book_name(m.given_name or parsed.company, files, parsed)
        target, database, overwrite = _target(m, plan, name)
        if isinstance(target, Path):  # (an archive goes beside its working book: app.archive)
            outcome = split_write.in_folder(prepared, target, plan, rep.progress)
        else:
            outcome = pipeline.write(
                prepared, target, plan, on_progress=rep.progress, overwrite=overwrite
            )
        if database:
            name = Path(name).stem  # names the downloads; the book is in the database
        rep.progress("verifying", 1, 1)
        write_json(m.out_dir / "result.json", download.result_data(prepared, outcome))
        write_text(m.out_dir / "report.csv", outcome.report.to_csv())
        write_documents_csv(m.out_dir, outcome)
        write_tax_csv(m.out_dir, outcome)
        write_years_csv(m.out_dir, outcome)
        write_classes(m.out_dir, outcome, name)
        write_next_steps(m.out_dir, prepared, outcome, plan)
        ledger = prepared.ledger
        audit.write_records(m.out_dir, read, outcome.written.not_imported, plan, ledger.items)
        state = "done" if outcome.report.ok else "differs"  # a difference is never "done"
        said = verdict(outcome.report)
        rep.update(
            state=state,
            phase="done",
            book=name,
            database=database,
            differences=said.accounts,
            proof=said.state,
            checks=said.checks,
            customers=said.customers,
            vendors=said.vendors,
            jobs=said.jobs,
            named=said.named,
            finished=jobs.now(),
        )
        shutil.rmtree(jobs.previous_dir(m.out_dir), ignore_errors=True)  # replaced by this one
        return 0
    except ProblemsError as exc:
        problems = tuple(str(p) for p in exc.problems)
        rep.update(state="failed", error=exc.__doc__ or "", problems=problems, finished=jobs.now())
    except MigrationError as exc:
        rep.update(state="failed", error=exc.message, finished=jobs.now())
    except OSError as exc:  # a full disk while writing the result: no book is offered
        why = why_not_written(exc, m.out_dir)
        rep.update(
            state="failed",
            error=f"The import stopped: {why}. No new book was written. Free some space "
            "(deleting an earlier migration on the home page frees its files) and start it again.",
            finished=jobs.now(),
        )
    except Exception:
        traceback.print_exc()  # into worker.log beside the job
        rep.update(
            state="failed",
            error="The import stopped on an unexpected error; the details are in worker.log in "
            "the migration's folder.",
            finished=jobs.now(),
        )
    return 1


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m app.jobs.worker <migration dir> <job id>", file=sys.stderr)
        return 2
    return run(Migration(Path(argv[0])), argv[1])


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # skip interpreter teardown: the engine's objects need no destruction
