"""Step 1, Files: upload (several at once), what each file holds, date order, remove, and the
hand mapping of a CSV's columns when no known layout claims it."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from http import HTTPStatus
from typing import cast

from flask import Blueprint, redirect, request, url_for
from werkzeug.wrappers import Response

from app import naming
from app.errors import MigrationError
from app.model import DateOrderCode
from app.pages.archive import may_want_version, wants_version
from app.pages.files import checklist, file_cards, said_added, said_refused, twins
from app.pages.upload import UploadProgress, bar_names, upload_progress
from app.plan import FileOptions, Plan, plan_from_json
from app.read_progress import ReadProgress
from app.readers.qbcsv.columns import COLUMN_ROLES, column_sample, mappable
from app.store import UploadError
from app.web import preview
from app.web.context import (
    fragment,
    installed,
    is_htmx,
    migration,
    render,
    runner,
    store,
    uploads,
    views,
)
from app.web.errors import UNPROCESSABLE, ImportRunning, NoColumns, status_of
from app.web.uploading import Upload

bp = Blueprint("files", __name__, url_prefix="/m/<mid>")


class NoFileChosen(UploadError):
    """Choose one or more QuickBooks export files first (or drop them on the box)."""


def _files_context(
    messages: tuple[str, ...] = (),
    added: tuple[str, ...] = (),
    removed: str = "",
    *,
    renamed: bool = False,
) -> dict:
    m = migration()
    plan = m.plan()
    paths = m.files()
    view = views().view(m, plan)
    m.note_company(view.parsed.company)
    cards = file_cards(paths, view.parsed, view.prepared.problems, m.withheld(), twins(m.digests()))
    stem = naming.stem(m.name, naming.first_read(paths, view.parsed.files))
    return {
        "m": m,
        "book_file": naming.file_name(stem, "book"),
        "cards": cards,
        "checklist": checklist(cards),
        "plan": plan,
        "messages": messages,
        "added": said_added(added, cards),
        "refused": said_refused(added, cards),
        "removed": removed,
        "renamed": renamed,
        "upload_bar": upload_bar(UploadProgress("sending"), {}, hidden=True),
    }


@bp.get("/files")
def page() -> tuple[str, int]:
    return render("files/page.html", "files/_files.html", **_files_context())


@bp.post("/files")
def upload() -> tuple[str, int] | Response:
    given = [f for f in request.files.getlist("files") if f.filename]
    if not given:
        raise NoFileChosen()
    added: list[str] = []
    failed: list[MigrationError] = []
    for f in given:
        try:
            with store().exclusive(migration()):  # not into a migration being deleted
                added.append(migration().save_upload(f.filename or "", f.stream))
        except MigrationError as exc:
            failed.append(exc)
        finally:
            f.close()  # a large upload is spooled to a temporary file: let it go now
    if failed and not (added or is_htmx()):
        raise failed[0]
    if added:
        _read_now(uploads().begin(migration().id, request.headers.get("X-Upload-Id", "")))
    if not is_htmx():
        return redirect(url_for("files.page"), 303)
    # every outcome in the files region itself (a file refused, one added, both at once): no
    # earlier "Added" stays below a refusal said elsewhere
    context = _files_context(tuple(e.message for e in failed), tuple(added))
    status = status_of(failed[0]) if failed and not added else HTTPStatus.OK
    return render("files/page.html", "files/_files.html", status, **context)


def _read_now(upload: Upload) -> None:
    """The files read and their Preview's models made now, within the upload's answer, each
    stage told to ``upload`` (its bar's poll asks)."""
    try:
        m, plan = migration(), migration().plan()
        upload.names = m.display_names()
        upload.seen = ReadProgress()
        parsed = views().parsed(m, plan, upload.seen)
        # asked as soon as the files are read, while they are prepared: the Map step, the
        # step after the Preview, would otherwise wait for the subprocess's start of GnuCash
        if may_want_version(len(parsed.transactions), plan):
            installed().ask_ahead()
        view = views().view(m, plan, upload.seen)
        upload.stage = "preview"
        preview.shown(view)
        if wants_version(view.prepared, plan):  # (once: a parse that told too few)
            installed().ask_ahead()
    finally:
        upload.stage = "done"


@bp.get("/files/reading")
def reading() -> tuple[str, int]:
    """The upload's bar (the #upload-progress region), polled by its page while it uploads:
    ``upload`` is the id the page gave it, ``sent`` of ``size`` bytes the browser has sent
    and ``elapsed`` its seconds since it began; the server's own stage, once the upload has
    arrived, tells the rest: "Reading journal.csv — 100,214 rows read (file 2 of 2)"."""
    m, args = migration(), request.args
    upload = uploads().get(m.id, args.get("upload", ""))
    progress = upload_progress(
        upload.stage if upload else None,
        upload.seen if upload else None,
        args.get("sent", 0, type=int),
        args.get("size", 0, type=int),
        args.get("elapsed", 0.0, type=_seconds),
    )
    bar = upload_bar(progress, upload.names if upload else {})
    return fragment("files/_upload_progress.html", upload_bar=bar)


def _seconds(text: str) -> float:
    """The page's seconds since its upload began (nan or inf, sent by hand, was a 500: hunt 24)."""
    value = float(text)
    if not math.isfinite(value) or value < 0:
        raise ValueError(text)  # (the default, 0, is taken instead)
    return value


def upload_bar(progress: UploadProgress, names: Mapping[str, str], *, hidden: bool = False) -> dict:
    """The upload bar's context (files/_upload_progress.html)."""
    return {
        "progress": progress,
        "said": progress.said(names),
        "names": bar_names("upload"),
        "hidden": hidden,
    }


@bp.post("/name")
def rename() -> tuple[str, int] | Response:
    """The company's name as the user wants it: the book, its downloads and the home list take
    it ("" = the name a report's title row gives, if any)."""
    migration().rename(request.form.get("company", ""))
    if not is_htmx():
        return redirect(url_for("files.page"), 303)
    return render("files/page.html", "files/_files.html", **_files_context(renamed=True))


@bp.post("/files/<name>/delete")
def remove(name: str) -> tuple[str, int] | Response:
    m = migration()
    if (job := runner().get(m)) is not None and job.active:  # (hunt 24: the import then
        raise ImportRunning(  # failed, told to free some space)
            f"{m.file(name).name} is being read by the import that is running: wait for it "
            "to finish on the Import step, or cancel it there, then remove the file."
        )
    m.remove_upload(name)
    if not is_htmx():
        return redirect(url_for("files.page"), 303)
    return render("files/page.html", "files/_files.html", **_files_context(removed=name))


@bp.post("/files/<name>/options")
def options(name: str) -> tuple[str, int] | Response:
    m = migration()
    m.file(name)  # 404 for a name that is not an upload
    form = request.form
    plan = m.plan()
    current = plan.files.get(name, FileOptions())
    if "date_order" in form:
        # checked with the plan's own rules when saved
        current = replace(current, date_order=cast(DateOrderCode, form["date_order"]))
    if "truncated_ok" in form:  # the file is cut at the export cap and the user expects it
        current = replace(current, truncated_ok=form["truncated_ok"] == "yes")
    files = {**plan.files, name: current}
    m.save_plan(_checked(replace(plan, files=files)))
    if not is_htmx():
        return redirect(url_for("files.page"), 303)
    return render("files/page.html", "files/_files.html", **_files_context())


@bp.route("/files/<name>/columns", methods=["GET", "POST"])
def columns(name: str) -> tuple[str, int] | Response:
    """Hand mapping: each role → a header; GET with values previews the rows live."""
    m = migration()
    path = m.file(name)
    if not mappable(path):
        raise NoColumns(
            f"{name} has no columns to map: only a CSV report's columns can be mapped by hand, "
            "and this file is read as it is. Go back to the Files step."
        )
    plan = m.plan()
    saved = plan.files.get(name, FileOptions())
    chosen = saved.columns
    if request.method == "POST" or request.args.get("preview"):
        form = request.form if request.method == "POST" else request.args
        chosen = {role: form[role] for role, _, _ in COLUMN_ROLES if form.get(role)}
    sample = column_sample(path, chosen, saved.date_order)
    if request.method == "POST" and not sample.complaint:
        files = {**plan.files, name: replace(saved, columns=chosen)}
        m.save_plan(_checked(replace(plan, files=files)))
        return redirect(url_for("files.page"), 303)
    status = UNPROCESSABLE if request.method == "POST" else HTTPStatus.OK
    context = {
        "m": m,
        "name": name,
        "sample": sample,
        "chosen": chosen,
        "roles": COLUMN_ROLES,
    }
    return render("files/columns.html", "files/_column_sample.html", status, **context)


def _checked(plan: Plan) -> Plan:
    """Through JSON and back: the plan file's own checks apply to the wizard's edits too."""
    return plan_from_json(plan.to_json(), "plan")
