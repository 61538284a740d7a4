"""The import worker: ``python -m app.worker <migration dir> <job id>`` (started by app.jobs).

Reads the migration's uploads and plan, writes the book to ``out/`` through the pipeline (the
writer saves under a temporary name and renames at the end), reads it back, verifies it, and
leaves ``out/result.json`` + ``out/report.csv`` for the Download step. Every state change goes to
``job.json`` atomically. If the server that started it dies, the worker stops too: a job nobody
watches would only hold the lock on the book. ``QB2GNUCASH_WORKER_DELAY`` (seconds, tests only)
pauses after reading, so a test can kill the worker mid-job.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from collections import Counter
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

from werkzeug.utils import secure_filename

from app import jobs, pipeline, preview
from app.errors import MigrationError, ProblemsError
from app.fileio import write_json, write_text
from app.fixes import action, with_fix
from app.model import Ledger
from app.store import Migration

THROTTLE = 0.25  # seconds between progress writes within one phase


class Reporter:
    def __init__(self, m: Migration, job: jobs.Job) -> None:
        self.m = m
        self.job = job
        self.parent = os.getppid()
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

    def check_parent(self) -> None:
        if os.getppid() != self.parent:  # the server is gone: nobody will collect the book
            self.update(
                state="interrupted",
                error="The server stopped during the import. Start it again.",
                finished=jobs.now(),
            )
            os._exit(1)

    def pause(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.check_parent()
            time.sleep(0.05)


def book_name(parsed: Ledger, files: list[Path]) -> str:
    """Named after the company, else the first uploaded file."""
    stem = parsed.company or (files[0].stem if files else "") or "book"
    return (secure_filename(stem) or "book") + ".gnucash"


def _plain(value: Decimal) -> str:
    return f"{abs(value) if not value else value:.2f}"  # never "-0.00"


def result_data(prepared: pipeline.Prepared, outcome: pipeline.Outcome) -> dict[str, object]:
    """What the Download step shows, as plain JSON."""
    report, ledger = outcome.report, prepared.ledger
    not_imported: dict[str, Counter[str]] = {}
    for n in ledger.not_imported:
        not_imported.setdefault(n.what, Counter())[n.reason] += 1
    return {
        "ok": bool(report.ok),
        "headline": report.headline(),
        "as_of": report.as_of_lines(),
        "summary": list(report.summary_lines("wizard")),
        "rows": [
            {
                "account": r.account,
                "quickbooks_account": r.quickbooks_account,
                "quickbooks_balance": _plain(r.quickbooks_balance),
                "gnucash_balance": _plain(r.gnucash_balance),
                "difference": _plain(r.difference),
                "basis": r.basis,
                "ok": bool(r.ok),
                "cause": r.cause,
                "action": action(r.fix, "wizard"),
            }
            for r in report.rows
        ],
        "checks": [
            {"name": c.name, "input": str(c.input), "book": str(c.book), "ok": bool(c.ok)}
            for c in report.checks
        ],
        "notes": list(report.notes),
        "families": families(ledger, report.rows),
        "transactions": len(ledger.transactions),
        "counts": preview.counts(ledger),
        "not_imported": [
            {
                "what": what,
                "count": reasons.total(),
                "reasons": [r for r, _ in reasons.most_common()],
            }
            for what, reasons in sorted(not_imported.items())
        ],
        "warnings": [with_fix(str(p), p.fix, "wizard") for p in prepared.warnings],
    }


FAMILIES = (
    ("asset", "Assets"),
    ("liability", "Liabilities"),
    ("equity", "Equity"),
    ("income", "Income (this fiscal year)"),
    ("expense", "Expenses (this fiscal year)"),
)


def families(ledger: Ledger, rows: object) -> list[dict[str, object]]:
    """The compared balances summed by kind of account: the picture beside the table.
    Credit-natured families are shown positive; ``width`` is a percentage of the largest."""
    sums = {f: [Decimal(0), Decimal(0)] for f, _ in FAMILIES}
    for r in rows:  # type: ignore[attr-defined]
        account = ledger.account(r.account)
        if account is not None and account.type is not None:
            sums[account.type.family][0] += r.quickbooks_balance
            sums[account.type.family][1] += r.gnucash_balance
    sign = {"asset": 1, "expense": 1}
    biggest = max((abs(v) for pair in sums.values() for v in pair), default=Decimal(0)) or 1
    out = []
    for family, label in FAMILIES:
        qb, gnc = (v * sign.get(family, -1) for v in sums[family])
        out.append(
            {
                "label": label,
                "quickbooks": _plain(qb),
                "gnucash": _plain(gnc),
                "qb_width": round(100 * abs(qb) / biggest),
                "gnc_width": round(100 * abs(gnc) / biggest),
                "ok": qb == gnc,
            }
        )
    return out


def run(m: Migration, job_id: str) -> int:
    job = jobs.load(m.job_path)
    if job is None or job.id != job_id:
        print(f"job {job_id} is not this migration's current job", file=sys.stderr)
        return 2
    rep = Reporter(m, job)
    rep.update(state="running", pid=os.getpid(), phase="reading files", done=0, total=0)
    try:
        plan = m.plan()
        files = m.files()
        parsed = pipeline.read(files, plan)
        rep.pause(float(os.environ.get("QB2GNUCASH_WORKER_DELAY") or 0))
        rep.progress("checking", 0, 1)
        prepared = pipeline.prepare(parsed, plan)
        name = book_name(parsed, files)
        outcome = pipeline.write(
            prepared, m.out_dir / name, plan, on_progress=rep.progress, overwrite=True
        )
        rep.progress("verifying", 1, 1)
        write_json(m.out_dir / "result.json", result_data(prepared, outcome))
        write_text(m.out_dir / "report.csv", outcome.report.to_csv())
        rep.update(state="done", phase="done", book=name, finished=jobs.now())
        return 0
    except ProblemsError as exc:
        problems = tuple(str(p) for p in exc.problems)
        rep.update(state="failed", error=exc.__doc__ or "", problems=problems, finished=jobs.now())
    except MigrationError as exc:
        rep.update(state="failed", error=exc.message, finished=jobs.now())
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
        print("usage: python -m app.worker <migration dir> <job id>", file=sys.stderr)
        return 2
    return run(Migration(Path(argv[0])), argv[1])


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # skip interpreter teardown: the engine's objects need no destruction
