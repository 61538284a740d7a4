"""Steps 4 and 5, Import and Download: refuse while problems remain, run the import in a worker
process with a live progress panel and a cancel button, then offer the finished book, the
verification report and its CSV. Only a written job ("done", or "differs") has a book to offer;
a book that differs from QuickBooks is offered behind its differences: its download without
``?differences=accepted`` (the Download page's second button) leads to that page."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, redirect, request, send_file, url_for
from werkzeug.exceptions import NotFound
from werkzeug.utils import secure_filename
from werkzeug.wrappers import Response as WerkzeugResponse

from app.fileio import read_json
from app.jobs import ACTIVE, ImportJob
from app.store import Migration
from app.web.context import fragment, is_htmx, migration, render, runner, views

bp = Blueprint("jobs", __name__, url_prefix="/m/<mid>")
LARGE_HISTORY = 20_000  # transactions: GnuCash 4.x takes minutes to open such a book


def region(job: ImportJob | None, state: str = "") -> dict:
    """The #job region's context (jobs/_job.html holds every state): ``state`` is "no-files",
    "refused", "none" (nothing written yet) or, by default, the job's own; ``active`` makes the
    region poll itself."""
    state = state or (job.state if job else "none")
    return {"job": job, "state": state, "active": state in ACTIVE}


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
    return {
        "m": m,
        "plan": plan,
        "view": view,
        "errors": errors,
        "files": files,
        "large": len(view.prepared.ledger.transactions) > LARGE_HISTORY,
    } | region(job, state)


@bp.get("/import")
def page() -> tuple[str, int]:
    return render("jobs/import.html", "jobs/_job.html", **_context())


@bp.post("/import")
def start() -> tuple[str, int]:
    m = migration()
    context = _context()
    if not context["files"]:
        return render("jobs/import.html", "jobs/_job.html", 422, **context | {"errors": ()})
    if context["errors"]:
        context |= region(context["job"], "refused")
        return render("jobs/import.html", "jobs/_job.html", 422, **context)
    context |= region(runner().submit(m))
    return render("jobs/import.html", "jobs/_job.html", **context)


@bp.get("/job")
def panel() -> tuple[str, int] | WerkzeugResponse:
    """The job region alone; it polls itself only while the job is queued or running. Asked
    for as a page (a bookmark, a reload), it is the Import step."""
    if not is_htmx():
        return redirect(url_for("jobs.page"), 303)
    return fragment("jobs/_job.html", **region(runner().get(migration())))


@bp.post("/job/cancel")
def cancel() -> tuple[str, int] | WerkzeugResponse:
    job = runner().cancel(migration())
    if not is_htmx():  # the form's plain POST (no JavaScript): back to the Import step
        return redirect(url_for("jobs.page"), 303)
    return fragment("jobs/_job.html", **region(job))


def _finished(m: Migration) -> tuple[ImportJob, Path]:
    job = runner().get(m)
    if job is None or not job.written or not job.book:
        raise NotFound("There is no finished book yet. Run the import on the Import step first.")
    name = secure_filename(job.book)
    path = m.out_dir / name
    if name != job.book or not path.is_file():
        raise NotFound("The book of the last import is missing; run the import again.")
    return job, path


@bp.get("/download")
def result() -> tuple[str, int]:
    m = migration()
    job = runner().get(m)
    data = read_json(m.out_dir / "result.json") if job is not None and job.written else {}
    return render(
        "jobs/download.html",
        "jobs/download.html",
        m=m,
        job=job,
        result=data,
        headline=data.get("headline") or next(iter(data.get("summary", ())), ""),
        large=data.get("transactions", 0) > LARGE_HISTORY,
        differences=[r for r in data.get("rows", []) if not r["ok"]],
    )


@bp.get("/download/book")
def book() -> Response | WerkzeugResponse:
    job, path = _finished(migration())
    if job.state == "differs" and request.args.get("differences") != "accepted":
        return redirect(url_for("jobs.result"), 303)  # what differs comes first
    return send_file(path, as_attachment=True, download_name=job.book, max_age=0)


@bp.get("/download/report.csv")
def report() -> Response:
    job, _ = _finished(migration())
    path = migration().out_dir / "report.csv"
    if not path.is_file():
        raise NotFound("The verification report is missing; run the import again.")
    name = Path(job.book).stem + "-verification.csv"
    return send_file(path, as_attachment=True, download_name=name, mimetype="text/csv", max_age=0)
