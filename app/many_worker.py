"""One company of ``run.py convert-many``, in a process of its own: ``python -m app.many_worker``
reads its task (JSON) on stdin, converts, and leaves everything in the task's folder (a staging
folder the batch puts in place afterwards): the book (or a book in PostgreSQL), the verification
report (report.csv, the printable report.html, documents.csv), the warnings, the audit pack's
records and the pack itself, and ``result.json`` (the summary's row). A company that cannot be
converted leaves ``result.json`` saying why and ``problems.txt`` with every problem, and no
book. Progress goes to stdout as JSON lines; GnuCash's own messages to stderr (the batch keeps
them as conversion.log). The GnuCash engine lives in this process only: a company that makes it
fail takes no other company with it. ``QB2GNUCASH_MANY_KILL`` (a company's name; tests only)
kills that company's worker after reading, so a test can show the others are unaffected.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from app import audit, pipeline, postgres, words
from app.cli_summary import by_importance, worded
from app.errors import MigrationError
from app.fileio import write_json, write_text
from app.jobs.worker import write_documents_csv
from app.model import Ledger, Problem
from app.pages.download import SIGN_NOTE, result_data
from app.plan import plan_from_json
from app.printable import render
from app.proof_state import verdict
from app.readers import UNKNOWN, looks
from app.verify_report import Report

THROTTLE = 0.2  # seconds between progress lines within one phase
NOT_EXPORTS = (
    UNKNOWN,
    "a binary file, not a QuickBooks text export",
    "the file is empty",
    looks.NOT_EXPORT,
)


class Progress:
    """Progress as JSON lines on stdout, at most every THROTTLE seconds within a phase."""

    def __init__(self) -> None:
        self.phase, self.last = "", 0.0

    def __call__(self, phase: str, done: int, total: int) -> None:
        now = time.monotonic()
        if phase == self.phase and done < total and now - self.last < THROTTLE:
            return
        self.phase, self.last = phase, now
        print(json.dumps({"phase": phase, "done": done, "total": total}), flush=True)


def no_exports(parsed: Ledger) -> str:
    """Why the company has nothing to convert ("" when some file is a QuickBooks export)."""
    if any(f.layout != "not read" for f in parsed.files):
        return ""
    if not all(p.message.startswith(NOT_EXPORTS) for p in parsed.problems if p.source):
        return ""  # an export with a problem: said as a problem
    names = ", ".join(f.filename for f in parsed.files)
    n = len(parsed.files)
    return f"no QuickBooks exports among its {words.plural(n, 'file')} ({names})"


class Failed(Exception):
    """The company could not be converted: ``message`` for the summary, every problem for
    problems.txt."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.problems = problems or [message]


def _failed_problems(errors: tuple[Problem, ...], plan_file: str) -> Failed:
    lines = [worded(p, plan_file) for p in errors]
    n = len(lines)
    head = f"{words.plural(n, 'problem')} to resolve" + (", the first: " if n > 1 else ": ")
    return Failed(head + lines[0], lines)


def convert(task: dict, folder: Path, progress: Progress) -> dict:
    """The company converted into ``folder``; its result (raises Failed)."""
    plan = plan_from_json(task["plan"], "plan")
    files = [Path(f) for f in task["files"]]
    progress("reading files", 0, 1)
    parsed = pipeline.read(files, plan)
    if os.environ.get("QB2GNUCASH_MANY_KILL") == task["name"]:  # tests: a worker that dies
        os.kill(os.getpid(), signal.SIGKILL)  # mid-way, as the engine crashing or the OOM killer
    if why := no_exports(parsed):
        raise Failed(why)
    prepared = pipeline.prepare(parsed, plan)
    if prepared.errors:
        raise _failed_problems(prepared.errors, task["plan_file"] or "(plan.json in its folder)")
    database = postgres.parse_address(task["database"]) if task["database"] else None
    target = database or folder / task["book"]
    try:
        outcome = pipeline.write(
            prepared, target, plan, on_progress=progress, overwrite=task["overwrite"]
        )
    except MigrationError as exc:
        raise Failed(f"no book written: {exc.message}") from None
    data: dict[str, Any] = result_data(prepared, outcome)
    write_text(folder / audit.REPORT_CSV, outcome.report.to_csv())
    write_documents_csv(folder, outcome)
    if prepared.warnings:
        lines = [worded(w) for w in by_importance(prepared.warnings)]
        write_text(folder / "warnings.txt", "\n".join(lines) + "\n")
    read = audit.file_rows(files, {}, audit.AS_READ)
    audit.write_records(folder, read, prepared.ledger.not_imported, plan)
    finished = time.time()
    book = task["book"] or task["database"]
    page = render(
        "jobs/audit_report.html",
        book=book,
        job={"finished_at": time.strftime("%Y-%m-%d %H:%M", time.localtime(finished))},
        result=data,
        files=audit.read_files(folder),
        sign_note=SIGN_NOTE,
    )
    write_text(folder / audit.REPORT_HTML, page)
    with (folder / audit.pack_name(task["output"] + ".gnucash")).open("wb") as zf:
        url = database.url if database else ""
        audit.write_pack(zf, folder, task["book"] or task["output"], page, finished, database=url)
    documents = data["documents"] or {}
    return {
        "state": "done" if outcome.report.ok else "differs",
        "transactions": data["transactions"],
        "documents": sum(n for _what, n in documents.get("counts", [])),
        "accounts_match": sum(1 for r in data["rows"] if r["ok"]),
        "accounts_differ": sum(1 for r in data["rows"] if not r["ok"]),
        "checks_differ": sum(1 for c in data["checks"] if not c["ok"]),
        "open_balances_differ": len(documents.get("differences", [])),
        "warnings": len(data["warnings"]),
        "message": "" if outcome.report.ok else _said(outcome.report),
        "finished": finished,
    }


def _said(report: Report) -> str:
    """ "Needs your attention: 2 accounts differ (2 accounts differ from QuickBooks (64 others
    match))": the verdict every front end says, then the proof's headline."""
    return f"{verdict(report).words()} ({report.headline()})"


def run(task: dict) -> int:
    folder = Path(task["folder"])
    t0 = time.perf_counter()
    base = {"company": task["name"], "target": task["target"], "book": task["book"]}
    try:
        result = convert(task, folder, Progress())
        code = 0
    except Failed as exc:
        write_text(folder / "problems.txt", "\n".join(exc.problems) + "\n")
        result, code = {"state": "failed", "message": exc.message, "finished": time.time()}, 1
    except MigrationError as exc:
        result, code = {"state": "failed", "message": exc.message, "finished": time.time()}, 1
    except Exception:
        traceback.print_exc()  # into conversion.log
        said = "the conversion stopped on an unexpected error (conversion.log says where)"
        result, code = {"state": "failed", "message": said, "finished": time.time()}, 1
    seconds = round(time.perf_counter() - t0, 2)
    write_json(folder / "result.json", {**base, **result, "seconds": seconds})
    return code


def main() -> int:
    return run(json.loads(sys.stdin.read()))


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # skip interpreter teardown: the engine's objects need no destruction
