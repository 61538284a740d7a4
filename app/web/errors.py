"""The only error handlers, and the only place HTTP statuses live: the domain raises
MigrationError (its message is the user's), the web layer picks the status and the page."""

from __future__ import annotations

import errno
import logging
from http import HTTPStatus
from pathlib import Path

from flask import Flask, current_app, g, render_template, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge, SecurityError

from app.errors import (
    AmbiguousFormatError,
    BookWriteError,
    MappingError,
    MigrationError,
    NotWritten,
    ParseError,
    ProblemsError,
    UnknownFormatError,
    why_not_written,
)
from app.store import DiskFull, DuplicateUpload, MigrationGone, UnknownUpload, UploadError
from app.update import UpdateRefused
from app.web.context import is_htmx
from app.words import quoted

log = logging.getLogger(__name__)
# what the disk refused (full, read-only): this computer's state, said as such, not a 500
NOT_WRITTEN = (errno.ENOSPC, errno.EDQUOT, errno.EROFS)


class CSRFError(MigrationError):
    """This page is out of date (its security token does not match). Reload the page and try
    again."""


class NotSignedIn(MigrationError):
    """This qb2gnucash wizard is private to the person who started it. Open the address it
    printed when it started, with its token (in the terminal where you started it: “qb2gnucash
    is running at http://127.0.0.1:…/?token=…”), or stop it with Ctrl+C and start it again
    (`make run`): it opens that address for you."""


class NoColumns(MigrationError):
    """Only a CSV report's columns can be mapped by hand."""


class ImportRunning(MigrationError):
    """The import that is running reads the files: wait for it to finish on the Import step,
    or cancel it there, then change them."""


# Input understood but refused (a file with problems, a step that cannot run yet): the views'
# status for a page that says what to fix, and the errors' below.
UNPROCESSABLE = HTTPStatus.UNPROCESSABLE_ENTITY

STATUS: dict[type[MigrationError], HTTPStatus] = {
    NoColumns: HTTPStatus.NOT_FOUND,
    MigrationGone: HTTPStatus.NOT_FOUND,
    NotSignedIn: HTTPStatus.FORBIDDEN,
    ParseError: UNPROCESSABLE,
    UnknownFormatError: HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
    AmbiguousFormatError: UNPROCESSABLE,
    MappingError: UNPROCESSABLE,
    ProblemsError: UNPROCESSABLE,
    DuplicateUpload: HTTPStatus.CONFLICT,
    ImportRunning: HTTPStatus.CONFLICT,
    DiskFull: HTTPStatus.CONFLICT,  # this computer's state, not the server's failure: never a 5xx
    NotWritten: HTTPStatus.CONFLICT,
    UploadError: HTTPStatus.BAD_REQUEST,
    CSRFError: HTTPStatus.BAD_REQUEST,
    UpdateRefused: UNPROCESSABLE,  # the book and the exports do not go together
    BookWriteError: HTTPStatus.INTERNAL_SERVER_ERROR,
}


def status_of(exc: MigrationError) -> HTTPStatus:
    """The status a refusal is answered with (by the handler below, or by a view that shows it
    in its own region)."""
    for cls in type(exc).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return HTTPStatus.BAD_REQUEST


def error_page(message: str, status: int, problems: tuple = ()) -> tuple[str, int, dict]:
    headers = {"Vary": "HX-Request"}
    if is_htmx():  # shown in the page's message area, whatever region asked
        headers |= {"HX-Retarget": "#messages", "HX-Reswap": "innerHTML"}
        html = render_template("errors/_error.html", message=message, problems=problems)
    else:
        html = render_template(
            "errors/error.html", message=message, problems=problems, status=status
        )
    return html, status, headers


def setup_errors(app: Flask) -> None:
    @app.errorhandler(MigrationError)
    def migration_error(exc: MigrationError):
        return error_page(exc.message, status_of(exc), getattr(exc, "problems", ()))

    @app.errorhandler(UnknownUpload)
    def unknown_upload(exc: UnknownUpload):
        return error_page(
            f"There is no uploaded file named {quoted(exc.args[0])} in this migration; the page "
            "may be "
            "out of date. Go back to the Files step.",
            HTTPStatus.NOT_FOUND,
        )

    @app.errorhandler(SecurityError)
    def untrusted_host(exc: SecurityError):
        # No page (no links, no cookie) for a host we do not serve (DNS rebinding attempts).
        text = (
            "qb2gnucash answers only on the address it was started on: open the address that "
            "`run.py` printed.\n"
        )
        return text, HTTPStatus.BAD_REQUEST, {"Content-Type": "text/plain; charset=utf-8"}

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(exc: RequestEntityTooLarge):
        limit = current_app.config["MAX_CONTENT_LENGTH"] // (1024 * 1024)
        length = request.content_length  # (None: sent in chunks, its size unknown)
        if length is not None and length <= current_app.config["MAX_CONTENT_LENGTH"]:
            return error_page(  # (werkzeug's limit of form parts: hunt 24 said "500 MB")
                "That upload holds too many files (or form fields) at once. Upload the files a "
                "few hundred at a time.",
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
            )
        return error_page(
            f"That upload is larger than the limit of {limit:,} MB. Upload the files one at a "
            "time, or export a shorter date range from QuickBooks.",
            HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
        )

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        return error_page(exc.description or exc.name, exc.code or HTTPStatus.INTERNAL_SERVER_ERROR)

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        if "migration" in g and not g.migration.meta_path.is_file():  # deleted meanwhile
            return migration_error(MigrationGone())
        if isinstance(exc, OSError) and exc.errno in NOT_WRITTEN:  # (hunt 24: a 500 each)
            where = Path(current_app.config["MIGRATIONS_DIR"])
            todo = (
                "Free some space (deleting an earlier migration on the home page frees its "
                "files) and try again."
                if exc.errno != errno.EROFS
                else f"qb2gnucash keeps its files in {where.parent}: make that folder writable, "
                "or start it with --instance and a folder it can write."
            )
            return error_page(
                f"Nothing was saved: {why_not_written(exc, where)}. {todo}", HTTPStatus.CONFLICT
            )
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error_page(
            "Something went wrong on our side (the details are in the server's log). Go back "
            "and try again; your uploaded files and choices are kept.",
            HTTPStatus.INTERNAL_SERVER_ERROR,
        )
