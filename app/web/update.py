"""The wizard's "Bring an existing book up to date" (docs/UPDATE.md): a book (uploaded, or one
the wizard wrote earlier, in a file or in PostgreSQL) and the company's later exports in one
form; the update runs, and the result page says what was added, what is held, the proof, and
offers the updated book (a book in PostgreSQL is brought up to date where it is: its password,
typed here or for its first write, is kept in this server's memory only)."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

from flask import Blueprint, redirect, request, send_file, url_for
from werkzeug.exceptions import NotFound
from werkzeug.utils import secure_filename
from werkzeug.wrappers import Response

from app import postgres, update_place
from app.errors import BookWriteError, MigrationError, ProblemsError
from app.fileio import read_json, write_json
from app.pages import update as view
from app.plan import HELD_CHOICES
from app.postgres import Address
from app.store import Migration, UploadError
from app.update import UpdateRefused
from app.update_run import bring_up_to_date
from app.web.context import migration, passwords, render, runner, store
from app.web.filters import differ_words

bp = Blueprint("update", __name__)


class NoBook(UploadError):
    """Choose the GnuCash book to bring up to date: upload it, or pick one written here."""


class NoExports(UploadError):
    """Add the company's later QuickBooks exports (the lists IIF and a transaction report)."""


class NoServer(UploadError):
    """The PostgreSQL server of that book refused the connection."""


def _earlier() -> list[view.Earlier]:
    """The books written here, newest first: each conversion's, and each update's (the book
    it brought up to date: next month's update starts from it, not from the first book)."""
    found: list[view.Found] = []
    for m in store().all():
        book = runner().book(m)
        if book is not None:
            where = book.job.database or book.path
            found.append((m.id, m.company, where, book.job.finished, differ_words(book.job), False))
        elif (updated := _updated_book(m)) is not None:
            path, data, when = updated
            found.append((m.id, m.company, path, when, view.home_state(data)[0], True))
    return view.earlier_books(found)


def _updated_book(m: Migration) -> tuple[Path | str, dict, float] | None:
    """The book an update migration brought up to date (its file, or its database's
    address), its result and when (None: it is no update, or has none)."""
    data = read_json(m.path / view.FOLDER / view.RESULT)
    if not data:
        return None
    result = m.path / view.FOLDER / view.RESULT
    if data.get("database"):
        return str(data["database"]), data, result.stat().st_mtime
    path = m.path / view.FOLDER / str(data.get("book", ""))
    return (path, data, path.stat().st_mtime) if path.is_file() else None


@bp.get("/update")
def page() -> tuple[str, int]:
    return render("update/page.html", "update/page.html", earlier=_earlier())


@bp.post("/update")
def run() -> Response:
    exports = [f for f in request.files.getlist("files") if f.filename]
    upload = request.files.get("book")
    chosen = request.form.get("earlier", "")
    if not (upload and upload.filename) and not chosen:
        raise NoBook()
    if not exports:
        raise NoExports()
    m = store().start()
    book: Path | Address | None = None
    try:
        folder = m.path / view.FOLDER
        folder.mkdir(mode=0o700)
        book = _book(folder, upload, chosen)
        password = None
        if isinstance(book, Address):  # typed now, else the one typed for its first write
            password = request.form.get("password") or passwords().get(chosen) or None
            _reached(book, password)
        for f in exports:
            m.save_upload(f.filename or "", f.stream)
        if refused := [p for w in m.withheld() for p in w.problems]:  # (not read: hunt 20)
            raise ProblemsError(refused)
        outcome = bring_up_to_date(m.files(), book, password=password)
        if password:
            passwords().keep(m.id, password)  # (each decision on the result page runs again)
        m.note_company(outcome.ledger.company)
        data = (
            view.result(outcome, book.database, book.url)
            if isinstance(book, Address)
            else view.result(outcome, book.name)
        )
        write_json(folder / view.RESULT, data)
    except UpdateRefused as exc:  # (said with the book as the user named it: hunt 28)
        store().delete(m)
        said = exc.message
        if isinstance(book, Path) and upload and upload.filename:
            said = said.replace(book.name, upload.filename)
        raise UpdateRefused(f"Your book was not changed: {said}") from None
    except (MigrationError, OSError):  # (an OSError: the disk full, said by ``errors``)
        store().delete(m)  # nothing of a refused update is kept
        raise
    return redirect(url_for("update.result", mid=m.id), 303)


def _book(folder: Path, upload, chosen: str) -> Path | Address:
    """The book to update, copied into the migration's folder (the original is never written;
    a book in PostgreSQL is brought up to date where it is, the book as it was kept beside it
    on its server)."""
    if upload is not None and upload.filename:
        name = secure_filename(upload.filename)
        if "." not in name or name == view.RESULT:  # (a book named result.json was replaced
            name = "book.gnucash"  # by the update's result, and served: hunt 24)
        path = folder / name
        upload.save(path)
        path.chmod(0o600)
        return path
    offered = {e.mid: e for e in _earlier()}
    if chosen not in offered:
        raise NoBook()
    if offered[chosen].database:
        return postgres.parse_address(offered[chosen].book)
    m = store().open(chosen)
    written = runner().book(m)
    updated = _updated_book(m)
    source = written.path if written is not None else updated[0] if updated else None
    if not isinstance(source, Path):
        raise NoBook()
    path = folder / source.name
    shutil.copy2(source, path)
    return path


TYPE_IT = "type its password in the field for a book in PostgreSQL"
RESTARTED = (
    "its password is no longer kept (the wizard was started again since): bring the book up to "
    "date again from the update page, with its password"
)


def _reached(book: Address, password: str | None, hint: str = TYPE_IT) -> None:
    """The book's server reached with ``password`` (a wrong one, or none where it asks for
    one, is the user's to fix here: said as such, not as a failure of the update)."""
    try:
        update_place.checked(book, password)
    except BookWriteError as exc:
        raise NoServer(exc.message.replace(postgres.PASSWORD_HINT, hint)) from None


def _result_of(m: Migration) -> dict:
    data = read_json(m.path / view.FOLDER / view.RESULT)
    if not data:
        raise NotFound("This migration brought no book up to date.")
    return data


@bp.get("/m/<mid>/update")
def result() -> tuple[str, int]:
    return render("update/result.html", "update/result.html", r=view.shown(_result_of(migration())))


class UnknownChange(UploadError):
    """That change is not among the ones this update held; reload the page."""


@bp.post("/m/<mid>/update/decide")
def decide() -> Response:
    """A held change decided (take QuickBooks' version, or keep the book's): the update runs
    again on the updated book with the decision in its plan (docs/UPDATE.md)."""
    m = migration()
    done = _result_of(m)
    key, choice = request.form.get("key", ""), request.form.get("choice", "")
    if key not in {h["key"] for h in done["held_changes"]} or choice not in HELD_CHOICES:
        raise UnknownChange()
    where = done.get("database", "")
    book = postgres.parse_address(where) if where else m.path / view.FOLDER / done["book"]
    password = passwords().get(m.id) if where else None
    if isinstance(book, Address):
        _reached(book, password, RESTARTED)
    try:
        outcome = bring_up_to_date(
            m.files(),
            book,
            lambda plan: replace(plan, held={**plan.held, key: choice}),
            password=password,
        )
    except UpdateRefused as exc:  # (the book as it was: said beside the change, not a page)
        write_json(m.path / view.FOLDER / view.RESULT, {**done, "refused": [key, exc.message]})
        return redirect(url_for("update.result"), 303)
    data = view.result(outcome, done["book"], where)
    data["earlier"] = done.get("earlier") or view.earlier_run(done)  # the update's own record
    data["decisions"] = view.decided(done, key, choice)
    write_json(m.path / view.FOLDER / view.RESULT, data)
    return redirect(url_for("update.result"), 303)


@bp.get("/m/<mid>/update/book")
def book() -> Response:
    m = migration()
    done = _result_of(m)
    if done.get("database"):
        raise NotFound(f"The book is in PostgreSQL ({done['database']}), not in a file.")
    name = done["book"]
    path = m.path / view.FOLDER / name
    if not path.is_file():
        raise NotFound("The updated book is missing.")
    return send_file(path, as_attachment=True, download_name=view.updated_name(name), max_age=0)
