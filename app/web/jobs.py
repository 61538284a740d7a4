"""Steps 4 and 5, Import and Download: refuse while problems remain, run the import in a worker
process with a live progress panel and a cancel button, then offer the finished book, the
verification report and its CSV. Only a written job ("done" or "differs") has a book to offer;
the last one stays on offer, said to be from the earlier settings, while a new import runs and
after it failed, was cancelled or interrupted (``JobRunner.book``). A book that differs from
QuickBooks is offered behind its differences: its download without ``?differences=accepted``
(the Download page's second button) leads to that page."""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

from flask import Blueprint, Response, redirect, render_template, request, send_file, url_for
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response as WerkzeugResponse

from app import audit, naming
from app.audit import DOCUMENTS_CSV, TAX_CSV
from app.errors import MappingError, NotWritten, why_not_written
from app.fileio import read_json
from app.jobs import ACTIVE, Book, ImportJob
from app.pages.download import SIGN_NOTE, legacy_state
from app.pages.problems import must_fix, problem_rows
from app.pages.upload import bar_names
from app.progress import IMPORT_LEG
from app.store import Migration
from app.web.context import (
    fragment,
    is_htmx,
    migration,
    passwords,
    render,
    runner,
    store,
    views,
)
from app.web.errors import UNPROCESSABLE

bp = Blueprint("jobs", __name__, url_prefix="/m/<mid>")
LARGE_HISTORY = 20_000  # transactions: GnuCash 4.x takes minutes to open such a book


def region(job: ImportJob | None, state: str = "", kept: Book | None = None) -> dict:
    """The #job region's context (jobs/_job.html holds every state): ``state`` is "no-files",
    "refused", "none" (nothing written yet) or, by default, the job's own; ``active`` makes the
    region poll itself; ``kept``: the book of an import before this one, still offered."""
    state = state or (job.state if job else "none")
    return {
        "job": job,
        "state": state,
        "active": state in ACTIVE,
        "kept": kept,
        "outdated": _outdated(job),
        "phase_names": bar_names("import"),
        "upload_steps": IMPORT_LEG.before,
    }


def _outdated(job: ImportJob | None) -> bool:
    """Whether the job's book was written before the plan or the files changed."""
    if job is None or not (job.written and job.settings):
        return False
    return job.settings != migration().settings_sha()


def _kept(m: Migration) -> Book | None:
    book = runner().book(m)
    return book if book is not None and book.previous else None


def _context() -> dict:
    m = migration()
    view = views().view(m)
    plan = m.plan()
    job, files, errors = runner().get(m), m.files(), view.prepared.errors
    if not files:
        state = "no-files"
    elif errors and not (job and job.active):  # a running job is followed to its end
        state = "refused"
    else:
        state = ""
    refused = problem_rows(errors, view.resolved, view.search) if state == "refused" else []
    return {
        "m": m,
        "plan": plan,
        "view": view,
        "errors": errors,
        "refused": refused,  # each with its fix, linked to its step (as on the Preview)
        "must_fix": must_fix(refused) if refused else "",
        "files": files,
        "large": view.prepared.transaction_count > LARGE_HISTORY,
    } | region(job, state, _kept(m))


@bp.get("/import")
def page() -> tuple[str, int]:
    return render("jobs/import.html", "jobs/_job.html", **_context())


@bp.post("/import")
def start() -> tuple[str, int] | WerkzeugResponse:
    m = migration()
    with store().exclusive(m):  # not while it is being deleted (then: MigrationGone)
        context = _context()
        if not context["files"]:
            context |= {"errors": ()}
            return render("jobs/import.html", "jobs/_job.html", UNPROCESSABLE, **context)
        if context["errors"]:
            context |= region(context["job"], "refused")
            return render("jobs/import.html", "jobs/_job.html", UNPROCESSABLE, **context)
        env = {}
        if context["plan"].format == "postgres":
            if not context["plan"].database:
                raise MappingError("Choose the PostgreSQL database for the book on the Map step.")
            if (password := passwords().get(m.id)) is not None:
                env["PGPASSWORD"] = password  # the worker's environment: never a file or a page
        job = runner().submit(m, env)
    if not is_htmx():  # (post, then redirect: a reload started another import, hunt 24)
        return redirect(url_for("jobs.page"), 303)
    context |= region(job, kept=_kept(m))
    return render("jobs/import.html", "jobs/_job.html", **context)


@bp.get("/job")
def panel() -> tuple[str, int] | WerkzeugResponse:
    """The job region alone; it polls itself only while the job is queued or running. Asked
    for as a page (a bookmark, a reload), it is the Import step."""
    if not is_htmx():
        return redirect(url_for("jobs.page"), 303)
    m = migration()
    return fragment("jobs/_job.html", **region(runner().get(m), kept=_kept(m)))


@bp.post("/job/cancel")
def cancel() -> tuple[str, int] | WerkzeugResponse:
    """Cancels the import the page shows (its id sent): a stale page's Cancel, left from an
    earlier import, stopped the one another tab had started since (hunt 24)."""
    m = migration()
    shown = request.form.get("job", "")
    now = runner().get(m)
    job = runner().cancel(m) if now is None or not shown or shown == now.id else now
    if not is_htmx():  # the form's plain POST (no JavaScript): back to the Import step
        return redirect(url_for("jobs.page"), 303)
    return fragment("jobs/_job.html", **region(job, kept=_kept(m)))


def _stem(m: Migration, found: Book) -> str:
    """The downloads' names start with the company's name as it is now (renamed after the
    import too), else the book's own."""
    return naming.slug(m.name) or Path(found.job.book).stem


def _finished(m: Migration) -> Book:
    book = runner().book(m)
    if book is None:
        raise NotFound("There is no finished book yet. Run the import on the Import step first.")
    return book


@bp.get("/download")
def result() -> tuple[str, int]:
    """The book on offer (the latest import's, else the one kept from before it, said so) and
    its proof; else why there is none yet."""
    m = migration()
    latest, book = runner().get(m), runner().book(m)
    data = read_json(book.folder / "result.json") if book else {}
    if data and not data.get("state"):  # a book written before the verdict was kept
        data["state"] = legacy_state(data)
    return render(
        "jobs/download.html",
        "jobs/download.html",
        m=m,
        job=book.job if book else latest,
        book=book,
        latest=latest,
        outdated=bool(book and not book.previous and _outdated(book.job)),
        result=data,
        headline=data.get("headline") or next(iter(data.get("summary", ())), ""),
        large=data.get("transactions", 0) > LARGE_HISTORY,
        differences=[r for r in data.get("rows", []) if not r["ok"]],
        sign_note=SIGN_NOTE,
        archive=_archive(book),
        book_file=naming.file_name(_stem(m, book), "book") if book else "",  # as downloaded
    )


def _archive(found: Book | None) -> str:
    """The archive book written beside this one (a split history, app.archive), or ""."""
    if found is None or found.job.database:
        return ""
    name = audit.archive_name(found.job.book)
    return name if (found.folder / name).is_file() else ""


def _accepted(found: Book) -> bool:
    """A book that differs is offered only behind its differences (the Download page's second
    button says ``differences=accepted``)."""
    return found.job.state != "differs" or request.args.get("differences") == "accepted"


@bp.get("/download/book")
def book() -> Response | WerkzeugResponse:
    found = _finished(migration())
    if not _accepted(found):
        return redirect(url_for("jobs.result"), 303)  # what differs comes first
    if found.job.database:
        raise NotFound(
            f"This book is in the PostgreSQL database {found.job.database}, not in a file: open "
            "it in GnuCash with File › Open (Data Format postgres)."
        )
    name = naming.file_name(_stem(migration(), found), "book")
    return send_file(found.path, as_attachment=True, download_name=name, max_age=0)


@bp.get("/download/archive")
def archive_book() -> Response | WerkzeugResponse:
    """The archive book of a split history, under the same rules as the book."""
    found = _finished(migration())
    if not _accepted(found):
        return redirect(url_for("jobs.result"), 303)
    name = _archive(found)
    if not name:
        raise NotFound("This book has no archive: the history was not split on the Map step.")
    return send_file(found.folder / name, as_attachment=True, download_name=name, max_age=0)


@bp.get("/download/report.csv")
def report() -> Response:
    found = _finished(migration())
    path = found.folder / "report.csv"
    if not path.is_file():
        raise NotFound("The verification report is missing; run the import again.")
    name = naming.file_name(_stem(migration(), found), "verification")
    return send_file(path, as_attachment=True, download_name=name, mimetype="text/csv", max_age=0)


@bp.get("/download/documents.csv")
def documents_report() -> Response:
    """Per customer and vendor: the open balance in QuickBooks and in the book."""
    found = _finished(migration())
    path = found.folder / DOCUMENTS_CSV
    if not path.is_file():
        raise NotFound("This book has no invoices or bills as documents; there is no such report.")
    name = naming.file_name(_stem(migration(), found), "documents")
    return send_file(path, as_attachment=True, download_name=name, mimetype="text/csv", max_age=0)


@bp.get("/download/tax.csv")
def tax_report() -> Response:
    """Per invoice and bill, then per tax agency: QuickBooks' figures and the book's."""
    found = _finished(migration())
    path = found.folder / TAX_CSV
    if not path.is_file():
        raise NotFound("This book has no sales tax proof; there is no such report.")
    name = naming.file_name(_stem(migration(), found), "sales-tax")
    return send_file(path, as_attachment=True, download_name=name, mimetype="text/csv", max_age=0)


def _next_steps(m: Migration, found: Book, back: str = "") -> str:
    """ "What to do in GnuCash next" for the book on offer ("" for a book written before it
    had one); ``back``: the Download step's address (none in the audit pack's copy)."""
    steps = read_json(found.folder / audit.NEXT_STEPS_JSON)
    if not steps:
        return ""
    return render_template(
        "jobs/next_steps.html",
        steps=steps,
        company=m.name,
        book=found.job.database or naming.file_name(_stem(m, found), "book"),
        written=found.job.finished_at,
        back=back,
    )


@bp.get("/download/next-steps")
def next_steps() -> str:
    """The printable page of what to do in GnuCash after the download."""
    m = migration()
    page = _next_steps(m, _finished(m), url_for("jobs.result"))
    if not page:
        raise NotFound(
            "This book was written before qb2gnucash listed the next steps in GnuCash: write it "
            "again on the Import step to have them."
        )
    return page


@bp.get("/download/audit.zip")
def audit_pack() -> Response | WerkzeugResponse:
    """The book with its proof in one zip (app.audit): the report as CSV and as a printable
    page, the plan, the files read and what was not imported. Same rules as the book."""
    m = migration()
    found = _finished(m)
    if not _accepted(found):
        return redirect(url_for("jobs.result"), 303)
    data = read_json(found.folder / "result.json")
    if data and not data.get("state"):
        data["state"] = legacy_state(data)
    page = render_template(
        "jobs/audit_report.html",
        book=found.job.database or found.job.book,
        job=found.job,
        result=data,
        files=audit.read_files(found.folder),
        sign_note=SIGN_NOTE,
    )
    stem = _stem(m, found)
    named = Path(found.job.book).stem if found.job.database else naming.file_name(stem, "book")
    target = None
    try:
        target = tempfile.TemporaryFile(dir=m.path)  # no name on disk; send_file closes it
        audit.write_pack(
            target,
            found.folder,
            found.job.book,
            page,
            found.job.finished,
            database=found.job.database,
            named=named,
            next_steps=_next_steps(m, found),
        )
        target.seek(0)
    except OSError as exc:  # a full disk: nothing of the pack is left (the file had no name)
        if target is not None:
            with contextlib.suppress(OSError):  # its buffer cannot be written either
                target.close()
        raise NotWritten(
            f"The audit pack could not be made: {why_not_written(exc, m.path)}. Nothing of it "
            "was kept. Free some space (deleting an earlier migration on the home page frees its "
            "files) and download it again."
        ) from exc
    except BaseException:
        if target is not None:
            target.close()
        raise
    name = naming.file_name(stem, "audit")
    return send_file(
        target, as_attachment=True, download_name=name, mimetype="application/zip", max_age=0
    )
